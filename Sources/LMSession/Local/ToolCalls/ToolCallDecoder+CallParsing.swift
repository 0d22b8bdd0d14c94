import Foundation

extension ToolCallDecoder {
    /// The calls of one complete envelope whose JSON the call grammar let through: `{"name": NAME, ARGUMENTS_KEY: {…}}`
    /// (object style) or a list of them (list style), each with the id the model wrote under `idKey` or `makeID()`'s.
    /// A call equal to one in `earlier` (same name and arguments) is left out and reported as `repeated`.
    /// - Throws: ``GeneratedContent/ParsingError`` naming the JSON when it does not have that shape (the grammar should
    ///   make that impossible).
    static func jsonCalls(_ json: String, isList: Bool, argumentsKey: String, idKey: String?,
                          earlier: [Transcript.ToolCall], makeID: () -> String)
        throws(GeneratedContent.ParsingError) -> (calls: [Transcript.ToolCall], repeated: Bool) {
        var calls: [Transcript.ToolCall] = [], repeated = false
        do {
            let content = try GeneratedContent(json: json)
            let items: [GeneratedContent]
            switch (isList, content.kind) {
            case (true, .array(let list)): items = list
            case (false, _): items = [content]
            default: throw GeneratedContent.ParsingError(rawContent: json, debugDescription: "not a list of calls")
            }
            for item in items {
                let name = try item.value(String.self, forProperty: "name")
                guard case let .structure(properties, _) = item.kind, let arguments = properties[argumentsKey] else {
                    throw GeneratedContent.ParsingError(rawContent: json, debugDescription: "a call without arguments")
                }
                if Self.repeats(name, arguments, earlier) || Self.repeats(name, arguments, calls) {
                    repeated = true
                } else {
                    let written = try idKey.map { try item.value(String.self, forProperty: $0) }
                    let id = written.map { uniqueID($0, among: earlier + calls, makeID: makeID) } ?? makeID()
                    calls.append(Transcript.ToolCall(id: id, toolName: name, arguments: arguments))
                }
            }
        } catch {
            throw GeneratedContent.ParsingError(rawContent: json, underlyingError: error,
                                                debugDescription: "The tool call does not decode: \(json) (\(error))")
        }
        return (calls, repeated)
    }

    /// `id`, or when a call of `calls` has it already, as many letters and digits taken from `makeID()` that none
    /// has: a model that writes its own ids may repeat one, and the round's outputs are matched to calls by id.
    static func uniqueID(_ id: String, among calls: [Transcript.ToolCall], makeID: () -> String) -> String {
        let taken = Set(calls.map(\.id))
        guard taken.contains(id) else { return id }
        while true {
            var fresh = ""
            while fresh.count < id.count { fresh += makeID().filter { $0.isASCII && ($0.isLetter || $0.isNumber) } }
            let candidate = id.isEmpty ? makeID() : String(fresh.prefix(id.count))
            if !taken.contains(candidate) { return candidate }
        }
    }

    /// Whether `calls` holds a call of `name` with these arguments: a model writing it again is looping.
    static func repeats(_ name: String, _ arguments: GeneratedContent, _ calls: [Transcript.ToolCall]) -> Bool {
        calls.contains { $0.toolName == name && $0.arguments.jsonString == arguments.jsonString }
    }
}
