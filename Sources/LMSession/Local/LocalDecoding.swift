import Foundation
import LMGeneration
import LMGrammar
import LMTransformer

/// One model call of a request on the local model, through LMGeneration's decode step: the guide the
/// request needs (plain text, its schema's grammar, or the tool-call protocol), the options' sampler and
/// budget, and the events the session consumes.
package enum LocalDecoding {
    /// Decodes the response to `request` from the prompt already in `forward` (`logits` are its last
    /// token's), emitting text as it is decided, then `.toolCalls` when the model called tools, then usage.
    ///
    /// `maximumResponseTokens` counts response tokens; once the model opens a tool call it may finish it
    /// (at most ``ToolCallDecoder/maximumTokensPerEnvelope`` tokens). Usage counts every generated token,
    /// tool calls included.
    /// - Parameters:
    ///   - promptCount: tokens of the prompt, for usage; `cached`: how many came from the KV cache.
    ///   - promptEnd: whether the prompt's end already opened or closed a reasoning block (see ``ReasoningGuide``).
    ///   - schemaGuide: the schema's guide from ``schemaGuideWithinBudget(_:vocabulary:)``, when it built one.
    ///   - isCancelled: checked before every token.
    /// - Throws: ``LanguageModelError/contextSizeExceeded(_:)`` when the window fills,
    ///   ``LanguageModelError/unsupportedGenerationGuide(_:)`` when the schema or a tool's parameters cannot be
    ///   enforced, ``GeneratedContent/ParsingError`` when a structured value cannot close within the budget or a
    ///   tool call runs too long or does not decode; `InferenceError` from the forward pass.
    package static func run(_ request: LanguageModelRequest, vocabulary: DecodeVocabulary, forward: some ForwardPass,
                            logits: UnsafeBufferPointer<Float>, promptCount: Int, cached: Int, promptEnd: ReasoningPromptEnd = .none,
                            schemaGuide: GrammarGuide? = nil, isCancelled: () -> Bool, emit: (LanguageModelEvent) -> Void) throws {
        var generated = 0
        var reasoningTokens = 0
        defer {
            emit(.usage(LanguageModelUsage(inputTokens: promptCount, cachedInputTokens: cached, outputTokens: generated,
                                           reasoningTokens: reasoningTokens)))
        }
        let (parameters, seed) = request.options.samplingParameters()
        let sampler = Sampler(parameters, seed: seed)
        let budget = request.options.maximumResponseTokens
        let reasoningSwitch = ReasoningSwitch(request.contextOptions.reasoningLevel)
        var responseText = ""
        func decode<Guide: TokenGuide>(_ guide: Guide) throws -> (DecodeSequence<ReasoningGuide<Guide>>, StopReason) {
            let split = ReasoningGuide(guide, markers: vocabulary.reasoningMarkers, mode: reasoningSwitch, pieces: vocabulary.pieces,
                                       endOfGeneration: vocabulary.endOfGeneration, isWhitespace: vocabulary.isWhitespace,
                                       promptEnd: promptEnd)
            var sequence = DecodeSequence(guide: split, sampler: sampler, pieces: vocabulary.pieces, maximumTokens: budget)
            defer {
                generated = sequence.generatedCount
                reasoningTokens = sequence.guide.reasoningTokenCount
                // The block comes before the answer or calls of this step (the session records it so).
                if let reasoning = sequence.guide.reasoning?.trimmingCharacters(in: .whitespacesAndNewlines), !reasoning.isEmpty {
                    emit(.reasoning(text: reasoning, signature: nil))
                }
            }
            do {
                let reason = try Decoding.run(&sequence, on: forward, from: logits, isCancelled: isCancelled) { responseText += $0; emit(.text($0)) }
                return (sequence, reason)
            } catch let error as DecodeError {
                throw Self.sessionError(error, schemaName: request.schema.flatMap { $0.formatName.isEmpty ? nil : $0.formatName })
            }
        }
        func finish<Guide>(_ sequence: inout DecodeSequence<Guide>, _ reason: StopReason) {
            guard reason != .cancelled else { return }
            let rest = sequence.finish()
            if !rest.isEmpty { responseText += rest; emit(.text(rest)) }
        }

        // A transcript with tool calls shows the model the tool markup: it is refused in the answer even when this
        // request has no tools.
        if !request.toolDefinitions.isEmpty || request.transcript.contains(where: \.isToolStep) {
            let decoder = try ToolCallDecoder(
                definitions: request.toolDefinitions, schema: request.schema, mode: request.options.toolCallingMode?.kind ?? .allowed,
                index: vocabulary.index(), tokenBytes: vocabulary.tokenBytes, envelope: vocabulary.envelope())
            var (sequence, reason) = try decode(ToolCallGuide(decoder, tokenCount: vocabulary.tokenCount))
            let calls = sequence.guide.inner.calls
            // Text written before a call is not the answer: the session drops it with the step.
            // The turn ends with the calls (at the end-of-generation token after them, or when the guide allows
            // nothing more).
            if reason != .cancelled, !calls.isEmpty { return emit(.toolCalls(calls)) }
            finish(&sequence, reason)
            if request.schema != nil, reason == .maximumTokens { try checkNotCutNumber(responseText, budget: budget) }
        } else if let schema = request.schema {
            var (sequence, reason) = try decode(try schemaGuide ?? GrammarGuide(schema: schema, index: vocabulary.index(), budgeted: budget != nil))
            finish(&sequence, reason)
            if reason == .maximumTokens, !sequence.guide.inner.matcher.isTerminated { try checkNotCutNumber(responseText, budget: budget) }
        } else {
            var (sequence, reason) = try decode(TextGuide(endOfGeneration: vocabulary.endOfGeneration, vocabularySize: vocabulary.tokenCount))
            finish(&sequence, reason)
        }
    }
}

