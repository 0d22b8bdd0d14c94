// The package's models check the context budget themselves (``LanguageModelDetails/checksContextBudget``): the local
// model on the very tokens it renders (``LanguageModelError/contextSizeExceeded(_:)`` with both counts, as the
// session's own check words it), the server models through their servers' errors.

extension SystemLanguageModel {
    public var checksContextBudget: Bool { true }
}

extension OpenAICompatibleLanguageModel {
    public var checksContextBudget: Bool { true }
}

extension ClaudeLanguageModel {
    public var checksContextBudget: Bool { true }
}

extension FallbackLanguageModel {
    /// True when both models check (a call may go to either).
    public var checksContextBudget: Bool { primarySeam.checksContextBudget && fallbackSeam.checksContextBudget }
}
