import Foundation
import LMGrammar
import Testing
import TestSupport

/// Compile and mask times over the real-world schema corpus (`Scripts/schema-corpus`: the 400 schemas of
/// ``SchemaCorpusTests``), each driven by the same seeded random SmolLM2 tokens within 200 tokens. Prints figures;
/// run it in release on a quiet machine:
///
///     LMSESSION_BENCH=1 swift test -c release --filter SchemaCorpusBenchmarks
@Suite("Schema corpus benchmark", .enabled(if: ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"))
struct SchemaCorpusBenchmarks {
    struct Row {
        let id: String
        let compileMs: Double
        let states: Int
        let masksUs: [Double]
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    @Test func `compile and mask times of every corpus schema`() throws {
        let cases = try SchemaCorpus.load()
        try #require(cases.count >= 400, "the schema corpus has only \(cases.count) schemas")
        let vocabulary = try SmolLM2Vocabulary.vocabulary()
        let driver = RandomGrammarDriver(vocabulary: vocabulary, index: try SmolLM2Vocabulary.index())
        let clock = ContinuousClock()
        var rows: [Row] = []
        for c in cases {
            let start = clock.now
            guard let compiled = try? CompiledGrammar(Grammar(jsonSchema: c.schema)) else { continue }
            let compileMs = Self.milliseconds(clock.now - start)
            var masks: [Double] = []
            _ = driver.generate(compiled, seed: SchemaCorpus.seed(c.id), budget: 200) { masks.append(Self.milliseconds($0) * 1e3) }
            rows.append(Row(id: c.id, compileMs: compileMs, states: compiled.stateCount,
                            masksUs: masks))
        }
        #expect(!rows.isEmpty)
        let f1 = { (v: Double) in String(format: "%.1f", v) }
        let compiles = rows.map(\.compileMs), masks = rows.flatMap(\.masksUs)
        print("schema corpus benchmark: \(rows.count) of \(cases.count) schemas compiled, \(masks.count) mask steps")
        print("| | p50 | p90 | p99 | max |")
        print("|---|---:|---:|---:|---:|")
        print("| compile (schema to matcher), ms | \(f1(Self.percentile(compiles, 0.5))) | \(f1(Self.percentile(compiles, 0.9))) | \(f1(Self.percentile(compiles, 0.99))) | \(f1(compiles.max() ?? 0)) |")
        print("| mask, us | \(f1(Self.percentile(masks, 0.5))) | \(f1(Self.percentile(masks, 0.9))) | \(f1(Self.percentile(masks, 0.99))) | \(f1(masks.max() ?? 0)) |")
        print("slowest to compile:")
        for r in rows.sorted(by: { $0.compileMs > $1.compileMs }).prefix(8) {
            print("  \(r.id): \(f1(r.compileMs)) ms, \(r.states) states, mask p50 \(f1(Self.percentile(r.masksUs, 0.5))) us max \(f1(r.masksUs.max() ?? 0)) us")
        }
        print("slowest mask step:")
        for r in rows.sorted(by: { ($0.masksUs.max() ?? 0) > ($1.masksUs.max() ?? 0) }).prefix(5) {
            print("  \(r.id): max \(f1(r.masksUs.max() ?? 0)) us over \(r.masksUs.count) steps, \(r.states) states")
        }
    }
}
