extension TranscriptRenderer {
    /// The prompt tokens of `request`, checked against `contextSize`; when the prompt is too long (or too
    /// long to render) only because the response schema is described in it, the error says so and what to do.
    /// - Throws: ``LanguageModelError/contextSizeExceeded(_:)`` when the prompt does not fit; its description
    ///   names the schema as the cause when the prompt without it fits (a 1,000,000-value enum, a schema
    ///   of thousands of tokens), with the remedies: `includeSchemaInPrompt: false` (the grammar still
    ///   enforces the schema), a larger context, a smaller schema; also when the transcript's text alone is too
    ///   long for the template to render (``textTokensPastOutputLimit(_:)``) and more than
    ///   `contextSize` tokens. What ``promptTokens(for:)`` throws otherwise.
    func promptTokens(for request: LanguageModelRequest, contextSize: Int) throws(LanguageModelError) -> [Int] {
        let tokens: [Int]
        do {
            tokens = try promptTokens(for: request)
        } catch {
            if let withoutSchema = tokensWithoutSchema(request, contextSize: contextSize) {
                throw .contextSizeExceeded(.init(contextSize: contextSize, tokenCount: 0, debugDescription:
                    "The response schema, described in the prompt, makes the prompt too long to render (\(error.debugDescription)); "
                    + "without it the prompt takes \(withoutSchema) tokens. \(Self.schemaRemedy)"))
            }
            let (messages, tools) = messages(for: request)
            if let text = textTokensPastOutputLimit(messages),
               let markers = (try? render(Self.emptied(messages), tools: tools, addGenerationPrompt: true)).map({ count($0) }),
               text + markers > contextSize {
                throw .contextSizeExceeded(needed: text + markers, contextSize: contextSize)
            }
            throw error
        }
        guard tokens.count > contextSize else { return tokens }
        if let withoutSchema = tokensWithoutSchema(request, contextSize: contextSize) {
            throw .contextSizeExceeded(.init(contextSize: contextSize, tokenCount: tokens.count, debugDescription:
                "Content contains \(tokens.count) tokens, which exceeds the maximum allowed context size of \(contextSize): "
                + "describing the response schema in the prompt takes \(tokens.count - withoutSchema) of them. \(Self.schemaRemedy)"))
        }
        throw .contextSizeExceeded(needed: tokens.count, contextSize: contextSize)
    }

    static let schemaRemedy = "Leave the schema out of the prompt (includeSchemaInPrompt: false; the grammar still enforces it), "
        + "use a larger context size, or a smaller schema."

    /// The prompt's token count with the schema left out, when the schema is in it and the prompt fits without it.
    private func tokensWithoutSchema(_ request: LanguageModelRequest, contextSize: Int) -> Int? {
        guard request.schema != nil, request.includeSchemaInPrompt else { return nil }
        var bare = request
        bare.includeSchemaInPrompt = false
        guard let tokens = try? promptTokens(for: bare), tokens.count <= contextSize else { return nil }
        return tokens.count
    }
}
