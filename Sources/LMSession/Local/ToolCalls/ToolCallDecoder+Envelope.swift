import LMTransformer

extension ToolCallDecoder {
    /// The convention's fixed texts as tokens of this vocabulary.
    package struct EnvelopeTokens: Sendable {
        /// ``ToolCallEnvelope/open``.
        package var open: [Int]
        /// ``ToolCallEnvelope/close``.
        package var close: [Int]
        /// ``ToolCallEnvelope/separator`` followed by ``ToolCallEnvelope/open`` (one object per call): the first token
        /// is the model's choice to call another tool, the rest is forced.
        package var separatorAndOpen: [Int]
        /// The convention.
        package var isList: Bool
        /// The token of a lone `"`, forced to close a string that has started repeating itself (nil: none).
        package var quote: Int?
        /// The key of a call's arguments (`"arguments"`; Llama 3: `"parameters"`).
        package var argumentsKey: String
        /// The tags the response text is scanned for; the first starts a call.
        package var tags: ToolMarkupScanner.Tags
        /// Whether the starting tag is the beginning of the call's JSON (Llama 3's `{"name"`), which the grammar
        /// then reads too, rather than markup before it.
        package var tagStartsJSON: Bool
        /// The starting tag's bytes.
        package var tagBytes: [UInt8]
        /// What the opening text has after the starting tag (Qwen's newline after `<tool_call>`): its bytes, and its
        /// tokens, forced when the token that completed the tag ends there.
        package var openRest: (bytes: [UInt8], tokens: [Int])
        /// The key and length of the call id the model writes after the arguments (Mistral Nemo: `"id"`, 9); the
        /// call then has that id. Nil: the decoder makes the id.
        package var id: (key: String, length: Int)?
        /// The call is the tool's name, then arguments (``ToolCallSyntax/nameFirst``); nil: one JSON object.
        package var nameFirst: ToolCallSyntax.NameFirst?

        package init(open: [Int], close: [Int], separatorAndOpen: [Int], isList: Bool, quote: Int? = nil,
                     argumentsKey: String = "arguments", tags: ToolMarkupScanner.Tags = .standard,
                     tagStartsJSON: Bool = false, tagBytes: [UInt8] = Array(ToolCallEnvelope.open.utf8),
                     openRest: (bytes: [UInt8], tokens: [Int]) = ([], []), id: (key: String, length: Int)? = nil,
                     nameFirst: ToolCallSyntax.NameFirst? = nil) {
            self.id = id
            self.nameFirst = nameFirst
            self.open = open
            self.close = close
            self.separatorAndOpen = separatorAndOpen
            self.isList = isList
            self.quote = quote
            self.argumentsKey = argumentsKey
            self.tags = tags
            self.tagStartsJSON = tagStartsJSON
            self.tagBytes = tagBytes
            self.openRest = openRest
        }
    }
}
