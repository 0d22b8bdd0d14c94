import Foundation

extension Transcript {
    /// What a model reasoned before it answered or called tools (Apple's 27 `Transcript.Reasoning`): one entry per
    /// block of reasoning, before the `.response` or `.toolCalls` entry of the same model call. Never part of a
    /// response's content. Produced by ``ClaudeLanguageModel`` (Claude's thinking blocks); the local model does
    /// not reason separately and leaves reasoning entries out of its prompts.
    public struct Reasoning: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The reasoning text (empty when the provider returned it redacted).
        public var segments: [Segment]
        /// The provider's signature over the reasoning, which it checks when the reasoning is sent back to it
        /// (Claude's thinking signature, base64-decoded); nil when unsigned.
        public var signature: Data?

        public init(id: String = UUID().uuidString, segments: [Segment], signature: Data? = nil) {
            self.id = id
            self.segments = segments
            self.signature = signature
        }

        public var description: String { "Reasoning: " + segments.descriptionText }
    }
}
