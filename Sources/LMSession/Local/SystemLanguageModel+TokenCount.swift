// Apple 26.4: token counts of the parts of a request. They are the counts the session's budget check adds up
// (instructions + tool definitions + transcript + prompt + schema against `contextSize`).

extension SystemLanguageModel {
    /// Tokens `prompt` takes as a user turn (with its turn markers).
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` when the model cannot be loaded (the 26
    ///   `GenerationError.assetsUnavailable` under ``LanguageModelSession/defaultErrorConvention`` `.sdk26`).
    public nonisolated(nonsending) final func tokenCount(for prompt: some PromptRepresentable) async throws -> Int {
        let entry = Transcript.Entry.prompt(Transcript.Prompt(segments: prompt.promptRepresentation.segments))
        return try await count(.entries([entry]))
    }

    /// Tokens `instructions` take as the system turn (with its turn markers).
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` when the model cannot be loaded (the 26
    ///   `GenerationError.assetsUnavailable` under ``LanguageModelSession/defaultErrorConvention`` `.sdk26`).
    public nonisolated(nonsending) final func tokenCount(for instructions: Instructions) async throws -> Int {
        let entry = Transcript.Entry.instructions(Transcript.Instructions(segments: instructions.segments, toolDefinitions: []))
        return try await count(.entries([entry]))
    }

    /// Tokens the definitions of `tools` add to the instructions.
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` when the model cannot be loaded (the 26
    ///   `GenerationError.assetsUnavailable` under ``LanguageModelSession/defaultErrorConvention`` `.sdk26`).
    public nonisolated(nonsending) final func tokenCount(for tools: [any Tool]) async throws -> Int {
        try await count(.tools(tools.map { Transcript.ToolDefinition(tool: $0) }))
    }

    /// Tokens the description of `schema` adds to a prompt (when `includeSchemaInPrompt` is true).
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` when the model cannot be loaded (the 26
    ///   `GenerationError.assetsUnavailable` under ``LanguageModelSession/defaultErrorConvention`` `.sdk26`).
    public nonisolated(nonsending) final func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await count(.schema(schema))
    }

    /// Tokens `transcriptEntries` take, each with its turn markers.
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` when the model cannot be loaded (the 26
    ///   `GenerationError.assetsUnavailable` under ``LanguageModelSession/defaultErrorConvention`` `.sdk26`).
    public nonisolated(nonsending) final func tokenCount(for transcriptEntries: some Collection<Transcript.Entry>) async throws -> Int {
        try await count(.entries(Array(transcriptEntries)))
    }

    /// The local model's count, its failure in the types of ``LanguageModelSession/defaultErrorConvention``.
    private nonisolated(nonsending) func count(_ input: LanguageModelTokenCountInput) async throws -> Int {
        do {
            return try await local.tokenCount(for: input)
        } catch {
            throw LanguageModelSession.defaultErrorConvention.converting(error, context: ErrorConversionContext(contextSize: contextSize))
        }
    }
}
