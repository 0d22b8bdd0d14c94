extension LocalTransformerProvider {
    /// Guided generation and tool calling, and ``LanguageModelCapabilities/Capability/reasoning`` when the model's
    /// vocabulary has `<think>` and `</think>` tokens (Qwen3: see ``ContextOptions/reasoningLevel``). Reading it
    /// loads the model, as ``availability`` does; a model that does not load has the first two.
    public var capabilities: LanguageModelCapabilities {
        var capabilities: [LanguageModelCapabilities.Capability] = [.guidedGeneration, .toolCalling]
        if let loaded = try? loaded(), ReasoningMarkers(loaded.model.tokenizer) != nil { capabilities.append(.reasoning) }
        return LanguageModelCapabilities(capabilities: capabilities)
    }
}
