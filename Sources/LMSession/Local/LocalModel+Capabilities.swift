extension LocalModel {
    /// Guided generation; tool calling unless the model's chat template writes tool calls in a syntax the session
    /// cannot constrain (``TranscriptRenderer/unsupportedToolCalls``: a session with tools is then refused with
    /// ``LanguageModelError/unsupportedCapability(_:)``, rather than showing the model's call markup as the
    /// response); and ``LanguageModelCapabilities/Capability/reasoning`` when the model's vocabulary has `<think>`
    /// and `</think>` tokens (Qwen3: see ``ContextOptions/reasoningLevel``); ``LanguageModelCapabilities/Capability/vision``
    /// when an `mmproj` file is loaded with the model (``mmprojPath``). Reading it loads the model, as
    /// ``availability`` does; a model that does not load has the first two.
    var capabilities: LanguageModelCapabilities {
        var capabilities: [LanguageModelCapabilities.Capability] = [.guidedGeneration]
        let loaded = try? loaded()
        if loaded?.renderer.unsupportedToolCalls == nil { capabilities.append(.toolCalling) }
        if let loaded, ReasoningMarkers(loaded.model.tokenizer) != nil { capabilities.append(.reasoning) }
        if loaded?.renderer.vision != nil { capabilities.append(.vision) }
        return LanguageModelCapabilities(capabilities: capabilities)
    }
}
