import Foundation

/// The session's internal view of a model: every ``LanguageModel`` reaches it through ``ExecutorModel``, which
/// runs the model's executor and coalesces its channel into ``LanguageModelEvent``s (deltas) for the session. The
/// session hands a ``LanguageModelConversation`` the complete transcript, the generation options, the response
/// schema (if any) and the tool definitions of one model call; tool execution, snapshots, the transcript, rollback
/// and the one-request-at-a-time rule stay in the session. What the session asks beyond Apple's protocol
/// (availability, context size, token counting) is ``LanguageModelDetails``.
package protocol ConversationModel: LanguageModelDetails {
    /// The connection a session's calls run on.
    func makeConversation() -> any LanguageModelConversation

    /// The content checks the session applies to input and output (``SystemLanguageModel/guardrails``).
    var guardrails: SystemLanguageModel.Guardrails { get }
}

extension ConversationModel {
    /// None: only a ``SystemLanguageModel`` has guardrails.
    var guardrails: SystemLanguageModel.Guardrails { .default }
}

/// One session's connection to a provider. A session never runs two requests on it at once.
package protocol LanguageModelConversation: AnyObject, Sendable {
    /// Starts loading the model and processing `transcript` (and `promptPrefix`, the start of the next
    /// prompt) in the background so the next request starts faster, and returns at once. Work started
    /// here must come before any later `generate` of this conversation. Best effort: never fails visibly.
    func prewarm(transcript: Transcript, promptPrefix: Prompt?)

    /// Generates the next step for `request`: text, a structured value or tool calls, then usage.
    ///
    /// The stream throws Apple's 27 types for model-level failures: ``LanguageModelError``
    /// (`contextSizeExceeded` with both token counts, `rateLimited`, `refusal`...), ``SystemLanguageModel/Error``
    /// (`assetsUnavailable`), ``GeneratedContent/ParsingError`` (output that does not decode); others stay in
    /// the model's own types. A model that throws the 26 ``LanguageModelSession/GenerationError`` is converted
    /// too: the session throws what its ``LanguageModelSession/errorConvention`` says. Terminating the stream
    /// (the consumer cancelled or stopped) must stop generation within one token.
    func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error>

    /// True when every structured response this conversation produces follows the request's schema by
    /// construction (the local model masks tokens with the schema's grammar). When false (a server that
    /// may ignore `response_format`), the session checks the complete response against the schema and
    /// throws ``GeneratedContent/ParsingError`` when it does not conform.
    var constrainsStructuredOutput: Bool { get }

    /// True when the model checks the context budget itself (``ChecksContextBudget``): the session does not count
    /// the request first.
    var checksContextBudget: Bool { get }
}

extension LanguageModelConversation {
    package func prewarm(transcript: Transcript, promptPrefix: Prompt?) {}
    package var constrainsStructuredOutput: Bool { false }
    package var checksContextBudget: Bool { false }
}

/// Everything one model call needs: what ``LanguageModelTokenCountInput/request(_:)`` measures, and what the package's
/// generators read (converted from Apple's ``LanguageModelExecutorGenerationRequest``).
public struct LanguageModelRequest: Sendable {
    /// The complete transcript: instructions first (if any), the history, then the current `.prompt` entry
    /// (followed by tool calls and outputs of this turn when tools ran).
    public var transcript: Transcript
    /// The options of the current prompt.
    public var options: GenerationOptions
    /// The schema the response must follow; `nil` for text.
    public var schema: GenerationSchema?
    /// Whether the schema is also described to the model in the prompt (it always constrains decoding).
    public var includeSchemaInPrompt: Bool
    /// Every tool the model may call (the instructions entry lists only those whose definitions are shown).
    public var toolDefinitions: [Transcript.ToolDefinition]
    /// The request's context options (Apple 27): its reasoning level, for models that reason.
    public var contextOptions: ContextOptions
    /// The request's metadata (Apple 27), for models that send it on.
    public var metadata: [String: any Sendable & Codable & Equatable]

    public init(transcript: Transcript, options: GenerationOptions = GenerationOptions(), schema: GenerationSchema? = nil,
                includeSchemaInPrompt: Bool = true, toolDefinitions: [Transcript.ToolDefinition] = [],
                contextOptions: ContextOptions = ContextOptions(), metadata: [String: any Sendable & Codable & Equatable] = [:]) {
        self.transcript = transcript
        self.options = options
        self.schema = schema
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.toolDefinitions = toolDefinitions
        self.contextOptions = contextOptions
        self.metadata = metadata
    }
}

/// One thing a conversation reports while generating.
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

/// What ``LanguageModelDetails/tokenCount(for:)`` measures.
public enum LanguageModelTokenCountInput: Sendable {
    /// Everything a request puts before the response: instructions, tool definitions, transcript, prompt,
    /// schema and the template's turn markers. The session's budget check compares it with `contextSize`.
    case request(LanguageModelRequest)
    /// Transcript entries as the model sees them (each with its turn markers).
    case entries([Transcript.Entry])
    /// Tool definitions as they appear in the instructions.
    case tools([Transcript.ToolDefinition])
    /// A response schema as it is described in the prompt.
    case schema(GenerationSchema)
}
