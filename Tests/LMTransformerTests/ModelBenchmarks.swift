import Foundation
import Testing
import LMTransformer
import TestSupport

// Whole-model throughput, like llama-bench's pp512 / tg128, run only with LMSESSION_BENCH=1 in a
// release build:   LMSESSION_BENCH=1 swift test -c release --filter ModelBenchmarks
// Run it through `Scripts/x86v3 test …` for the AVX2 kernels' figures.

private let benchEnabled = ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"

@Suite("Model benchmarks (LMSESSION_BENCH=1)", .serialized, .enabled(if: benchEnabled))
struct ModelBenchmarks {
    @Test("prefill and decode tokens/s, SmolLM2 and Gemma 3, 1 and 2 threads",
          arguments: [TestModels.smolLM2.file, TestModels.gemma3.file])
    func throughput(_ file: String) throws {
        let model = try ReferenceModels.model(forReferenceName: file)
        var random = SplitMix64(seed: 7)
        let prompt = (0..<512).map { _ in Int(random.next() % UInt64(model.config.vocabSize)) }
        for threads in [1, 2] {
            let context = try InferenceContext(model: model, contextSize: 1024, threads: threads)
            var pp: [Double] = [], tg: [Double] = []
            for _ in 0..<3 {
                context.truncate(to: 0)
                let t0 = Date()
                try context.evaluate(prompt)
                pp.append(512 / Date().timeIntervalSince(t0))
                context.truncate(to: 1)
                var token = prompt[0]
                let t1 = Date()
                for _ in 0..<128 { token = Sampler.argmax(try context.evaluate(token: token)) }
                tg.append(128 / Date().timeIntervalSince(t1))
            }
            print(String(format: "bench %@ threads=%d pp512 %.1f tok/s (best %.1f) tg128 %.1f tok/s (best %.1f)",
                         file, threads, pp.reduce(0, +) / 3, pp.max() ?? 0, tg.reduce(0, +) / 3, tg.max() ?? 0))
        }
    }
}
