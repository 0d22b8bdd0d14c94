import LMGeneration
import LMTokenizer
import LMTransformer
import Testing
import TestSupport

/// "Decoding a token allocates nothing", for the whole decode step: sample -> guide -> detokenize ->
/// `evaluate(token:)`, as `Decoding.run` drives it for unguided text on the real model, on a context of
/// its own and through the ``BatchScheduler`` that sessions decode on. Counted by ``AllocationCounter``
/// (failing on Linux with glibc when it cannot count; elsewhere run only if it can).
@Suite("The decode step allocates nothing", .enabled(if: AllocationCounter.isEnabled))
struct EngineAllocationTests {
    static let model = Result { try TransformerModel(path: TestModels.path(TestModels.smolLM2)) }

    @Test("decoding 24 tokens of text after warm-up makes no heap allocation",
          arguments: [SamplingParameters.greedy, SamplingParameters()])
    func textDecodingAllocatesNothing(_ parameters: SamplingParameters) throws {
        try AllocationCounter.requireCounting()
        let model = try Self.model.get()
        let tokenizer = model.tokenizer
        let context = try InferenceContext(model: model, contextSize: 256, threads: 2)
        let prompt = tokenizer.encode("The history of the printing press begins", addBOS: false)
        var logits = try context.evaluate(prompt)
        // No end-of-generation tokens: the budget alone stops it, so every run decodes the same count.
        var sequence = DecodeSequence(guide: TextGuide(endOfGeneration: [], vocabularySize: tokenizer.vocabularySize),
                                      sampler: Sampler(parameters, seed: 7), pieces: tokenizer.pieces, maximumTokens: 4 + 24)
        var shown = 0
        // Warm-up: buffers reach their size.
        for _ in 0..<4 {
            guard case let .token(token, text) = try sequence.step(logits: logits, history: context.tokens[...]) else { break }
            shown += text.utf8.count
            logits = try context.evaluate(token: token)
        }
        var reason = StopReason.cancelled
        let allocations = try #require(try AllocationCounter.count {
            reason = try Decoding.run(&sequence, on: context, from: logits, isCancelled: { false }) { shown += $0.utf8.count }
        })
        #expect(reason == .maximumTokens)
        #expect(sequence.generatedCount == 28)
        #expect(context.tokens.count == prompt.count + 27)
        #expect(shown > 0)
        #expect(allocations == 0)
    }

    /// The sessions' path: one ``BatchedSequence`` on a ``BatchScheduler`` (its submissions, the batched step the
    /// caller leads, the copy of its logits). Its first steps grow the scheduler's reused buffers.
    @Test("decoding 24 tokens through the batch scheduler after warm-up makes no heap allocation",
          arguments: [SamplingParameters.greedy, SamplingParameters()])
    func scheduledDecodingAllocatesNothing(_ parameters: SamplingParameters) throws {
        try AllocationCounter.requireCounting()
        let model = try Self.model.get()
        let tokenizer = model.tokenizer
        let scheduler = BatchScheduler(engine: try ForwardEngine(model: model, contextSize: 256, threads: 2))
        let sequence = BatchedSequence(context: InferenceContext(engine: scheduler.engine), scheduler: scheduler)
        defer { sequence.close() }
        let prompt = tokenizer.encode("The history of the printing press begins", addBOS: false)
        var logits = try sequence.prefill(prompt)
        var decode = DecodeSequence(guide: TextGuide(endOfGeneration: [], vocabularySize: tokenizer.vocabularySize),
                                    sampler: Sampler(parameters, seed: 7), pieces: tokenizer.pieces, maximumTokens: 4 + 24)
        var shown = 0
        for _ in 0..<4 {
            guard case let .token(token, text) = try decode.step(logits: logits, history: sequence.tokens[...]) else { break }
            shown += text.utf8.count
            logits = try sequence.evaluate(token: token)
        }
        var reason = StopReason.cancelled
        let allocations = try #require(try AllocationCounter.count {
            reason = try Decoding.run(&decode, on: sequence, from: logits, isCancelled: { false }) { shown += $0.utf8.count }
        })
        #expect(reason == .maximumTokens)
        #expect(sequence.tokens.count == prompt.count + 27)
        #expect(scheduler.statistics.steps == 27)
        #expect(shown > 0)
        #expect(allocations == 0)
    }
}
