import Foundation

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
