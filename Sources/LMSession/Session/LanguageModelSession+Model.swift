// Apple 27: sessions on any `LanguageModel` (a server model, or one you bring), beside the 26 initializers
// that take a `SystemLanguageModel`.

extension LanguageModelSession {
    /// Creates a session on `model` whose instructions are `instructions` (none when `nil`).
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: Instructions? = nil) {
        self.init(anyModel: model.sessionModel, tools: tools, instructions: instructions)
    }

    /// Creates a session on `model` whose instructions are `instructions`.
    @_disfavoredOverload
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(anyModel: model.sessionModel, tools: tools, instructions: instructions.map { Instructions($0) })
    }

    /// Creates a session on `model` whose instructions are built by `instructions`.
    /// - Throws: whatever `instructions` throws.
    /// (Disfavoured so that a ``SystemLanguageModel`` picks the 26 initializer, which would be ambiguous.)
    @_disfavoredOverload
    public convenience init<Failure: Swift.Error>(model: some LanguageModel, tools: [any Tool] = [],
                                            @InstructionsBuilder instructions: () throws(Failure) -> Instructions) throws(Failure) {
        self.init(anyModel: model.sessionModel, tools: tools, instructions: try instructions())
    }

    /// Creates a session on `model` that continues `transcript`.
    public convenience init(model: some LanguageModel, tools: [any Tool] = [], transcript: Transcript) {
        self.init(model: model.sessionModel, tools: tools, initialTranscript: transcript)
    }

}
