import Foundation

/// One thing a model call reports while generating, as ``ChannelCoalescer`` makes it of the executor's channel events:
/// what the request's state machine (``ResponseRun``) consumes.
package enum LanguageModelEvent: Sendable, Equatable {
    /// More response text, appended to what came before (a delta).
    case text(String)
    /// The structured value so far, replacing the previous one (for providers that produce values directly).
    case content(GeneratedContent)
    /// The model calls tools; the step ends here and the session runs them.
    case toolCalls([Transcript.ToolCall])
    /// Token counts of this step (the last one reported wins).
    case usage(LanguageModelUsage)
    /// One complete block of reasoning (never part of the response): the session records it as a
    /// ``Transcript/Reasoning`` entry before the step's response or tool calls. `signature` is the provider's,
    /// to send back with it (nil when unsigned).
    case reasoning(text: String, signature: Data?)
    /// A segment of the response other than its text (a server tool's call or result), placed after the text
    /// so far: the response entry's segments keep text and such segments in the order they came. Only the
    /// last step's (the one that answers) are recorded.
    case segment(Transcript.Segment)
    /// The whole response text so far, replacing what the text deltas built (an executor replaced a text
    /// segment it had streamed, ``LanguageModelExecutorGenerationChannel/Response/Action/replaceTextSegment(_:)``).
    case replaceText(String)
    /// One complete reasoning entry, with its id and metadata (an executor's coalesced reasoning events):
    /// recorded like ``reasoning(text:signature:)``.
    case reasoningEntry(Transcript.Reasoning)
    /// The id and metadata the response entry gets (an executor's `entryID` and last metadata snapshot).
    case responseDetails(LanguageModelResponseDetails)
}

/// The id and metadata an executor gave its response entry.
package struct LanguageModelResponseDetails: Sendable, Equatable {
    /// The entry's id; nil keeps the one the session makes.
    public var entryID: String?
    public var metadata: [String: any Sendable & Codable & Equatable]

    public init(entryID: String?, metadata: [String: any Sendable & Codable & Equatable]) {
        self.entryID = entryID
        self.metadata = metadata
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.entryID == b.entryID && Transcript.metadataEqual(a.metadata, b.metadata)
    }
}

/// Token counts of one model call.
package struct LanguageModelUsage: Sendable, Equatable {
    /// Tokens of input (instructions, tools, transcript, prompt, schema), cached ones included.
    public var inputTokens: Int
    /// Input tokens re-used from the KV cache instead of being processed again.
    public var cachedInputTokens: Int
    /// Tokens generated, reasoning included.
    public var outputTokens: Int
    /// Of ``outputTokens``, those spent reasoning (a local model's `<think>` block with its markers; a server's
    /// `reasoning_tokens`); 0 when the model did not reason or does not say.
    public var reasoningTokens: Int

    public init(inputTokens: Int, cachedInputTokens: Int = 0, outputTokens: Int, reasoningTokens: Int = 0) {
        self.inputTokens = inputTokens
        self.cachedInputTokens = cachedInputTokens
        self.outputTokens = outputTokens
        self.reasoningTokens = reasoningTokens
    }
}
