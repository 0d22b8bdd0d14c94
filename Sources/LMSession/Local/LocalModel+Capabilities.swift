extension LocalModel {
    /// What ``SystemLanguageModel/capabilities`` says (it reads this); loads the model.
    var capabilities: LanguageModelCapabilities {
        var capabilities: [LanguageModelCapabilities.Capability] = [.guidedGeneration]
        let loaded = try? loaded()
        if loaded?.renderer.unsupportedToolCalls == nil { capabilities.append(.toolCalling) }
        if let loaded, ReasoningMarkers(loaded.model.tokenizer) != nil { capabilities.append(.reasoning) }
        if loaded?.renderer.vision != nil { capabilities.append(.vision) }
        return LanguageModelCapabilities(capabilities: capabilities)
    }
}
