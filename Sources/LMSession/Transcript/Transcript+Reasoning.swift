import Foundation

extension Transcript {
    /// What a model reasoned before it answered or called tools (Apple's 27 `Transcript.Reasoning`): one entry per
    /// block of reasoning, before the `.response` or `.toolCalls` entry of the same model call. Never part of a
    /// response's content. Produced by ``ClaudeLanguageModel`` (Claude's thinking blocks) and by a local GGUF whose
    /// vocabulary has `<think>`/`</think>` (Qwen3); the local model leaves reasoning entries out of its prompts.
    public struct Reasoning: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// The reasoning text (empty when the provider returned it redacted).
        public var segments: [Segment]
        /// The provider's signature over the reasoning, which it checks when the reasoning is sent back to it
        /// (Claude's thinking signature, base64-decoded); nil when unsigned.
        public var signature: Data?
        /// Values the model's provider attached to the reasoning (Apple 27); empty for the models in this package.
        /// Compared by value, kept in transcript JSON.
        public var metadata: [String: any Sendable & Codable & Equatable]

        public init(id: String = UUID().uuidString, metadata: [String: any Sendable & Codable & Equatable] = [:],
                    segments: [Segment], signature: Data? = nil) {
            self.id = id
            self.metadata = metadata
            self.segments = segments
            self.signature = signature
        }

        public var description: String { "Reasoning: " + segments.descriptionText }

        public static func == (a: Reasoning, b: Reasoning) -> Bool {
            a.id == b.id && a.segments == b.segments && a.signature == b.signature && Transcript.metadataEqual(a.metadata, b.metadata)
        }
    }
}
