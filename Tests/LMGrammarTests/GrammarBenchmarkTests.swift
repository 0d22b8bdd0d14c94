import Foundation
import LMGrammar
import Testing

/// Mask-speed benchmark over the cases of `refs/guided/cases.json` (run with LMSESSION_BENCH=1,
/// in release). Output JSON goes to LMSESSION_BENCH_OUT (default /tmp/guided-bench.json).
@Suite("Grammar benchmark", .enabled(if: ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"))
struct GrammarBenchmarkTests {
    struct CaseResult: Codable {
        let id: String
        let compile_us: [Double]
        let mask_us: [Double]
        let popcount: [Int]
    }

    struct Report: Codable {
        let engine: String
        let index_build_us: Double
        let cases: [CaseResult]
    }

    static func microseconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    @Test("each case compiles, masks every driver step and reports its timings")
    func benchmark() throws {
        let vocabulary = try SmolLM2Vocabulary.vocabulary()
        let indexStart = ContinuousClock.now
        let index = TokenIndex(vocabulary)
        let indexUs = Self.microseconds(since: indexStart)
        var results: [CaseResult] = []
        var mask = [UInt64](repeating: 0, count: index.wordCount)
        for guided in try GuidedCase.all.get() {
            var compile: [Double] = []
            var maskTimes: [Double] = []
            var popcounts: [Int] = []
            // Compile several times (fresh matcher each) and keep every timing; drive the last.
            var matcher: GrammarMatcher? = nil
            for _ in 0..<5 {
                let start = ContinuousClock.now
                let compiled = try CompiledGrammar(guided.schema)
                matcher = GrammarMatcher(grammar: compiled, index: index)
                compile.append(Self.microseconds(since: start))
            }
            let m = try #require(matcher)
            for (step, token) in (guided.tokens + [2]).enumerated() {
                let start = ContinuousClock.now
                mask.withUnsafeMutableBufferPointer { m.computeMask(into: $0) }
                maskTimes.append(Self.microseconds(since: start))
                popcounts.append(mask.reduce(0) { $0 + $1.nonzeroBitCount })
                #expect(mask[token >> 6] >> UInt64(token & 63) & 1 == 1, "\(guided.id) step \(step): token \(token) masked out")
                #expect(m.accept(token: token))
            }
            results.append(CaseResult(id: guided.id, compile_us: compile, mask_us: maskTimes, popcount: popcounts))
            let f = { (v: Double) in String(format: "%.1f", v) }
            print("""
                \(guided.id): compile \(f(compile.first ?? 0)) us first, \(f(Self.percentile(compile, 0.5))) us p50; \
                mask p50 \(f(Self.percentile(maskTimes, 0.5))) p90 \(f(Self.percentile(maskTimes, 0.9))) \
                p99 \(f(Self.percentile(maskTimes, 0.99))) max \(f(maskTimes.max() ?? 0)) us over \(maskTimes.count) steps
                """)
        }
        // The same schemas on Gemma 3's 262,144-token vocabulary, driven by longest-match tokens.
        let gemma = try Gemma3Vocabulary.shared.get()
        let gemmaStart = ContinuousClock.now
        let gemmaIndex = TokenIndex(gemma)
        let gemmaIndexUs = Self.microseconds(since: gemmaStart)
        let longest = LongestMatchTokenizer(gemma)
        var gemmaMask = [UInt64](repeating: 0, count: gemmaIndex.wordCount)
        var gemmaTimes: [Double] = []
        for guided in try GuidedCase.all.get() {
            let tokens = try #require(longest.tokenize(guided.text))
            let start = ContinuousClock.now
            let m = GrammarMatcher(grammar: try CompiledGrammar(guided.schema), index: gemmaIndex)
            let compile = Self.microseconds(since: start)
            var times: [Double] = []
            var popcounts: [Int] = []
            for token in tokens + [1] {
                let t0 = ContinuousClock.now
                gemmaMask.withUnsafeMutableBufferPointer { m.computeMask(into: $0) }
                times.append(Self.microseconds(since: t0))
                popcounts.append(gemmaMask.reduce(0) { $0 + $1.nonzeroBitCount })
                #expect(m.accept(token: token))
            }
            gemmaTimes += times
            results.append(CaseResult(id: guided.id + "@gemma3", compile_us: [compile], mask_us: times, popcount: popcounts))
        }
        print("gemma3 (index build \(String(format: "%.0f", gemmaIndexUs)) us): mask p50 \(Self.percentile(gemmaTimes, 0.5)) p90 \(Self.percentile(gemmaTimes, 0.9)) p99 \(Self.percentile(gemmaTimes, 0.99)) max \(gemmaTimes.max() ?? 0) us")
        let all = results.filter { !$0.id.hasSuffix("@gemma3") }.flatMap(\.mask_us)
        print("index build \(String(format: "%.0f", indexUs)) us; all steps: mask p50 \(Self.percentile(all, 0.5)) p90 \(Self.percentile(all, 0.9)) p99 \(Self.percentile(all, 0.99)) max \(all.max() ?? 0) us")
        let out = ProcessInfo.processInfo.environment["LMSESSION_BENCH_OUT"] ?? "/tmp/guided-bench.json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(Report(engine: "LMGrammar", index_build_us: indexUs, cases: results)).write(to: URL(fileURLWithPath: out))
    }

    @Test("the budget check and the restricted mask cost little per step")
    func budgetBenchmark() throws {
        let index = try SmolLM2Vocabulary.index()
        var mask = [UInt64](repeating: 0, count: index.wordCount)
        var checks: [Double] = [], restricts: [Double] = []
        for guided in try GuidedCase.all.get() {
            let m = GrammarMatcher(grammar: try CompiledGrammar(guided.schema), index: index)
            for token in guided.tokens {
                mask.withUnsafeMutableBufferPointer { m.computeMask(into: $0) }
                var start = ContinuousClock.now
                let after = m.completionTokenCount(after: token)
                checks.append(Self.microseconds(since: start))
                let needed = try #require(after)
                // The tightest budget the token still fits, as when the reserve is closing the value.
                start = ContinuousClock.now
                let kept = mask.withUnsafeMutableBufferPointer { m.restrictMask($0, closingWithin: needed) }
                restricts.append(Self.microseconds(since: start))
                #expect(kept >= 1 && mask[token >> 6] >> UInt64(token & 63) & 1 == 1)
                #expect(m.accept(token: token))
            }
        }
        let f = { (v: Double) in String(format: "%.1f", v) }
        print("budget over \(checks.count) steps: check p50 \(f(Self.percentile(checks, 0.5))) p90 \(f(Self.percentile(checks, 0.9))) "
              + "max \(f(checks.max() ?? 0)) us; restricted mask p50 \(f(Self.percentile(restricts, 0.5))) "
              + "p90 \(f(Self.percentile(restricts, 0.9))) max \(f(restricts.max() ?? 0)) us")
    }
}
