import Testing
import LMTransformer
import TestSupport

/// "Decoding a token allocates nothing": after one warm-up step, `evaluate(token:)` (and the
/// sampler step generation runs after it) make no heap allocation on the calling thread or the
/// compute workers, counted by ``AllocationCounter``.
/// The counter patches libswiftCore's `malloc` slot: on Linux with glibc (x86-64, arm64) the suite fails
/// when it cannot (``AllocationCounter/requireCounting()``); elsewhere it runs only if the patch works.
@Suite("Decoding allocates nothing", .enabled(if: AllocationCounter.isEnabled))
struct DecodeAllocationTests {
    struct Case: CustomStringConvertible, Sendable {
        let modelFile: String
        let threads: Int
        var description: String { "\(modelFile), \(threads) threads" }
    }

    static let cases = [
        Case(modelFile: TestModels.smolLM2.file, threads: 1),
        Case(modelFile: TestModels.smolLM2.file, threads: 2),
        Case(modelFile: TestModels.gemma3.file, threads: 1),
        Case(modelFile: TestModels.gemma3.file, threads: 2),
    ]

    @Test("the allocation counter is installed and counting where it is expected to work")
    func counterWorksWhereExpected() throws {
        try AllocationCounter.requireCounting()
    }

    @Test("the allocation counter sees arrays built in the measured block", arguments: [1, 3, 1000])
    func counterSeesAllocations(_ count: Int) throws {
        var total = 0
        let allocations = try #require(AllocationCounter.count {
            for n in 1...count {
                let a = [Int](repeating: n, count: n + 1)
                total += a.count
            }
        })
        #expect(allocations >= count)
        #expect(total == count * (count + 3) / 2)
    }

    @Test("decode steps after a 200-token prompt make no heap allocation", arguments: cases)
    func decodeStepsAllocateNothing(_ c: Case) throws {
        try AllocationCounter.requireCounting()
        let model = try ReferenceModels.model(forReferenceName: c.modelFile)
        let context = try InferenceContext(model: model, contextSize: 512, threads: c.threads)
        var random = SplitMix64(seed: 3)
        let prompt = (0..<200).map { _ in Int(random.next() % UInt64(model.config.vocabSize)) }
        var token = Sampler.argmax(try context.evaluate(prompt))
        token = Sampler.argmax(try context.evaluate(token: token))
        let allocations = try #require(try AllocationCounter.count {
            for _ in 0..<16 { token = Sampler.argmax(try context.evaluate(token: token)) }
        })
        #expect(context.tokens.count == 217)
        #expect(allocations == 0)
    }

    struct SamplerCase: CustomStringConvertible, Sendable {
        let name: String
        let parameters: SamplingParameters
        let masked: Bool
        var description: String { name }
    }

    static let samplerCases = [
        SamplerCase(name: "greedy", parameters: .greedy, masked: false),
        SamplerCase(name: "default top-k/top-p/min-p", parameters: SamplingParameters(), masked: false),
        SamplerCase(name: "repetition penalty, no top-k", parameters: SamplingParameters(temperature: 1.2, topK: nil, topP: 0.99, minP: nil, repetitionPenalty: 1.3), masked: false),
        SamplerCase(name: "token mask and penalty", parameters: SamplingParameters(repetitionPenalty: 1.1), masked: true),
    ]

    @Test("sampling a token allocates nothing after the first call", arguments: samplerCases)
    func samplingAllocatesNothing(_ c: SamplerCase) throws {
        try AllocationCounter.requireCounting()
        let vocab = 5000
        var random = SplitMix64(seed: 11)
        let logits = (0..<vocab).map { _ in Float(random.nextUnit() * 12 - 6) }
        let mask = (0..<(vocab + 63) / 64).map { _ in c.masked ? random.next() : ~UInt64(0) }
        let recent = (0..<100).map { _ in Int(random.next() % UInt64(vocab)) }[...]
        var sampler = Sampler(c.parameters, seed: 5)
        var picked: [Int] = []
        picked.reserveCapacity(64)
        try logits.withUnsafeBufferPointer { l in
            try mask.withUnsafeBufferPointer { m in
                picked.append(sampler.sample(l, recentTokens: recent, allowed: m))
                let allocations = try #require(AllocationCounter.count {
                    for _ in 0..<32 { picked.append(sampler.sample(l, recentTokens: recent, allowed: m)) }
                })
                #expect(allocations == 0)
            }
        }
        for token in picked { #expect(mask[token / 64] & (1 << UInt64(token % 64)) != 0) }
    }
}
