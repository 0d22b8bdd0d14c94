import LMTransformer

extension ToolCallDecoder {
    /// A complete name-first call (``ToolCallSyntax/nameFirst``) read from the bytes the grammar let through:
    /// `NAME [ID_MARKER ID] BEFORE_ARGUMENTS ARGUMENTS` (Mistral's `get_weather[ARGS]{"city": "Oslo"}`).
    /// - Parameters:
    ///   - bytes: the call's bytes, from the tool's name to the arguments' closing brace.
    ///   - toolNames: the tools' names, longest first (a name that is a prefix of another is tried last).
    ///   - idLength: the length of the id after ``ToolCallSyntax/NameFirst/idMarker``; the call's id is that text.
    ///   - makeID: the id of a call whose layout has no id.
    /// - Throws: ``GeneratedContent/ParsingError`` when the bytes do not have that shape (the grammar should make that
    ///   impossible) or the arguments do not decode.
    static func nameFirstCall(_ bytes: [UInt8], layout: ToolCallSyntax.NameFirst, toolNames: [String], idLength: Int,
                              makeID: () -> String) throws(GeneratedContent.ParsingError) -> Transcript.ToolCall {
        let text = String(decoding: bytes, as: UTF8.self)
        let afterName = layout.idMarker ?? layout.beforeArguments
        guard let name = toolNames.first(where: { bytes.starts(with: Array(($0 + afterName).utf8)) }) else {
            throw GeneratedContent.ParsingError(rawContent: text, debugDescription: "The tool call names no tool: \(text)")
        }
        var rest = bytes.dropFirst(name.utf8.count + afterName.utf8.count)
        let id: String
        if layout.idMarker != nil {
            id = String(decoding: rest.prefix(idLength), as: UTF8.self)
            rest = rest.dropFirst(idLength)
            guard rest.starts(with: Array(layout.beforeArguments.utf8)) else {
                throw GeneratedContent.ParsingError(rawContent: text, debugDescription: "The tool call's id is not \(idLength) characters: \(text)")
            }
            rest = rest.dropFirst(layout.beforeArguments.utf8.count)
        } else {
            id = makeID()
        }
        let json = String(decoding: rest, as: UTF8.self)
        do {
            return Transcript.ToolCall(id: id, toolName: name, arguments: try GeneratedContent(json: json))
        } catch {
            throw GeneratedContent.ParsingError(rawContent: text, underlyingError: error,
                                                debugDescription: "The tool call's arguments do not decode: \(json) (\(error))")
        }
    }
}
