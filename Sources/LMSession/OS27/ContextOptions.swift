/// Options for how the model receives a request (Apple's 27 `ContextOptions`): whether the response schema is
/// described in the prompt, and how much the model may reason first.
///
/// Only the type and its hand-over to models (``LanguageModelRequest/contextOptions``) exist here so far; the
/// session's `respond` overloads that take it are not written yet.
public struct ContextOptions: Sendable, Equatable {
    /// Whether the response schema is described in the prompt; nil for the model's default.
    public var includeSchemaInPrompt: Bool?
    /// How much the model may reason before it responds; nil for the model's default.
    public var reasoningLevel: ReasoningLevel?

    public init(includeSchemaInPrompt: Bool? = nil, reasoningLevel: ReasoningLevel? = nil) {
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.reasoningLevel = reasoningLevel
    }

    /// How much reasoning the model may output before its response. A hint: a model maps it onto what it
    /// has, and drops a level it has no equivalent for.
    public enum ReasoningLevel: Sendable, Hashable {
        /// Light reasoning, for quick responses.
        case light
        /// A moderate amount of reasoning.
        case moderate
        /// Deep reasoning, for more analysis.
        case deep
        /// A level the other cases do not name, in the model's own terms (for Claude an effort name such as
        /// `"xhigh"` or `"max"`).
        case custom(String)
    }
}
