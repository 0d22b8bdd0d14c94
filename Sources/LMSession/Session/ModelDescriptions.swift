// What the package's models say beyond Apple's `Availability` and capabilities, for the session's errors.

extension SystemLanguageModel {
    /// The ``unavailabilityCause``, described.
    public var unavailabilityDescription: String? { unavailabilityCause.map { "\($0)" } }

    /// Why the model cannot call tools (its chat template writes calls in a syntax LMSession does not constrain), which
    /// the session puts in the ``LanguageModelError/unsupportedCapability(_:)`` a request with tools throws; nil when it
    /// can or is not loaded.
    var missingToolCallingDescription: String? {
        (try? local.loaded())?.renderer.unsupportedToolCalls.map {
            "its chat template writes tool calls in a syntax LMSession does not constrain, e.g. \($0.debugDescription)"
        }
    }
}

extension OpenAICompatibleLanguageModel {
    /// The ``unavailabilityCause``, described.
    public var unavailabilityDescription: String? { unavailabilityCause?.description }
}

extension ClaudeLanguageModel {
    /// The ``unavailabilityCause``, described.
    public var unavailabilityDescription: String? { unavailabilityCause?.description }
}

extension FallbackLanguageModel {
    /// Both models' causes (it is unavailable only when both are).
    public var unavailabilityDescription: String? {
        let causes = [("primary", primarySeam), ("fallback", fallbackSeam)].compactMap { name, model in
            model.unavailabilityDescription.map { "\(name): \($0)" }
        }
        return causes.isEmpty ? nil : causes.joined(separator: "; ")
    }
}
