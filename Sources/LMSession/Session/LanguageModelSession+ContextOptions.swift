// Apple 27's `respond`/`streamResponse` overloads with `contextOptions:` and `metadata:` (its reasoning level
// for models that reason; `includeSchemaInPrompt` moves into the context options). Unlike Apple's, the
// `contextOptions:` argument has no default here: with one, every 26 call would be ambiguous between the two
// families; a call that passes it picks these.

extension LanguageModelSession {

    /// Streams a text response to `prompt` with Apple 27's context options (see ``ContextOptions``).
    public final func streamResponse(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) -> sending ResponseStream<String> {
        makeStream(prompt: prompt, responseFormat: nil, includeSchemaInPrompt: false, options: options,
                   generating: String.self, contextOptions: contextOptions, metadata: metadata)
    }

    @_disfavoredOverload
    public final func streamResponse(
        to prompt: String, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) -> sending ResponseStream<String> {
        streamResponse(to: Prompt(prompt), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    public final func streamResponse(
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending ResponseStream<String> {
        streamResponse(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Generates a text response to `prompt` with Apple 27's context options.
    /// - Throws: as the 26 overload without `contextOptions:`.
    @discardableResult
    public nonisolated(nonsending) final func respond(
        to prompt: Prompt, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) async throws -> Response<String> {
        try await streamResponse(to: prompt, options: options, contextOptions: contextOptions, metadata: metadata).collect()
    }

    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond(
        to prompt: String, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) async throws -> Response<String> {
        try await respond(to: Prompt(prompt), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    @discardableResult
    public nonisolated(nonsending) final func respond(
        options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<String> {
        try await respond(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams a value following `schema` to `prompt` with Apple 27's context options (see ``ContextOptions``).
    @_disfavoredOverload
    public final func streamResponse(
        to prompt: Prompt, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) -> sending ResponseStream<GeneratedContent> {
        makeStream(prompt: prompt, responseFormat: Transcript.ResponseFormat(schema: schema), includeSchemaInPrompt: contextOptions.includeSchemaInPrompt ?? true, options: options,
                   generating: GeneratedContent.self, contextOptions: contextOptions, metadata: metadata)
    }

    @_disfavoredOverload
    public final func streamResponse(
        to prompt: String, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) -> sending ResponseStream<GeneratedContent> {
        streamResponse(to: Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    @_disfavoredOverload
    public final func streamResponse(
        schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending ResponseStream<GeneratedContent> {
        streamResponse(to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Generates a value following `schema` to `prompt` with Apple 27's context options.
    /// - Throws: as the 26 overload without `contextOptions:`.
    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond(
        to prompt: Prompt, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) async throws -> Response<GeneratedContent> {
        try await streamResponse(to: prompt, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata).collect()
    }

    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond(
        to prompt: String, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) async throws -> Response<GeneratedContent> {
        try await respond(to: Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond(
        schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<GeneratedContent> {
        try await respond(to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Streams a `Content` value to `prompt` with Apple 27's context options (see ``ContextOptions``).
    public final func streamResponse<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) -> sending ResponseStream<Content> {
        makeStream(prompt: prompt, responseFormat: Transcript.ResponseFormat(type: type), includeSchemaInPrompt: contextOptions.includeSchemaInPrompt ?? true, options: options,
                   generating: type, contextOptions: contextOptions, metadata: metadata)
    }

    @_disfavoredOverload
    public final func streamResponse<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) -> sending ResponseStream<Content> {
        streamResponse(to: Prompt(prompt), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    public final func streamResponse<Content: Generable>(
        generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
    ) rethrows -> sending ResponseStream<Content> {
        streamResponse(to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    /// Generates a `Content` value to `prompt` with Apple 27's context options.
    /// - Throws: as the 26 overload without `contextOptions:`.
    @discardableResult
    public nonisolated(nonsending) final func respond<Content: Generable>(
        to prompt: Prompt, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) async throws -> Response<Content> {
        try await streamResponse(to: prompt, generating: type, options: options, contextOptions: contextOptions, metadata: metadata).collect()
    }

    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond<Content: Generable>(
        to prompt: String, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:]
    ) async throws -> Response<Content> {
        try await respond(to: Prompt(prompt), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }

    @discardableResult
    public nonisolated(nonsending) final func respond<Content: Generable>(
        generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions,
        metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
    ) async throws -> Response<Content> {
        try await respond(to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
    }
}
