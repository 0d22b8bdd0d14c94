import Foundation

/// Where an executor streams what it generates (Apple's `LanguageModelExecutorGenerationChannel`,
/// iOS/macOS 27): `await channel.send(.response(entryID:action:))`, `.reasoning(...)` or `.toolCalls(...)`.
///
/// Executors send deltas; the session coalesces them into transcript entries: events with one `entryID`
/// build one entry, text appends to the entry's current text segment, tool-call arguments accumulate per call
/// id, usage and metadata replace earlier values. A reasoning event with `entryID: nil` joins the trailing
/// reasoning entry when the previous event was reasoning, and opens a new one otherwise.
///
/// The session reads the channel as an `AsyncSequence` of events; the executor only sends. Sending never
/// blocks (events are buffered until the session reads them) and after the request ended it does nothing.
public struct LanguageModelExecutorGenerationChannel: AsyncSequence, Sendable {
    public typealias Element = any Event
    public typealias Failure = Never

    private let stream: AsyncStream<any Event>
    private let continuation: AsyncStream<any Event>.Continuation

    /// A channel with nothing sent yet.
    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: (any Event).self)
    }

    /// Sends `event` to the session.
    public func send(_ event: some Event) async {
        continuation.yield(event)
    }

    /// Ends the sequence once the buffered events are read: the executor returned or threw. The session calls it;
    /// code that drives an executor itself calls it after `respond` returns, so its reading loop ends. Not in
    /// Apple's API (there the framework owns the channel).
    public func finish() {
        continuation.finish()
    }

    public func makeAsyncIterator() -> AsyncStream<any Event>.Iterator {
        stream.makeAsyncIterator()
    }
}

extension LanguageModelExecutorGenerationChannel {
    /// One thing an executor reports; ``kind`` tells which.
    public protocol Event: Sendable {
        /// The event as one of the three kinds, with its typed payload.
        var kind: EventKind { get }
    }

    /// Which kind an ``Event`` is, holding it.
    public struct EventKind: Sendable {
        /// The event itself, typed.
        public enum Storage: Sendable {
            case response(Response)
            case reasoning(Reasoning)
            case toolCalls(ToolCalls)
        }

        public var storage: Storage

        public init(storage: Storage) {
            self.storage = storage
        }
    }

    /// A piece of text to append to an entry's text segment.
    public struct TextFragment: Sendable, Equatable {
        /// The text, appended as is.
        public var content: String
        /// The segment it belongs to; `nil` is the entry's current (last) text segment. A new id opens a segment.
        public var segmentID: String?
        /// Tokens the text took to generate.
        public var tokenCount: Int

        public init(content: String, segmentID: String? = nil, tokenCount: Int) {
            self.content = content
            self.segmentID = segmentID
            self.tokenCount = tokenCount
        }
    }

    /// The whole text of a text segment, replacing what it held (a provider's final, corrected version).
    public struct TextSegmentReplacement: Sendable, Equatable {
        /// The segment's new text.
        public var content: String
        /// The segment replaced; `nil` is the entry's current (last) text segment.
        public var segmentID: String?
        /// Tokens the text took to generate (replaces the segment's earlier count).
        public var tokenCount: Int

        public init(content: String, segmentID: String? = nil, tokenCount: Int) {
            self.content = content
            self.segmentID = segmentID
            self.tokenCount = tokenCount
        }
    }

    /// A wholesale snapshot of an entry's (or a tool call's) metadata: it replaces the earlier one, so a key
    /// left out is removed.
    public struct Metadata: Sendable, Equatable {
        public var values: [String: GeneratedContent]

        public init(values: [String: GeneratedContent]) {
            self.values = values
        }

        /// Metadata of `values` (`String`, `Int`, `Double`, `Bool`, arrays of them, `@Generable` values,
        /// `GeneratedContent(properties:)` for nested objects).
        public init(_ values: [String: any ConvertibleToGeneratedContent]) {
            self.values = values.mapValues(\.generatedContent)
        }
    }

    /// Cumulative token counts of the model call so far: each report replaces the earlier one (not added).
    public struct Usage: Sendable, Equatable {
        /// Tokens the model read.
        public struct Input: Sendable, Equatable {
            /// All input tokens, cached ones included.
            public var totalTokenCount: Int
            /// Input tokens the provider served from its cache.
            public var cachedTokenCount: Int

            public init(totalTokenCount: Int, cachedTokenCount: Int = 0) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// Tokens the model generated.
        public struct Output: Sendable, Equatable {
            /// All generated tokens, reasoning included.
            public var totalTokenCount: Int
            /// Of them, tokens spent reasoning.
            public var reasoningTokenCount: Int

            public init(totalTokenCount: Int, reasoningTokenCount: Int = 0) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        public var input: Input
        public var output: Output
        /// Extra context recorded with the counts.
        public var metadata: Metadata

        public init(input: Input, output: Output, metadata: Metadata = Metadata(values: [:])) {
            self.input = input
            self.output = output
            self.metadata = metadata
        }
    }
}
