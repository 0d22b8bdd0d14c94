import Foundation

/// What an executor generates from (Apple's `LanguageModelExecutorGenerationRequest`, iOS/macOS 27, with the
/// GA guide's `metadata` of `GeneratedContent` values).
public struct LanguageModelExecutorGenerationRequest: Sendable {
    /// Unique per model call, for the provider's request id or logs.
    public var id: UUID
    /// The conversation to continue: instructions first (if any), the history, the current prompt, and the tool
    /// calls and outputs of this turn when tools ran.
    public var transcript: Transcript
    /// The tools the model may call in this step; empty when none.
    public var enabledToolDefinitions: [Transcript.ToolDefinition]
    /// The schema the response must follow; `nil` for text.
    public var schema: GenerationSchema?
    /// Sampling controls (`temperature`, `samplingMode`, `maximumResponseTokens`, `toolCallingMode`); `nil`
    /// fields mean the provider's default.
    public var generationOptions: GenerationOptions
    /// Prompting controls: `includeSchemaInPrompt` and `reasoningLevel`.
    public var contextOptions: ContextOptions
    /// The developer's metadata of the request, each value as generated content.
    public var metadata: [String: GeneratedContent]

    public init(id: UUID = UUID(), transcript: Transcript, enabledToolDefinitions: [Transcript.ToolDefinition] = [],
                schema: GenerationSchema? = nil, generationOptions: GenerationOptions = GenerationOptions(),
                contextOptions: ContextOptions = ContextOptions(), metadata: [String: GeneratedContent] = [:]) {
        self.id = id
        self.transcript = transcript
        self.enabledToolDefinitions = enabledToolDefinitions
        self.schema = schema
        self.generationOptions = generationOptions
        self.contextOptions = contextOptions
        self.metadata = metadata
    }
}
