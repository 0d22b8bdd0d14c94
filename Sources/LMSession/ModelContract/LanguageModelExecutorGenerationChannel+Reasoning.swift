import Foundation

extension LanguageModelExecutorGenerationChannel {
    /// An event of a reasoning entry (Apple's `LanguageModelExecutorGenerationChannel.Reasoning`, iOS/macOS 27).
    public struct Reasoning: Event, Sendable {
        /// The reasoning entry the event builds; `nil` joins the trailing reasoning entry when the previous
        /// event was reasoning, and opens a new entry otherwise.
        public var entryID: String?
        public var action: Action

        public init(entryID: String? = nil, action: Action) {
            self.entryID = entryID
            self.action = action
        }

        public var kind: EventKind { EventKind(storage: .reasoning(self)) }

        /// The provider's signature over the reasoning: opaque bytes it checks when the reasoning comes back.
        public struct ReasoningSignature: Sendable, Equatable {
            public var signature: Data
            public var tokenCount: Int

            public init(signature: Data, tokenCount: Int) {
                self.signature = signature
                self.tokenCount = tokenCount
            }
        }

        /// What the event does to the reasoning entry.
        public enum Action: Sendable {
            /// Appends reasoning text to the entry's current text segment.
            case appendText(TextFragment)
            /// Replaces a text segment of the reasoning wholesale.
            case replaceTextSegment(TextSegmentReplacement)
            /// Replaces the entry's signature.
            case updateSignature(ReasoningSignature)
            /// Replaces the entry's metadata wholesale.
            case updateMetadata(Metadata)
            /// Replaces the usage reported so far.
            case updateUsage(Usage)

            /// Appends reasoning `text` (`tokenCount` tokens).
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                .appendText(TextFragment(content: text, segmentID: segmentID, tokenCount: tokenCount))
            }

            /// Replaces the current reasoning text segment's text with `text`.
            public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                .replaceTextSegment(TextSegmentReplacement(content: text, segmentID: segmentID, tokenCount: tokenCount))
            }

            /// Replaces the entry's signature with `signature` (opaque bytes, never decoded).
            public static func updateSignature(_ signature: Data, tokenCount: Int) -> Action {
                .updateSignature(ReasoningSignature(signature: signature, tokenCount: tokenCount))
            }

            /// Replaces the entry's metadata with `values`.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                .updateMetadata(Metadata(values))
            }

            /// Replaces the usage reported so far with these cumulative totals.
            public static func updateUsage(input: Usage.Input, output: Usage.Output,
                                           metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> Action {
                .updateUsage(Usage(input: input, output: output, metadata: Metadata(metadata)))
            }
        }
    }
}

extension LanguageModelExecutorGenerationChannel.Event where Self == LanguageModelExecutorGenerationChannel.Reasoning {
    /// An event of the reasoning entry `entryID` (`nil`: the trailing reasoning entry) (Apple 27).
    public static func reasoning(entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.Reasoning.Action) -> Self {
        LanguageModelExecutorGenerationChannel.Reasoning(entryID: entryID, action: action)
    }
}
