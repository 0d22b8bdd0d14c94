import Foundation

extension LanguageModelExecutorGenerationChannel {
    /// An event of a response entry (Apple's `LanguageModelExecutorGenerationChannel.Response`, iOS/macOS 27).
    public struct Response: Event, Sendable {
        /// The response entry the event builds; every event of one response carries the same id.
        public var entryID: String?
        public var action: Action

        public init(entryID: String? = nil, action: Action) {
            self.entryID = entryID
            self.action = action
        }

        public var kind: EventKind { EventKind(storage: .response(self)) }

        /// What the event does to the response entry.
        public enum Action: Sendable {
            /// Appends text to the entry's current text segment (or to the segment `segmentID` names).
            case appendText(TextFragment)
            /// Replaces a text segment's text wholesale.
            case replaceTextSegment(TextSegmentReplacement)
            /// Adds an attachment segment (an image the model produced) after the text so far.
            case addAttachmentSegment(Transcript.AttachmentSegment)
            /// Removes the attachment segment with this id.
            case removeAttachmentSegment(id: String)
            /// Replaces the entry's metadata wholesale.
            case updateMetadata(Metadata)
            /// Replaces the usage reported so far.
            case updateUsage(Usage)

            /// Appends `text` (`tokenCount` tokens) to the current text segment, or to segment `segmentID`.
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                .appendText(TextFragment(content: text, segmentID: segmentID, tokenCount: tokenCount))
            }

            /// Replaces the current text segment's text (or segment `segmentID`'s) with `text`.
            public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                .replaceTextSegment(TextSegmentReplacement(content: text, segmentID: segmentID, tokenCount: tokenCount))
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

extension LanguageModelExecutorGenerationChannel.Event where Self == LanguageModelExecutorGenerationChannel.Response {
    /// An event of the response entry `entryID` (Apple 27).
    public static func response(entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.Response.Action) -> Self {
        LanguageModelExecutorGenerationChannel.Response(entryID: entryID, action: action)
    }
}
