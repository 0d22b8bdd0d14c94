extension LanguageModelSession {
    /// Creates a session configured by `profile` (Apple 27): before every model call its `body` is evaluated and
    /// the active ``Profile`` gives the instructions, tools, model and settings of that call. `history` is the
    /// transcript without instructions (its turns). A profile that sets no model runs on
    /// ``SystemLanguageModel/default``.
    public convenience init(profile: sending some DynamicProfile,
                            history: some Collection<Transcript.Entry> = [Transcript.Entry]()) {
        let erased = AnyDynamicProfile(erasing: profile)
        self.init(model: SystemLanguageModel.default.sessionModel, tools: [], initialTranscript: Transcript(entries: history), profile: erased)
        setInitialInstructions()
    }

    /// Evaluates the profile once (with this session's ``properties``) and puts its instructions in the
    /// transcript, as a new session's first entry.
    func setInitialInstructions() {
        let entry = profile.withLock { state in
            state.map { state in propertyValues.bound { ResolvedProfile.resolve(state.profile).instructions.entry } }
        }
        guard let entry else { return }
        state.withLock { $0.transcript.setInstructions(entry) }
    }

    /// What the next model call runs with. With a profile its `body` is evaluated now; `activating` records the
    /// profile it resolves to as the active one (a request's model calls do; `prewarm` does not) and reports
    /// a change in ``ModelCallSetup/deactivated`` and ``ModelCallSetup/activated``.
    func setUpNextCall(activating: Bool) -> ModelCallSetup {
        let resolved: (profile: ResolvedProfile, deactivated: ProfileCallbacks?, activated: Bool)? = profile.withLock { state in
            guard let profile = state?.profile else { return nil }
            let resolved = propertyValues.bound { ResolvedProfile.resolve(profile) }
            guard activating, state?.active?.identity != resolved.identity else { return (resolved, nil, false) }
            let previous = state?.active?.callbacks
            state?.active = (resolved.identity, resolved.callbacks)
            return (resolved, previous, true)
        }
        guard let resolved else {
            return ModelCallSetup(model: model, tools: tools)
        }
        let settings = resolved.profile.settings
        return ModelCallSetup(model: settings.model ?? model, instructions: resolved.profile.instructions.entry, tools: resolved.profile.instructions.tools,
                              settings: settings, callbacks: resolved.profile.callbacks,
                              deactivated: resolved.deactivated, activated: resolved.activated)
    }
}

/// A session's dynamic profile and the profile that is active (the last model call's).
struct ProfileState {
    let profile: LanguageModelSession.AnyDynamicProfile
    var active: (identity: [String], callbacks: ProfileCallbacks)?
}

/// What one model call runs with: its model, and what the session's profile gave for it.
struct ModelCallSetup: Sendable {
    var model: SessionModel
    /// The instructions entry the profile gave; nil for a session with fixed instructions.
    var instructions: Transcript.Instructions?
    /// The tools the model may call in this call.
    var tools: [any Tool]
    var settings = ProfileSettings()
    var callbacks = ProfileCallbacks()
    /// The callbacks of the profile that stopped being active at this call, if one did.
    var deactivated: ProfileCallbacks?
    /// Whether the profile became active at this call.
    var activated = false

    /// `transcript` as this call sends it: with the profile's instructions and its history transform applied.
    func transcript(from transcript: Transcript) -> Transcript {
        var sent = transcript
        if let instructions { sent.setInstructions(instructions) }
        return settings.historyTransform?.apply(to: sent) ?? sent
    }

    /// The options of this call: the request's (those passed to `respond`), completed by the profile's settings.
    func options(over callSite: GenerationOptions) -> GenerationOptions { settings.options(over: callSite) }

    /// The context options of this call: the request's reasoning level, or the profile's.
    func contextOptions(over callSite: ContextOptions) -> ContextOptions { settings.contextOptions(over: callSite) }
}
