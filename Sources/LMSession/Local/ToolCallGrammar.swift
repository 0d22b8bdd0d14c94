import LMGrammar

extension Grammar {
    /// The JSON inside a call's envelope: one of the tools' `{"name": NAME, "arguments": ARGUMENTS}` objects,
    /// where NAME is the tool's name (a constant) and ARGUMENTS follows that tool's parameters schema; for
    /// ``ToolCallEnvelope/Style/list`` a list of 1 to `maximumCalls` of them.
    ///
    /// Each tool's named definitions (`$defs`) are kept apart by prefixing them with the tool's position, so two
    /// tools may both define a type called `Address`.
    /// - Throws: `GrammarError` when a tool's parameters cannot be read as a grammar, with the tool's name
    ///   in front of the path.
    /// - Parameter argumentsKey: the arguments' key (`"arguments"`; `"parameters"` for Llama 3).
    static func toolCall(_ definitions: [Transcript.ToolDefinition], style: ToolCallEnvelope.Style, maximumCalls: Int,
                         argumentsKey: String = "arguments") throws(GrammarError) -> Grammar {
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
            alternatives.append(.object([
                GrammarField(name: "name", value: .choices([definition.name])),
                GrammarField(name: argumentsKey, value: arguments.root.prefixingReferences(with: prefix)),
            ]))
        }
        guard !alternatives.isEmpty else { throw .emptyLanguage("no tools to call") }
        let call = alternatives.count == 1 ? alternatives[0] : .anyOf(alternatives)
        switch style {
        case .object: return Grammar(root: call, definitions: merged)
        case .list: return Grammar(root: .array(item: call, minCount: 1, maxCount: maximumCalls), definitions: merged)
        }
    }
}

extension GrammarNode {
    /// This node with every reference `name` renamed `prefix + name`.
    func prefixingReferences(with prefix: String) -> GrammarNode {
        renamingReferences { prefix + $0 }
    }
}
