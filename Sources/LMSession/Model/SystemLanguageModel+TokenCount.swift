// Apple 26.4: token counts of the parts of a request. They are the counts the session's budget check adds up
// (instructions + tool definitions + transcript + prompt + schema against `contextSize`).

extension SystemLanguageModel {
    /// Tokens `prompt` takes as a user turn (with its turn markers).
    /// - Throws: ``LanguageModelSession/GenerationError/assetsUnavailable(_:)`` when the model cannot be loaded.
    public nonisolated(nonsending) final func tokenCount(for prompt: some PromptRepresentable) async throws -> Int {
        let entry = Transcript.Entry.prompt(Transcript.Prompt(segments: prompt.promptRepresentation.segments))
        return try await provider.tokenCount(for: .entries([entry]))
    }

    /// Tokens `instructions` take as the system turn (with its turn markers).
    /// - Throws: ``LanguageModelSession/GenerationError/assetsUnavailable(_:)`` when the model cannot be loaded.
    public nonisolated(nonsending) final func tokenCount(for instructions: Instructions) async throws -> Int {
        let entry = Transcript.Entry.instructions(Transcript.Instructions(segments: instructions.segments, toolDefinitions: []))
        return try await provider.tokenCount(for: .entries([entry]))
    }

    /// Tokens the definitions of `tools` add to the instructions.
    /// - Throws: ``LanguageModelSession/GenerationError/assetsUnavailable(_:)`` when the model cannot be loaded.
    public nonisolated(nonsending) final func tokenCount(for tools: [any Tool]) async throws -> Int {
        try await provider.tokenCount(for: .tools(tools.map { Transcript.ToolDefinition(tool: $0) }))
    }

    /// Tokens the description of `schema` adds to a prompt (when `includeSchemaInPrompt` is true).
    /// - Throws: ``LanguageModelSession/GenerationError/assetsUnavailable(_:)`` when the model cannot be loaded.
    public nonisolated(nonsending) final func tokenCount(for schema: GenerationSchema) async throws -> Int {
        try await provider.tokenCount(for: .schema(schema))
    }

    /// Tokens `transcriptEntries` take, each with its turn markers.
    /// - Throws: ``LanguageModelSession/GenerationError/assetsUnavailable(_:)`` when the model cannot be loaded.
    public nonisolated(nonsending) final func tokenCount(for transcriptEntries: some Collection<Transcript.Entry>) async throws -> Int {
        try await provider.tokenCount(for: .entries(Array(transcriptEntries)))
    }
}
