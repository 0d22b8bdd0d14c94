import LMGrammar
import LMTransformer

extension Grammar {
    /// The JSON inside a call's envelope: one of the tools' `{"name": NAME, "arguments": ARGUMENTS}` objects,
    /// where NAME is the tool's name (a constant) and ARGUMENTS follows that tool's parameters schema; for
    /// a list syntax (`isList`) a list of 1 to `maximumCalls` of them.
    ///
    /// Each tool's named definitions (`$defs`) are kept apart by prefixing them with the tool's position, so two
    /// tools may both define a type called `Address`.
    /// - Throws: `GrammarError` when a tool's parameters cannot be read as a grammar, with the tool's name
    ///   in front of the path.
    /// - Parameters:
    ///   - argumentsKey: the arguments' key (`"arguments"`; `"parameters"` for Llama 3).
    ///   - id: the key and length of a call id the model writes after the arguments, as ASCII letters and
    ///     digits (Mistral Nemo: `"id"`, 9); nil: none. With `nameFirst`, the id's length (its key is unused).
    ///   - nameFirst: the call is `NAME`, the id after its marker when there is one, the text before the arguments,
    ///     then ARGUMENTS (Mistral's `NAME[ARGS]{…}`), instead of one JSON object (``ToolCallSyntax/nameFirst``).
    static func toolCall(_ definitions: [Transcript.ToolDefinition], isList: Bool, maximumCalls: Int,
                         argumentsKey: String = "arguments", id: (key: String, length: Int)? = nil,
                         nameFirst: ToolCallSyntax.NameFirst? = nil) throws(GrammarError) -> Grammar {
        var alternatives: [GrammarNode] = []
        var merged: [String: GrammarNode] = [:]
        for (position, definition) in definitions.enumerated() {
            let arguments: Grammar
            do {
                arguments = try Grammar(jsonSchema: definition.storedParameters.jsonValue)
            } catch .invalidSchema(let path, let reason) {
                throw .invalidSchema(path: "tool \(definition.name)\(path)", reason: reason)
            }
            let prefix = "\(position):"
            for (name, node) in arguments.definitions { merged[prefix + name] = node.prefixingReferences(with: prefix) }
            if let nameFirst {
                var parts: [GrammarNode] = [.literals([definition.name + (nameFirst.idMarker ?? "")])]
                if nameFirst.idMarker != nil { parts += Array(repeating: Self.alphanumeric, count: id?.length ?? 9) }
                parts += [.literals([nameFirst.beforeArguments]), arguments.root.prefixingReferences(with: prefix)]
                alternatives.append(.sequence(parts))
                continue
            }
            var fields = [
                GrammarField(name: "name", value: .choices([definition.name])),
                GrammarField(name: argumentsKey, value: arguments.root.prefixingReferences(with: prefix)),
            ]
            if let id { fields.append(GrammarField(name: id.key, value: .string(pattern: "^[A-Za-z0-9]{\(id.length)}$"))) }
            alternatives.append(.object(fields))
        }
        guard !alternatives.isEmpty else { throw .emptyLanguage("no tools to call") }
        let call = alternatives.count == 1 ? alternatives[0] : .anyOf(alternatives)
        guard isList else { return Grammar(root: call, definitions: merged) }
        return Grammar(root: .array(item: call, minCount: 1, maxCount: maximumCalls), definitions: merged)
    }
}

extension Grammar {
    /// One ASCII letter or digit, as raw text (in a ``GrammarNode/sequence(_:)``).
    static let alphanumeric = GrammarNode.literals("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".map { String($0) })
}

extension GrammarNode {
    /// This node with every reference `name` renamed `prefix + name`.
    func prefixingReferences(with prefix: String) -> GrammarNode {
        renamingReferences { prefix + $0 }
    }
}
