extension LanguageModelSession {
    /// Creates a session whose instructions and tools come from `dynamicInstructions`, evaluated again before
    /// every model call (Apple 27). `history` is the transcript without instructions (its turns).
    ///
    /// The session's profile is `Profile { dynamicInstructions }` on `model`: dynamic instructions are evaluated
    /// by the same mechanism as ``LanguageModelSession/init(profile:history:)``.
    public convenience init(model: some LanguageModel = SystemLanguageModel.default,
                            dynamicInstructions: sending some DynamicInstructions,
                            history: some Collection<Transcript.Entry> = [Transcript.Entry]()) {
        let erased = AnyDynamicInstructions(dynamicInstructions)
        self.init(model: model.sessionModel, tools: [], initialTranscript: Transcript(entries: history), profile: AnyDynamicProfile(erasing: Profile { erased }))
        setInitialInstructions()
    }
}

extension Transcript {
    /// Puts `instructions` in the leading instructions entry (replacing it, or inserting one); removes that
    /// entry when the instructions are empty and show no tools.
    mutating func setInstructions(_ instructions: Transcript.Instructions) {
        let hasEntry = if case .instructions = entries.first { true } else { false }
        let isEmpty = instructions.segments.isEmpty && instructions.toolDefinitions.isEmpty
        switch (hasEntry, isEmpty) {
        case (true, true): entries.removeFirst()
        case (true, false): entries[0] = .instructions(instructions)
        case (false, false): entries.insert(.instructions(instructions), at: 0)
        case (false, true): break
        }
    }
}
