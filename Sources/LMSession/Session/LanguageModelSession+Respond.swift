// Apple's 26.0 text overloads of `respond` and `streamResponse`: a prompt as `Prompt`, `String` or builder.
// The structured overloads (`schema:` and `generating:`) live with the Generable types (`Generable/`).

extension LanguageModelSession {
    /// The stream of one request; the request starts when the stream is iterated or collected.
    /// `responseFormat` nil asks for text; otherwise the provider constrains decoding to its schema and the
    /// response decodes as `Content` (the structured overloads in `Generable/` are one-line calls of this).
    package func makeStream<Content: Generable>(prompt: Prompt, responseFormat: Transcript.ResponseFormat?, includeSchemaInPrompt: Bool,
                                        options: GenerationOptions, generating: Content.Type = Content.self,
                                        contextOptions: ContextOptions = ContextOptions(),
                                        metadata: [String: any Sendable & Codable & Equatable] = [:]) -> ResponseStream<Content> {
        let plan = RequestPlan(prompt: prompt, options: options, responseFormat: responseFormat, includeSchemaInPrompt: includeSchemaInPrompt,
                               contextOptions: contextOptions, metadata: metadata)
        return ResponseStream(run: ResponseRun(session: self, plan: plan))
    }

    /// Generates a text response to `prompt` and appends the prompt and response to the transcript.
    /// - Throws: ``LanguageModelError`` (`contextSizeExceeded`, `guardrailViolation`...),
    ///   ``SystemLanguageModel/Error`` (`assetsUnavailable`), ``LanguageModelSession/Error/concurrentRequests``,
    ///   ``ToolCallError``, or `CancellationError`; the transcript is then unchanged. A session whose
    ///   ``errorConvention`` is ``ErrorConvention/sdk26`` throws ``GenerationError`` where it has a case.
    @discardableResult
    public nonisolated(nonsending) final func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        try await makeStream(prompt: prompt, responseFormat: nil, includeSchemaInPrompt: false, options: options, generating: String.self).collect()
    }

    /// Generates a text response to `prompt` (see ``respond(to:options:)-(Prompt,_)``).
    @_disfavoredOverload
    @discardableResult
    public nonisolated(nonsending) final func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        try await respond(to: Prompt(prompt), options: options)
    }

    /// Generates a text response to the prompt `prompt` builds (see ``respond(to:options:)-(Prompt,_)``).
    @discardableResult
    public nonisolated(nonsending) final func respond(options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) async throws -> Response<String> {
        try await respond(to: try prompt(), options: options)
    }

    /// Streams a text response to `prompt` as cumulative snapshots; the request starts on iteration.
    public final func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<String> {
        makeStream(prompt: prompt, responseFormat: nil, includeSchemaInPrompt: false, options: options)
    }

    /// Streams a text response to `prompt` (see ``streamResponse(to:options:)-(Prompt,_)``).
    @_disfavoredOverload
    public final func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<String> {
        streamResponse(to: Prompt(prompt), options: options)
    }

    /// Streams a text response to the prompt `prompt` builds.
    /// - Throws: whatever `prompt` throws.
    public final func streamResponse(options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) rethrows -> sending ResponseStream<String> {
        streamResponse(to: try prompt(), options: options)
    }
}