extension LocalDecoding {
    /// The schema's guide for a structured request with `maximumResponseTokens` (nil for others), built before any
    /// prefill so that a value whose shortest form needs more tokens than the budget is refused then: decoding would
    /// fail at its first token, after prefilling the prompt (and the schema described in it) for nothing. Requests
    /// with tools or tool steps are left to decoding (a call may come first). Pass the guide on to ``run``.
    /// - Throws: the ``GeneratedContent/ParsingError`` decoding would throw, and
    ///   ``LanguageModelError/unsupportedGenerationGuide(_:)`` when the schema cannot be enforced.
    package static func schemaGuideWithinBudget(_ request: LanguageModelRequest, vocabulary: DecodeVocabulary) throws -> GrammarGuide? {
        guard let schema = request.schema, let budget = request.options.maximumResponseTokens,
              request.toolDefinitions.isEmpty, !request.transcript.contains(where: \.isToolStep) else { return nil }
        let guide = try GrammarGuide(schema: schema, index: vocabulary.index(), budgeted: true)
        guard let needed = guide.completionTokenCount, needed > budget else { return guide }
        throw sessionError(.budgetTooSmall(tokensLeft: budget, needed: needed),
                           schemaName: schema.formatName.isEmpty ? nil : schema.formatName)
    }

    /// The budget closes strings, arrays and objects in time, but nothing closes a number: a structured response
    /// that is a bare number and was stopped by the budget could have gone on, so it is cut off, not complete.
    /// - Throws: ``GeneratedContent/ParsingError`` when `text` (the whole response) is a bare JSON number.
    static func checkNotCutNumber(_ text: String, budget: Int?) throws {
        guard case .number? = try? JSONValue.parse(text) else { return }
        throw GeneratedContent.ParsingError(rawContent: text, debugDescription:
            "The number was cut off by maximumResponseTokens (\(budget ?? 0)); it could have gone on: \(text)")
    }

    /// The session's error for a decode failure: a full context is ``LanguageModelError/contextSizeExceeded(_:)``,
    /// a value that cannot be completed is a ``GeneratedContent/ParsingError`` (its `rawContent` is filled in
    /// by the session, which has the text), a grammar that cannot be followed at run time is
    /// ``LanguageModelError/unsupportedGenerationGuide(_:)``, and a forward-pass failure is passed on as the runtime's `InferenceError`.
    static func sessionError(_ error: DecodeError, schemaName: String? = nil) -> any Swift.Error {
        switch error {
        case let .contextFull(needed, contextSize):
            LanguageModelError.contextSizeExceeded(needed: needed, contextSize: contextSize)
        case .budgetTooSmall, .noTokenAllowed:
            GeneratedContent.ParsingError(rawContent: "", underlyingError: error, debugDescription: error.description)
        case let .forwardPass(inner):
            inner
        case .nonFiniteLogits:
            SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: error.description))
        case let .grammar(inner):
            LanguageModelError.unsupportedGenerationGuide(.init(schemaName: schemaName, debugDescription: "The schema cannot be enforced: \(inner)"))
        }
    }
}
