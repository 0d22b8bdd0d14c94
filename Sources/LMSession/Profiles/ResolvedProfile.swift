/// What a dynamic profile evaluates to for one model call: the active profile's instructions and tools, the
/// settings of the modifiers around it, and their life-cycle callbacks.
///
/// Resolution walks the profile from the outside in and applies each modifier after the part it modifies, so a
/// setting is taken from the innermost modifier that sets it (``ProfileSettings/setIfUnset(_:_:)``) and
/// callbacks are listed innermost first.
struct ResolvedProfile {
    /// Which profile is active: the branches taken and the types passed on the way to it. A change between two
    /// model calls deactivates one profile and activates the other.
    var identity: [String] = []
    var instructions = ResolvedInstructions()
    var settings = ProfileSettings()
    var callbacks = ProfileCallbacks()

    static func resolve(_ profile: some LanguageModelSession.DynamicProfile) -> ResolvedProfile {
        var resolved = ResolvedProfile()
        resolved.add(profile)
        return resolved
    }

    /// `profile` evaluated: built-in parts add themselves, others are replaced by their `body`.
    mutating func add(_ profile: some LanguageModelSession.DynamicProfile) {
        if let primitive = profile as? any PrimitiveDynamicProfile {
            primitive.resolve(into: &self)
        } else {
            identity.append(String(reflecting: type(of: profile)))
            add(profile.body)
        }
    }
}

/// The built-in parts of a dynamic profile, which add themselves instead of having a body.
protocol PrimitiveDynamicProfile {
    func resolve(into resolved: inout ResolvedProfile)
}

/// The settings of a profile's value modifiers. Each is `nil` when no modifier set it, otherwise the innermost
/// modifier's value, which may itself be `nil` (`.temperature(nil)`: back to the model's default).
struct ProfileSettings: Sendable {
    var model: SessionModel?
    var temperature: Double??
    var samplingMode: GenerationOptions.SamplingMode??
    var maximumResponseTokens: Int??
    var reasoningLevel: ContextOptions.ReasoningLevel??
    var toolCallingMode: GenerationOptions.ToolCallingMode??
    var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy??
    var historyTransform: HistoryTransform?

    /// Sets the setting at `keyPath` unless a modifier nearer the profile set it already.
    mutating func setIfUnset<Value>(_ keyPath: WritableKeyPath<ProfileSettings, Value?>, _ value: Value) {
        if self[keyPath: keyPath] == nil { self[keyPath: keyPath] = value }
    }

    /// The options of a model call: each field of `callSite` (the options passed to `respond`) that is not
    /// `nil`, otherwise the profile's setting.
    func options(over callSite: GenerationOptions) -> GenerationOptions {
        var options = callSite
        if options.temperature == nil, let temperature { options.temperature = temperature }
        if options.samplingMode == nil, let samplingMode { options.samplingMode = samplingMode }
        if options.maximumResponseTokens == nil, let maximumResponseTokens { options.maximumResponseTokens = maximumResponseTokens }
        if options.toolCallingMode == nil, let toolCallingMode { options.toolCallingMode = toolCallingMode }
        return options
    }

    /// The context options of a model call: the reasoning level passed to `respond` when not `nil`, otherwise
    /// the profile's.
    func contextOptions(over callSite: ContextOptions) -> ContextOptions {
        var options = callSite
        if options.reasoningLevel == nil, let reasoningLevel { options.reasoningLevel = reasoningLevel }
        return options
    }
}

/// A ``LanguageModelSession/DynamicProfile/historyTransform(_:)`` closure.
struct HistoryTransform: @unchecked Sendable {
    // @unchecked: the closure comes from a profile `sending` into its session, and only that session's one
    // running request calls it.
    let transform: ([Transcript.Entry]) -> [Transcript.Entry]

    /// `transcript` as the model sees it: the leading instructions entry (if any), then the transformed history.
    func apply(to transcript: Transcript) -> Transcript {
        var transformed = transcript
        transformed.history = ArraySlice(transform(Array(transcript.history)))
        return transformed
    }
}

/// The life-cycle callbacks of the active profile and the dynamic profiles around it, innermost first.
struct ProfileCallbacks: @unchecked Sendable {
    // @unchecked: the closures come from a profile `sending` into its session, and only that session calls them,
    // from its one running request (or, for activation, from the request that resolved the profile).
    var onActivate: [@isolated(any) () async -> Void] = []
    var onDeactivate: [@isolated(any) () async -> Void] = []
    var onPrompt: [nonisolated(nonsending) (Transcript.Prompt) async throws -> Void] = []
    var onResponse: [nonisolated(nonsending) (Transcript.Response) async throws -> Void] = []
    var onReasoning: [nonisolated(nonsending) (Transcript.Reasoning) async throws -> Void] = []
    var onToolCall: [nonisolated(nonsending) (Transcript.ToolCall) async throws -> Void] = []
    var onToolOutput: [nonisolated(nonsending) (Transcript.ToolCall, Transcript.ToolOutput) async throws -> Void] = []

    func activate() async { for action in onActivate { await action() } }
    func deactivate() async { for action in onDeactivate { await action() } }
    func prompt(_ prompt: Transcript.Prompt) async throws { for action in onPrompt { try await action(prompt) } }
    func response(_ response: Transcript.Response) async throws { for action in onResponse { try await action(response) } }
    func toolCall(_ call: Transcript.ToolCall) async throws { for action in onToolCall { try await action(call) } }
    func toolOutput(_ call: Transcript.ToolCall, _ output: Transcript.ToolOutput) async throws {
        for action in onToolOutput { try await action(call, output) }
    }

    /// Runs `onReasoning` for each reasoning entry among `entries`.
    func reasoning(in entries: [Transcript.Entry]) async throws {
        for case .reasoning(let reasoning) in entries {
            for action in onReasoning { try await action(reasoning) }
        }
    }
}
