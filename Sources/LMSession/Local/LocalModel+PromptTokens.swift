extension LocalModel {
    /// The prompt tokens of `request` as the local model sees them: the transcript rendered with the chat
    /// template and tokenized (message text never parses special tokens). For tests and tools that inspect
    /// prompts.
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` when the model cannot be loaded.
    package func promptTokens(for request: LanguageModelRequest) throws -> [Int] {
        try loadedForGeneration().renderer.promptTokens(for: request)
    }

    /// Whether `token` is a control token of the model's vocabulary.
    package func isControlToken(_ token: Int) throws -> Bool {
        try loadedForGeneration().model.tokenizer.isControl(token)
    }
}
