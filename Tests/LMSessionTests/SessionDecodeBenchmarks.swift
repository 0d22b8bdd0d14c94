import Foundation
import LMSession
import LMTransformer
import Testing
import TestSupport

// Session decode speed beside the bare forward pass, run only with LMSESSION_BENCH=1 in a release build:
//   LMSESSION_BENCH=1 swift test -c release --filter SessionDecodeBenchmarks
// Prints figures; asserts only that the measured requests really ran.

private let benchEnabled = ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"

@Suite("Session decode benchmarks (LMSESSION_BENCH=1)", .serialized, .enabled(if: benchEnabled))
struct SessionDecodeBenchmarks {
    static let prompt = "Write a long story about a dragon who learns to bake bread in a small village."
    static let tokens = 128
    static let repetitions = 3

    /// Decode tokens per second of a streamed greedy session response: from the first snapshot to the last,
    /// over the tokens generated between them.
    static func sessionRate(_ model: SystemLanguageModel) async throws -> (rate: Double, tokens: Int, depth: Int) {
        let session = LanguageModelSession(model: model)
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: tokens)
        var first: ContinuousClock.Instant?
        var last = ContinuousClock.now
        for try await _ in session.streamResponse(to: prompt, options: options) {
            last = .now
            if first == nil { first = last }
        }
        let generated = session.usage.output.totalTokenCount
        let seconds = (last - (first ?? last)) / .seconds(1)
        return (Double(generated - 1) / seconds, generated, session.usage.input.totalTokenCount)
    }

    /// `lmsession bench`'s tg loop: `evaluate(token:)` and argmax, from position `depth`.
    static func benchRate(_ context: InferenceContext, depth: Int) throws -> Double {
        let vocab = context.model.config.vocabSize
        var random = SplitMix64(seed: 42)
        let prompt = (0..<max(1, depth)).map { _ in Int(random.next() % UInt64(vocab)) }
        context.truncate(to: 0)
        try context.evaluate(prompt)
        var token = prompt[prompt.count - 1]
        let start = ContinuousClock.now
        for _ in 0..<tokens {
            token = Sampler.argmax(try context.evaluate(token: token))
        }
        return Double(tokens) / ((ContinuousClock.now - start) / .seconds(1))
    }

    @Test("session decode tok/s beside lmsession bench tg (same model, threads and process)")
    func sessionDecodeMatchesBench() async throws {
        let model = SystemLanguageModel(path: RealModel.path)
        let transformer = try TransformerModel(path: RealModel.path)
        let context = try InferenceContext(model: transformer, contextSize: 1024)
        _ = try await Self.sessionRate(model)  // load and warm up
        var session: [Double] = [], benchAtDepth: [Double] = [], benchAt1: [Double] = []
        var generated = 0, depth = 0
        for _ in 0..<Self.repetitions {
            let run = try await Self.sessionRate(model)
            session.append(run.rate)
            generated = run.tokens
            depth = run.depth
            benchAt1.append(try Self.benchRate(context, depth: 1))
            benchAtDepth.append(try Self.benchRate(context, depth: depth))
        }
        #expect(generated > 16)
        func f(_ x: [Double]) -> String { String(format: "%.1f (best %.1f)", x.reduce(0, +) / Double(x.count), x.max() ?? 0) }
        let ratio = (session.max() ?? 0) / (benchAtDepth.max() ?? 1)
        print("bench session decode: \(f(session)) tok/s over \(generated) tokens after a \(depth)-token prompt; "
              + "bench tg\(Self.tokens) @ d\(depth): \(f(benchAtDepth)); @ d1 (lmsession bench): \(f(benchAt1)); "
              + String(format: "session/bench best %.3f", ratio))
    }
}
