/// A model whose executor checks the context budget itself, on the very tokens it generates from (the local model:
/// ``LanguageModelError/contextSizeExceeded(_:)`` with both counts, as the session's own check words it), or whose
/// provider does (the server models: their errors become ``LanguageModelError/contextSizeExceeded(_:)``). The session
/// then skips its check through ``LanguageModelDetails/tokenCount(for:)``, so a request is rendered and tokenized
/// once. A model with neither this nor ``LanguageModelDetails`` (a provider written only for Apple's contract)
/// declares no context size, so it is not checked either.
package protocol ChecksContextBudget {
    /// True (the default) when the model checks; a model that passes calls on says what the one it calls does.
    var checksContextBudget: Bool { get }
}

extension ChecksContextBudget {
    package var checksContextBudget: Bool { true }
}

/// Whether the session leaves the budget check to `model`: it says so (``ChecksContextBudget``), or it declares no
/// context size (no ``LanguageModelDetails``).
func leavesBudgetCheck(to model: any LanguageModel) -> Bool {
    if let model = model as? any ChecksContextBudget { return model.checksContextBudget }
    return !(model is any LanguageModelDetails)
}

extension SystemLanguageModel: ChecksContextBudget {}
extension OpenAICompatibleLanguageModel: ChecksContextBudget {}
extension ClaudeLanguageModel: ChecksContextBudget {}
extension FallbackLanguageModel: ChecksContextBudget {}
