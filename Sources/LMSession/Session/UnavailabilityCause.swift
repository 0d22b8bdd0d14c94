/// A model that can say why it is unavailable. The session puts the text in the
/// ``SystemLanguageModel/Error/assetsUnavailable(_:)`` a request on an unavailable model throws, since Apple's
/// `Availability` has only three reasons and no room for a cause.
protocol ExplainsUnavailability {
    /// Why the model is unavailable (the searched paths, the unreachable server and its error...); nil when it is
    /// available or does not know.
    var unavailabilityDescription: String? { get }
}

extension SystemLanguageModel: ExplainsUnavailability {
    var unavailabilityDescription: String? { unavailabilityCause.map { "\($0)" } }
}

extension OpenAICompatibleLanguageModel: ExplainsUnavailability {
    var unavailabilityDescription: String? { unavailabilityCause?.description }
}

extension ClaudeLanguageModel: ExplainsUnavailability {
    var unavailabilityDescription: String? { unavailabilityCause?.description }
}

extension FallbackLanguageModel: ExplainsUnavailability {
    /// Both models' causes (it is unavailable only when both are).
    var unavailabilityDescription: String? {
        let causes = [("primary", primary), ("fallback", fallback)].compactMap { name, model in
            (model as? any ExplainsUnavailability)?.unavailabilityDescription.map { "\(name): \($0)" }
        }
        return causes.isEmpty ? nil : causes.joined(separator: "; ")
    }
}

/// A model that can say why it has no tool calling; the session puts the text in the
/// ``LanguageModelError/unsupportedCapability(_:)`` a request with tools throws on it.
protocol ExplainsMissingToolCalling {
    /// Why the model cannot call tools (its chat template writes calls in a syntax LMSession does not constrain);
    /// nil when it can or does not know.
    var missingToolCallingDescription: String? { get }
}

extension SystemLanguageModel: ExplainsMissingToolCalling {
    var missingToolCallingDescription: String? {
        (try? local.loaded())?.renderer.unsupportedToolCalls.map {
            "its chat template writes tool calls in a syntax LMSession does not constrain, e.g. \($0.debugDescription)"
        }
    }
}
