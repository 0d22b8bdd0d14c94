import Foundation
import LMGGUF
import LMTransformer
import Testing
import TestSupport

/// Rows given as embeddings (a vision model's image tokens, `InferenceContext.evaluate(embeddings:ids:)`) go
/// through the same layers as looked-up tokens: a token's own embedding row given as input gives that token's
/// logits, at any place in the sequence, and the rows' ids take part in prefix reuse like token ids. Rows evaluated
/// `bidirectional` (Gemma 3's image rows) attend to each other in full.
@Suite("Embedding rows as input")
struct EmbeddingInputTests {
    /// TestSupport's tiny vision text model: llama, F32 weights, no embedding scale.
    static let path: String = (try? TinyVisionModel.write()) ?? ""

    /// Rows `tokens` of `token_embd.weight`, `[tokens.count, nEmbd]`, read from the file.
    static func embeddingRows(_ tokens: [Int]) throws -> [Float] {
        let file = try GGUFFile(path: path)
        let info = try #require(file.tensor(named: "token_embd.weight"))
        let n = TinyVisionModel.nEmbd
        let base = file.data(for: info).assumingMemoryBound(to: Float.self)
        return tokens.flatMap { t in (0..<n).map { base[t * n + $0] } }
    }

    static let prefix = [256, 258] + Array("user\nHello".utf8).map(Int.init)
    static let middle = Array(" there, ".utf8).map(Int.init)
    static let suffix = Array("world!".utf8).map(Int.init)

    @Test func `a sequence with some rows given as embeddings has the logits of the same tokens`() throws {
        let model = try TransformerModel(path: Self.path)
        let byTokens = try InferenceContext(model: model, contextSize: 128, threads: 2)
        let expected = Array(try byTokens.evaluate(Self.prefix + Self.middle + Self.suffix))
        let mixed = try InferenceContext(model: model, contextSize: 128, threads: 2)
        try mixed.evaluate(Self.prefix)
        let ids = Self.middle.indices.map { -1 - $0 }
        try mixed.evaluate(embeddings: try Self.embeddingRows(Self.middle), ids: ids)
        let got = Array(try mixed.evaluate(Self.suffix))
        let maxDiff = zip(got, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(maxDiff <= 1e-4, "max |difference| \(maxDiff)")
        #expect(mixed.tokens == Self.prefix + ids + Self.suffix)
    }

    @Test func `the logits after embedding rows are those after the same tokens`() throws {
        let model = try TransformerModel(path: Self.path)
        let byTokens = try InferenceContext(model: model, contextSize: 128, threads: 2)
        let expected = Array(try byTokens.evaluate(Self.prefix + Self.middle))
        let mixed = try InferenceContext(model: model, contextSize: 128, threads: 2)
        try mixed.evaluate(Self.prefix)
        let got = Array(try mixed.evaluate(embeddings: try Self.embeddingRows(Self.middle), ids: Self.middle.indices.map { -1 - $0 }))
        let maxDiff = zip(got, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(got.count == expected.count && maxDiff <= 1e-4, "max |difference| \(maxDiff)")
    }

    @Test func `a later prompt with the same ids reuses the rows, and other ids do not`() throws {
        let model = try TransformerModel(path: Self.path)
        let context = try InferenceContext(model: model, contextSize: 128, threads: 2)
        try context.evaluate(Self.prefix)
        try context.evaluate(embeddings: try Self.embeddingRows([65, 66]), ids: [-7, -8])
        #expect(context.commonPrefixLength(with: Self.prefix + [-7, -8, 10]) == Self.prefix.count + 2)
        #expect(context.commonPrefixLength(with: Self.prefix + [-9, -8]) == Self.prefix.count)
    }

    @Test func `rows that attend to each other in full change the logits of what follows`() throws {
        let model = try TransformerModel(path: Self.path)
        func after(bidirectional: Bool) throws -> [Float] {
            let context = try InferenceContext(model: model, contextSize: 128, threads: 2)
            try context.evaluate(Self.prefix)
            try context.evaluate(embeddings: try Self.embeddingRows(Self.middle), ids: Self.middle.indices.map { -1 - $0 },
                                 bidirectional: bidirectional)
            return Array(try context.evaluate(Self.suffix))
        }
        let causal = try after(bidirectional: false), full = try after(bidirectional: true)
        let difference = zip(causal, full).map { abs($0 - $1) }.max() ?? 0
        #expect(difference > 0.01, "the text after the rows does not depend on how they attended: \(difference)")
    }

    @Test func `bidirectional rows that do not fit one pass are refused and leave the cache as it was`() throws {
        let model = try TransformerModel(path: Self.path)
        let n = TinyVisionModel.nEmbd, count = ForwardEngine.maxBatch + 1
        let context = try InferenceContext(model: model, contextSize: 1024, threads: 2)
        try context.evaluate([256, 65])
        #expect(throws: InferenceError.bidirectionalSpanTooLong(count: count, limit: ForwardEngine.maxBatch)) {
            try context.evaluate(embeddings: [Float](repeating: 0.1, count: count * n), ids: (1...count).map { -$0 }, bidirectional: true)
        }
        #expect(context.tokens == [256, 65])
    }

    @Test func `bad embedding input is refused and leaves the cache as it was`() throws {
        let model = try TransformerModel(path: Self.path)
        let context = try InferenceContext(model: model, contextSize: 16, threads: 2)
        try context.evaluate([256, 65])
        let n = TinyVisionModel.nEmbd
        #expect(throws: InferenceError.embeddingShape(expected: 2 * n, found: n)) {
            try context.evaluate(embeddings: [Float](repeating: 0, count: n), ids: [-1, -2])
        }
        #expect(throws: InferenceError.invalidToken(3)) {
            try context.evaluate(embeddings: [Float](repeating: 0, count: 2 * n), ids: [-1, 3])
        }
        #expect(throws: InferenceError.contextFull(needed: 15, available: 14)) {
            try context.evaluate(embeddings: [Float](repeating: 0, count: 15 * n), ids: (1...15).map { -$0 })
        }
        #expect(context.tokens == [256, 65])
    }
}
