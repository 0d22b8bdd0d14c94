import Foundation
import LMKernels
import LMTransformer

/// `lmsession bench`: prefill and decode throughput like llama-bench (pp and tg tests on fixed
/// pseudo-random tokens), peak RSS and load time; `--sessions N` runs ``SessionsBench``,
/// `--shared-instructions` ``PrefixCacheBench``, `--memory-bandwidth` ``BandwidthBench`` and `--mmproj`/`--image`
/// ``VisionBench`` instead.
///
/// `--depth D` decodes after the first `D` prompt tokens (llama-bench's `-d`; default 1), so
/// `--prompt-tokens 4000 --gen-tokens 96 --depth 4000` measures decode, attention and peak RSS
/// with a full 4096-position KV cache.
enum BenchCommand {
    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: ["model", "threads", "prompt-tokens", "gen-tokens", "repetitions", "depth", "sessions",
                                                                "instructions-tokens", "mmproj", "image"],
                                         switches: ["json", "memory-bandwidth", "shared-instructions"])
        if a.has("memory-bandwidth") {
            try a.only(["memory-bandwidth", "threads", "repetitions", "json"], in: "bench --memory-bandwidth")
            return try BandwidthBench.run(a)
        }
        if a.string("mmproj") != nil || a.string("image") != nil {
            try a.only(["mmproj", "image", "threads", "repetitions", "json"], in: "bench --mmproj")
            return try VisionBench.run(a)
        }
        if a.has("shared-instructions") {
            try a.only(["shared-instructions", "model", "threads", "instructions-tokens", "repetitions"], in: "bench --shared-instructions")
            return try PrefixCacheBench.run(a)
        }
        if let sessions = try a.int("sessions") { return try SessionsBench.run(a, sessions: sessions) }
        let pp = try a.int("prompt-tokens") ?? 512, tg = try a.int("gen-tokens") ?? 128, reps = try a.int("repetitions") ?? 3
        let depth = try a.int("depth") ?? 1
        guard pp > 0, tg > 0, reps > 0 else { throw .usage("token counts and repetitions must be positive") }
        guard depth >= 1, depth <= pp else { throw .usage("--depth must be in 1...\(pp) (the prompt tokens)") }
        let threads = try a.threads()  // checked before the model loads
        let loadStart = Date()
        let model = try ModelLocator.load(a.string("model"))
        let context: InferenceContext
        do { context = try InferenceContext(model: model, contextSize: pp + tg + 1, threads: threads) } catch { throw .failed("\(error)") }
        let loadMs = Date().timeIntervalSince(loadStart) * 1000
        var random = RandomSource(seed: 42)
        let vocab = model.config.vocabSize
        let prompt = (0..<pp).map { _ in Int(random.next() % UInt64(vocab)) }
        var ppRates: [Double] = [], tgRates: [Double] = []
        do {
            for _ in 0..<reps {
                context.truncate(to: 0)
                let t0 = Date()
                try context.evaluate(prompt)
                ppRates.append(Double(pp) / Date().timeIntervalSince(t0))
                context.truncate(to: depth)
                let t1 = Date()
                var token = prompt[depth - 1]
                for _ in 0..<tg {
                    let logits = try context.evaluate(token: token)
                    token = Sampler.argmax(logits)
                }
                tgRates.append(Double(tg) / Date().timeIntervalSince(t1))
            }
        } catch { throw .failed("\(error)") }
        let rss = peakRSSBytes()
        let threadCount = threads ?? InferenceContext.defaultThreadCount
        if a.has("json") {
            print("{\"model\":\"\(model.name)\",\"threads\":\(threadCount),\"pp\(pp)_tok_s\":\(fmt(mean(ppRates))),\"tg\(tg)_tok_s\":\(fmt(mean(tgRates))),\"depth\":\(depth),\"kernels\":\"\(KernelSet.active)\",\"peak_rss_bytes\":\(rss),\"load_ms\":\(fmt(loadMs))}")
        } else {
            print("model: \(model.name), threads: \(threadCount), kernels: \(KernelSet.active)")
            print("pp\(pp): \(fmt(mean(ppRates))) ± \(fmt(spread(ppRates))) tokens/s")
            print("tg\(tg)\(depth > 1 ? " @ d\(depth)" : ""): \(fmt(mean(tgRates))) ± \(fmt(spread(tgRates))) tokens/s")
            print("peak RSS: \(rss / 1_048_576) MiB, load: \(fmt(loadMs)) ms")
        }
    }

    static func mean(_ x: [Double]) -> Double { x.reduce(0, +) / Double(x.count) }
    static func spread(_ x: [Double]) -> Double {
        let m = mean(x)
        return x.count > 1 ? (x.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(x.count - 1)).squareRoot() : 0
    }
    static func fmt(_ x: Double) -> String { String(format: "%.1f", x) }

    /// Peak resident set size from `/proc/self/status` (`VmHWM`), in bytes; 0 where unavailable.
    static func peakRSSBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kb * 1024
    }
}
