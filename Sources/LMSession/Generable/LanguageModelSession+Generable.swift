// Apple's 26.0 structured overloads of `respond` and `streamResponse`: a prompt as `Prompt`,
// `String` or builder, answered as `GeneratedContent` following a schema, or as a `Generable`
// type. Decoding is constrained to the schema (token masks in the local provider); the schema is
// also described in the prompt unless `includeSchemaInPrompt` is false.

extension LanguageModelSession {
    /// Generates a value following `schema` in response to `prompt`.
    /// - Throws: ``LanguageModelError`` (`unsupportedGenerationGuide` for a guide the grammar cannot enforce,
    ///   `contextSizeExceeded`...), ``GeneratedContent/ParsingError`` when `maximumResponseTokens` is too small
    ///   for the shortest value (otherwise the local provider closes the value within the budget) or a
    ///   provider's value is cut off, ``LanguageModelSession/Error/concurrentRequests``, ``ToolCallError``, or
    ///   `CancellationError` (26 types under ``ErrorConvention/sdk26``); the transcript is then unchanged.
    @discardableResult
    public nonisolated(nonsending) final func respond(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<GeneratedContent> {
        try await streamResponse(to: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options).collect()
    }

    /// Generates a value following `schema` in response to `prompt`.
    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<GeneratedContent> {
        try await respond(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Generates a value following `schema` in response to the prompt `prompt` builds.
    @discardableResult
    public nonisolated(nonsending) final func respond(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<GeneratedContent> {
        try await respond(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Generates a `Content` value in response to `prompt`.
    /// - Throws: as ``respond(to:schema:includeSchemaInPrompt:options:)-(Prompt,_,_,_)``, and
    ///   ``GeneratedContent/ParsingError`` when the value does not convert to `Content`.
    @discardableResult
    public nonisolated(nonsending) final func respond<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<Content> {
        try await streamResponse(to: prompt, generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options).collect()
    }

    /// Generates a `Content` value in response to `prompt`.
    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) async throws -> Response<Content> {
        try await respond(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Generates a `Content` value in response to the prompt `prompt` builds.
    @discardableResult
    public nonisolated(nonsending) final func respond<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<Content> {
        try await respond(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a value following `schema` as cumulative snapshots (partial structures that fill in);
    /// the request starts on iteration.
    public final func streamResponse(
        to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) -> sending ResponseStream<GeneratedContent> {
        makeStream(prompt: prompt, responseFormat: Transcript.ResponseFormat(schema: schema),
                   includeSchemaInPrompt: includeSchemaInPrompt, options: options, generating: GeneratedContent.self)
    }

    /// Streams a value following `schema`.
    @_disfavoredOverload
    public final func streamResponse(
        to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()
    ) -> sending ResponseStream<GeneratedContent> {
        streamResponse(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a value following `schema` in response to the prompt `prompt` builds.
    /// - Throws: whatever `prompt` throws.
    public final func streamResponse(
        schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending ResponseStream<GeneratedContent> {
        streamResponse(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a `Content` value as `Content.PartiallyGenerated` snapshots whose properties fill in
    /// as they are generated; the request starts on iteration.
    public final func streamResponse<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> sending ResponseStream<Content> {
        makeStream(prompt: prompt, responseFormat: Transcript.ResponseFormat(type: type),
                   includeSchemaInPrompt: includeSchemaInPrompt, options: options, generating: type)
    }

    /// Streams a `Content` value.
    @_disfavoredOverload
    public final func streamResponse<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
        options: GenerationOptions = GenerationOptions()
    ) -> sending ResponseStream<Content> {
        streamResponse(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a `Content` value in response to the prompt `prompt` builds.
    /// - Throws: whatever `prompt` throws.
    public final func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
        @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending ResponseStream<Content> {
        streamResponse(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }
}
