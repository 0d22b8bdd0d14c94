import LMGrammar
import LMTokenizer
import LMTransformer

extension LocalConversation {
    /// Generates one model call of a request whose model may call tools, from the prompt already in `context`
    /// (`logits` are the last prompt token's). Emits response text as it is decided (text that may be the start
    /// of a call is held back until it is not), then either `.toolCalls` or nothing more, then usage.
    ///
    /// `maximumResponseTokens` counts response text only: once the model opens a call it may finish it (at most
    /// ``ToolCallDecoder/maximumTokensPerEnvelope`` tokens), so a small answer budget does not break
    /// tool calling. A structured answer keeps the tokens it needs to close within the budget (see
    /// `ToolCallDecoder.budgetMask`). Usage counts every generated token, envelope included.
    ///
    /// Runs on the conversation's queue, like `run`.
    /// - Throws: ``LanguageModelSession/GenerationError``: `exceededContextWindowSize` when the window fills,
    ///   `unsupportedGuide` when a tool's parameters cannot be enforced, `decodingFailure` when a call's JSON is longer
    ///   than ``ToolCallDecoder/maximumTokensPerEnvelope`` tokens.
    func runWithTools(_ request: LanguageModelRequest, loaded: LoadedModel, context: InferenceContext,
                      logits firstLogits: UnsafeBufferPointer<Float>, promptCount: Int, cached: Int,
                      stop: StopFlag, emit: (LanguageModelEvent) -> Void) throws {
        let tokenizer = loaded.model.tokenizer
        let index = loaded.tokenIndex.index(for: tokenizer)
        var decoder = try ToolCallDecoder(
            definitions: request.toolDefinitions, schema: request.schema, mode: request.options.toolCallingMode?.kind ?? .allowed,
            index: index, tokenBytes: { tokenizer.tokenBytes($0) }, envelope: .init(tokenizer, style: loaded.renderer.toolStyle))
        let (parameters, seed) = request.options.samplingParameters()
        var sampler = Sampler(parameters, seed: seed)
        var detokenizer = StreamingDetokenizer(tokenizer: tokenizer)
        let limit = request.options.maximumResponseTokens.map { max(0, $0) }
        var logits = firstLogits
        var generated = 0
        var responseTokens = 0
        var held = ""
        defer { emit(.usage(LanguageModelUsage(inputTokens: promptCount, cachedInputTokens: cached, outputTokens: generated))) }

        func append(_ tokens: [Int]) throws {
            guard context.tokens.count + tokens.count <= loaded.contextSize else {
                throw LanguageModelSession.GenerationError.contextWindow(needed: context.tokens.count + tokens.count, contextSize: loaded.contextSize)
            }
            generated += tokens.count
            logits = try tokens.count == 1 ? context.evaluate(token: tokens[0]) : context.evaluate(tokens)
        }

        generation: while true {
            if stop.isSet { return }
            if let limit, responseTokens >= limit, !decoder.isCallingTools { break }
            switch decoder.next() {
            case .end:
                break generation
            case .call(let calls):
                emit(.toolCalls(calls))
                return
            case .force(let tokens):
                try append(tokens)
            case .sample(let allowed):
                let recent = context.tokens.suffix(parameters.repetitionWindow)
                var mask = allowed
                var token = Self.sample(&sampler, logits, recent, mask)
                if let limit, let narrowed = try decoder.budgetMask(after: token, allowed: mask, tokensLeft: limit - responseTokens) {
                    // A structured answer keeps the tokens it needs to close.
                    mask = narrowed
                    token = Self.sample(&sampler, logits, recent, mask)
                }
                var acceptance = try decoder.accept(token)
                while acceptance == .rejected {
                    // Ban the token and sample again among the rest.
                    if mask == nil { mask = Self.allTokens(index) }
                    mask?[token >> 6] &= ~(1 << UInt64(token & 63))
                    guard mask?.contains(where: { $0 != 0 }) == true else {
                        throw LanguageModelSession.GenerationError.decodingFailure(.init(debugDescription: "no token can continue the tool call"))
                    }
                    token = Self.sample(&sampler, logits, recent, mask)
                    acceptance = try decoder.accept(token)
                }
                switch acceptance {
                case .end:
                    continue generation
                case .text:
                    responseTokens += 1
                    let piece = detokenizer.append(token)
                    if !(held + piece).isEmpty { emit(.text(held + piece)) }
                    held = ""
                case .held:
                    responseTokens += 1
                    held += detokenizer.append(token)
                case .call, .rejected:
                    held = ""
                }
                try append([token])
            }
        }
        // The response ended, or `maximumResponseTokens` cut it (never inside a call).
        let rest = held + detokenizer.finish()
        if !rest.isEmpty { emit(.text(rest)) }
    }

    private static func sample(_ sampler: inout Sampler, _ logits: UnsafeBufferPointer<Float>, _ recent: ArraySlice<Int>, _ mask: [UInt64]?) -> Int {
        guard let mask else { return sampler.sample(logits, recentTokens: recent) }
        return mask.withUnsafeBufferPointer { sampler.sample(logits, recentTokens: recent, allowed: $0) }
    }

    /// A mask allowing every token of the vocabulary.
    private static func allTokens(_ index: TokenIndex) -> [UInt64] {
        var mask = [UInt64](repeating: ~0, count: index.wordCount)
        let spare = index.wordCount * 64 - index.tokenCount
        if spare > 0 { mask[mask.count - 1] >>= UInt64(spare) }
        return mask
    }
}

extension ToolCallDecoder.EnvelopeTokens {
    /// The envelope texts as `tokenizer` writes them (special-token text parsed, so a vocabulary with a
    /// `<tool_call>` token uses it).
    init(_ tokenizer: Tokenizer, style: ToolCallEnvelope.Style) {
        func tokens(_ text: String) -> [Int] { tokenizer.encode(text, addBOS: false, parseSpecial: true) }
        let quote = tokens("\"")
        self.init(open: tokens(ToolCallEnvelope.open), close: tokens(ToolCallEnvelope.close),
                  separatorAndOpen: tokens(ToolCallEnvelope.separator + ToolCallEnvelope.open), style: style,
                  quote: quote.count == 1 ? quote[0] : nil)
    }
}
