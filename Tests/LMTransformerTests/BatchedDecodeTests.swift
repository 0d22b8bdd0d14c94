import Testing
import LMTransformer
import TestSupport

/// "A session's output is the same as when it runs alone": sequences advanced together by
/// ``ForwardEngine/decode(_:tokens:forEachLogits:)`` get, at every step, bit for bit the logits
/// their own context computes alone, so greedy decoding picks identical tokens. Batches cross 8
/// rows, where the products would otherwise switch to the prefill tiles (another Float order).
@Suite("Batched decoding matches decoding alone")
struct BatchedDecodeTests {
    struct Case: CustomStringConvertible, Sendable {
        let modelFile: String
        let threads: Int
        var description: String { "\(modelFile), \(threads) threads" }
    }

    static let cases = [
        Case(modelFile: TestModels.smolLM2.file, threads: 2),
        Case(modelFile: TestModels.smolLM2.file, threads: 1),
        Case(modelFile: TestModels.gemma3.file, threads: 2),
    ]

    static let prompts = [
        "The capital of France is",
        "Write a haiku about the sea.",
        "1, 2, 3, 4, 5,",
        "Once upon a time, in a small village at the edge of a great forest, there lived",
        "def fibonacci(n):",
        "Q: What is the boiling point of water in Kelvin?\nA:",
        "Les chats sont",
        "A list of three fruits: apple,",
        "The quick brown fox",
        "In 1969, the first humans",
    ]

    /// Greedy tokens and every step's logits of `prompt` decoded alone for `steps` tokens.
    static func solo(_ model: TransformerModel, _ prompt: [Int], steps: Int, threads: Int) throws -> (tokens: [Int], logits: [[Float]]) {
        let context = try InferenceContext(model: model, contextSize: 256, threads: threads)
        var logits = try context.evaluate(prompt)
        var tokens: [Int] = [], all: [[Float]] = []
        for _ in 0..<steps {
            let token = Sampler.argmax(logits)
            tokens.append(token)
            logits = try context.evaluate(token: token)
            all.append(Array(logits))
        }
        return (tokens, all)
    }

    @Test("ten sequences joining and leaving a batch get their solo logits bit for bit", arguments: cases)
    func batchedStepsMatchSoloSteps(_ c: Case) throws {
        let model = try ReferenceModels.model(forReferenceName: c.modelFile)
        let prompts = Self.prompts.map { model.tokenizer.encode($0) }
        // Different lengths, so the batch shrinks as sequences finish.
        let steps = prompts.indices.map { 6 + 2 * $0 }
        let expected = try prompts.indices.map { try Self.solo(model, prompts[$0], steps: steps[$0], threads: c.threads) }

        let engine = try ForwardEngine(model: model, contextSize: 256, threads: c.threads)
        var contexts: [InferenceContext?] = Array(repeating: nil, count: prompts.count)
        var next = Array(repeating: 0, count: prompts.count)
        var produced: [[Int]] = Array(repeating: [], count: prompts.count)
        var logits: [[[Float]]] = Array(repeating: [], count: prompts.count)
        var step = 0
        while produced.indices.contains(where: { produced[$0].count < steps[$0] }) {
            // Six start at once; the others join, one per step, with their prefill between steps.
            for i in prompts.indices where contexts[i] == nil && (i < 6 || i - 6 < step) {
                let context = InferenceContext(engine: engine)
                next[i] = Sampler.argmax(try context.evaluate(prompts[i]))
                contexts[i] = context
            }
            let active = prompts.indices.filter { contexts[$0] != nil && produced[$0].count < steps[$0] }
            for i in active { produced[i].append(next[i]) }
            try engine.decode(active.map { contexts[$0]! }, tokens: active.map { next[$0] }) { row, rowLogits in
                let i = active[row]
                logits[i].append(Array(rowLogits))
                next[i] = Sampler.argmax(rowLogits)
            }
            step += 1
        }
        #expect(step > steps.max()!)
        for i in prompts.indices {
            #expect(produced[i] == expected[i].tokens, "sequence \(i)")
            #expect(logits[i] == expected[i].logits, "sequence \(i): logits differ from the solo run")
            #expect(contexts[i]!.tokens == prompts[i] + expected[i].tokens, "sequence \(i)")
        }
    }

    @Test("a batch with a full context throws before changing any cache")
    func fullContextThrowsFirst() throws {
        let model = try ReferenceModels.smolLM2.get()
        let engine = try ForwardEngine(model: model, contextSize: 4, threads: 1)
        let roomy = InferenceContext(engine: engine), full = InferenceContext(engine: engine)
        try roomy.evaluate([1, 2])
        try full.evaluate([1, 2, 3, 4])
        #expect(throws: InferenceError.contextFull(needed: 1, available: 0)) {
            try engine.decode([roomy, full], tokens: [5, 6]) { _, _ in }
        }
        #expect(roomy.tokens == [1, 2])
        #expect(throws: InferenceError.invalidToken(-1)) {
            try engine.decode([roomy], tokens: [-1]) { _, _ in }
        }
        #expect(roomy.tokens == [1, 2])
    }
}
