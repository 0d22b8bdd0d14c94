/// How a request's context is put together (Apple 27's `ContextOptions`).
public struct ContextOptions: Sendable, Equatable {
    /// Whether a structured request also describes its schema in the prompt (it always constrains the local
    /// model's decoding); nil means true.
    public var includeSchemaInPrompt: Bool?
    /// How much the model should reason before answering; nil means the model's default.
    ///
    /// A model that reasons gets it mapped: ``ClaudeLanguageModel`` the effort level,
    /// ``OpenAICompatibleLanguageModel`` `reasoning_effort` and the template's `enable_thinking`
    /// (``OpenAICompatibleLanguageModel/ReasoningParameters``), a local GGUF with `<think>` tokens its template's
    /// `enable_thinking` and a forced (or refused) reasoning block. A local model without those tokens ignores it:
    /// nothing is added to the prompt and the request runs as without it.
    public var reasoningLevel: ReasoningLevel?

    public init(includeSchemaInPrompt: Bool? = nil, reasoningLevel: ReasoningLevel? = nil) {
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.reasoningLevel = reasoningLevel
    }

    /// How much to reason.
    public enum ReasoningLevel: Sendable, Equatable, Hashable {
        case light
        case moderate
        case deep
        /// A level a model names itself (e.g. Claude's `"xhigh"`), passed through as written.
        case custom(String)
    }
}
