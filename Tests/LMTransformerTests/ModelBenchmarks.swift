import Foundation
import Testing
import LMTransformer
import TestSupport

// Whole-model throughput, like llama-bench's pp512 / tg128, run only with LMSESSION_BENCH=1 in a
// release build:   LMSESSION_BENCH=1 swift test -c release --filter ModelBenchmarks
// The kernels are this CPU's fastest (`KernelSet.active`); LMSESSION_KERNELS=portable for the others.

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

    /// Microseconds per sampled token on each model's real logits (after a short prompt), for the
    /// sampling defaults and other chains, next to greedy: the sampler must stay well under 1% of
    /// a decode step.
    @Test("sampling cost per token", arguments: [TestModels.smolLM2.file, TestModels.gemma3.file])
    func samplingCost(_ file: String) throws {
        let model = try ReferenceModels.model(forReferenceName: file)
        let context = try InferenceContext(model: model, contextSize: 256)
        let logits = Array(try context.evaluate(model.tokenizer.encode("The capital of France is")))
        let chains: [(String, SamplingParameters)] = [
            ("greedy", .greedy), ("defaults (top-k 40, top-p 0.95, min-p 0.05, T 0.8)", SamplingParameters()),
            ("top-p 0.9, T 0.7, no top-k", SamplingParameters(temperature: 0.7, topK: nil, topP: 0.9, minP: nil)),
            ("T 1.0 only", SamplingParameters(temperature: 1, topK: nil, topP: nil, minP: nil)),
        ]
        for (name, parameters) in chains {
            var sampler = Sampler(parameters, seed: 1)
            let recent = Array(0..<64)[...]
            let n = 2000
            let t0 = Date()
            var sink = 0
            logits.withUnsafeBufferPointer { l in for _ in 0..<n { sink &+= sampler.sample(l, recentTokens: recent) } }
            let us = Date().timeIntervalSince(t0) / Double(n) * 1e6
            print(String(format: "sampling %@ vocab %d, %@: %.1f us/token", file, logits.count, name, us))
            #expect(sink >= 0)
        }
    }
}
