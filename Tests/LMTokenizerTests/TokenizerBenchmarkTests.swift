import Foundation
import LMGGUF
import LMTokenizer
import TestSupport
import Testing

/// Timings, printed; run with `LMSESSION_BENCH=1 swift test -c release --filter TokenizerBenchmark`.
@Suite("Tokenizer benchmark", .serialized, .enabled(if: ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"))
struct TokenizerBenchmarkTests {
    static func ms(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
    }

    @Test("Vocabulary load and 35 KB encode/decode times", arguments: [TestModels.smolLM2, TestModels.gemma3].map(\.file))
    func timesLoadingAndEncoding(_ file: String) throws {
        let clock = ContinuousClock()
        let name = file == TestModels.smolLM2.file ? TestModels.smolLM2 : TestModels.gemma3
        let path = try TestModels.path(name)
        var gguf: GGUFFile?
        let parse = try clock.measure { gguf = try GGUFFile(path: path) }
        let model = try #require(gguf)
        var built: Tokenizer?
        let load = try clock.measure { built = try Tokenizer(gguf: model) }
        let tokenizer = try #require(built)
        let text = try RealModels.perplexityText()
        var ids: [Int] = []
        let cold = clock.measure { ids = tokenizer.encode(text) }
        var warm = Duration.zero
        for _ in 0..<5 { warm += clock.measure { ids = tokenizer.encode(text) } }
        var decoded = ""
        let decode = clock.measure { decoded = tokenizer.decode(ids) }
        #expect(decoded.count > 30_000)
        print(String(format: "%@: GGUF parse %.1f ms, vocabulary load %.1f ms, encode %d bytes -> %d tokens %.2f ms (cold) %.2f ms (warm), decode %.2f ms",
                     file, Self.ms(parse), Self.ms(load), text.utf8.count, ids.count, Self.ms(cold), Self.ms(warm) / 5, Self.ms(decode)))
    }
}
