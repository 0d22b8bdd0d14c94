// Apple 27's modifiers on `LanguageModelSession.DynamicProfile`. Value modifiers (model, temperature...) are taken
// from the innermost modifier that sets them, and options passed to `respond` win over them field by field; life-cycle
// callbacks accumulate (see `LanguageModelSession.DynamicProfile`).

extension LanguageModelSession.DynamicProfile {
    // MARK: - Configuring the model

    /// Runs the profile's model calls on `model`, with the session's transcript. Apple 27. What the model keeps
    /// between calls it finds by the transcript it is sent (the local model's KV caches), so switching back to a
    /// model continues where its last call on this transcript ended.
    public func model(_ model: any LanguageModel) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.model, model.sessionModel) }
    }

    /// Runs the profile's model calls on `model` (see ``model(_:)-(any LanguageModel)``).
    public func model(_ model: some LanguageModel) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.model, model.sessionModel) }
    }

    /// Sets the temperature (``GenerationOptions/temperature``); `nil` means the model's default.
    public func temperature(_ temperature: Double?) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.temperature, temperature) }
    }

    /// Sets the sampling mode (``GenerationOptions/samplingMode``); `nil` means the default sampling.
    public func samplingMode(_ samplingMode: GenerationOptions.SamplingMode?) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.samplingMode, samplingMode) }
    }

    /// Sets the reasoning level (``ContextOptions/reasoningLevel``); `nil` means the model's default.
    public func reasoningLevel(_ reasoningLevel: ContextOptions.ReasoningLevel?) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.reasoningLevel, reasoningLevel) }
    }

    /// Sets the most tokens a response may have (``GenerationOptions/maximumResponseTokens``).
    public func maximumResponseTokens(_ maximumResponseTokens: Int?) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.maximumResponseTokens, maximumResponseTokens) }
    }

    // MARK: - Tools, history, errors

    /// Sets whether the model may, must or must not call tools (``GenerationOptions/toolCallingMode``).
    public func toolCallingMode(_ toolCallingMode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.toolCallingMode, toolCallingMode) }
    }

    /// The earlier name of ``toolCallingMode(_:)``.
    @available(*, deprecated, renamed: "toolCallingMode(_:)")
    public func toolCalling(_ toolCallingMode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession.DynamicProfile {
        self.toolCallingMode(toolCallingMode)
    }

    /// Transforms the history (the transcript after its instructions entry, the current prompt and this request's
    /// tool rounds included) before each model call. Stateless: the model sees the result, the session's
    /// transcript keeps every entry. Dropping or changing early entries invalidates the KV cache from there on.
    public func historyTransform(_ transform: @escaping ([Transcript.Entry]) -> [Transcript.Entry]) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.historyTransform, HistoryTransform(transform: transform)) }
    }

    /// The earlier name of ``historyTransform(_:)``.
    @available(*, deprecated, renamed: "historyTransform(_:)")
    public func inputFilter(_ filter: @escaping ([Transcript.Entry]) -> [Transcript.Entry]) -> some LanguageModelSession.DynamicProfile {
        historyTransform(filter)
    }

    /// What a failed request leaves in the transcript while this profile is active (the profile's setting wins
    /// over the session's ``LanguageModelSession/transcriptErrorHandlingPolicy``; `nil` leaves the session's).
    public func transcriptErrorHandlingPolicy(_ policy: TranscriptErrorHandlingPolicy?) -> some LanguageModelSession.DynamicProfile {
        modified { $0.settings.setIfUnset(\.transcriptErrorHandlingPolicy, policy) }
    }

    // MARK: - Life cycle

    /// Runs `action` when the profile becomes active: at the first model call that resolves to it, or the first
    /// after another profile was active.
    public func onActivate(perform action: sending @escaping @isolated(any) () async -> Void) -> some LanguageModelSession.DynamicProfile {
        modified { $0.callbacks.onActivate.append(action) }
    }

    /// Runs `action` when the profile stops being active: at the first model call that resolves to another one.
    public func onDeactivate(perform action: sending @escaping @isolated(any) () async -> Void) -> some LanguageModelSession.DynamicProfile {
        modified { $0.callbacks.onDeactivate.append(action) }
    }

    /// Runs `action` with the request's prompt entry before its first model call. An error it throws fails the
    /// request (`respond` throws it; the transcript is rolled back as for any failure).
    public func onPrompt(perform action: nonisolated(nonsending) sending @escaping (Transcript.Prompt) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        modified { $0.callbacks.onPrompt.append(action) }
    }

    /// Runs `action` before the request's first model call (see ``onPrompt(perform:)-((Transcript.Prompt)->Void)``).
    public func onPrompt(perform action: nonisolated(nonsending) sending @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        onPrompt { (_: Transcript.Prompt) in try await action() }
    }

    /// Runs `action` with the response entry once the model answered, before the transcript is updated; an error
    /// it throws fails the request.
    public func onResponse(perform action: nonisolated(nonsending) sending @escaping (Transcript.Response) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        modified { $0.callbacks.onResponse.append(action) }
    }

    /// Runs `action` once the model answered (see ``onResponse(perform:)-((Transcript.Response)->Void)``).
    public func onResponse(perform action: nonisolated(nonsending) sending @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        onResponse { (_: Transcript.Response) in try await action() }
    }

    /// Runs `action` with each reasoning entry the model produces (when its model call completes); an error it
    /// throws fails the request.
    public func onReasoning(perform action: nonisolated(nonsending) sending @escaping (Transcript.Reasoning) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        modified { $0.callbacks.onReasoning.append(action) }
    }

    /// Runs `action` for each reasoning entry (see ``onReasoning(perform:)-((Transcript.Reasoning)->Void)``).
    public func onReasoning(perform action: nonisolated(nonsending) sending @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        onReasoning { (_: Transcript.Reasoning) in try await action() }
    }

    /// Runs `action` with each tool call before any tool of its round runs; an error it throws fails the request
    /// (no tool of the round runs).
    public func onToolCall(perform action: nonisolated(nonsending) sending @escaping (Transcript.ToolCall) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        modified { $0.callbacks.onToolCall.append(action) }
    }

    /// Runs `action` for each tool call (see ``onToolCall(perform:)-((Transcript.ToolCall)->Void)``).
    public func onToolCall(perform action: nonisolated(nonsending) sending @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        onToolCall { (_: Transcript.ToolCall) in try await action() }
    }

    /// Runs `action` with each tool call and its output once the round's tools have run; an error it throws fails
    /// the request.
    public func onToolOutput(perform action: nonisolated(nonsending) sending @escaping (Transcript.ToolCall, Transcript.ToolOutput) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        modified { $0.callbacks.onToolOutput.append(action) }
    }

    /// Runs `action` for each tool output (see ``onToolOutput(perform:)-((Transcript.ToolCall,Transcript.ToolOutput)->Void)``).
    public func onToolOutput(perform action: nonisolated(nonsending) sending @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        onToolOutput { (_: Transcript.ToolCall, _: Transcript.ToolOutput) in try await action() }
    }

    private func modified(_ apply: @escaping (inout ResolvedProfile) -> Void) -> BuiltInModifiedProfile<Self> {
        BuiltInModifiedProfile(content: self, apply: apply)
    }
}

/// A profile with one built-in modifier: `apply` records its setting or callback after the content resolved, so a
/// setting made nearer the profile stays.
struct BuiltInModifiedProfile<Content: LanguageModelSession.DynamicProfile>: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
    let content: Content
    let apply: (inout ResolvedProfile) -> Void

    var body: Never { preconditionFailure("BuiltInModifiedProfile has no body") }

    func resolve(into resolved: inout ResolvedProfile) {
        resolved.add(content)
        apply(&resolved)
    }
}
