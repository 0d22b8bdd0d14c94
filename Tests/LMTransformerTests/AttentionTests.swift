import Testing
import LMKernels
import LMTransformer
import TestSupport

/// The tiled f16-cache attention (GQA groups, token chunks, position splits, sliding window, a bidirectional
/// span) against ``Attention/reference(q:nTokens:firstPosition:bidirectional:layer:cache:out:)``, on random keys,
/// values and queries.
@Suite("Attention over the f16 KV cache matches the reference")
struct AttentionTests {
    struct Case: CustomStringConvertible, Sendable {
        let nHead: Int, nKVHead: Int, headDim: Int
        let nTokens: Int, firstPosition: Int
        let window: Int?
        let threads: Int
        /// Gemma 2's `tanh` cap of the scores; 0: none.
        var softcap: Float = 0
        /// Positions attended in full (Gemma 3's image rows); empty: causal.
        var bidirectional: Range<Int> = 0..<0
        var description: String {
            "\(nHead)/\(nKVHead) heads of \(headDim), \(nTokens) tokens at \(firstPosition), window \(window.map(String.init) ?? "none"), \(threads) threads"
                + (softcap == 0 ? "" : ", soft-cap \(softcap)") + (bidirectional.isEmpty ? "" : ", bidirectional \(bidirectional)")
        }
    }

    static let cases = [
        // SmolLM2's shape: decode split across 2 and 3 threads, a short decode, a prefill batch.
        Case(nHead: 9, nKVHead: 3, headDim: 64, nTokens: 1, firstPosition: 300, window: nil, threads: 2),
        Case(nHead: 9, nKVHead: 3, headDim: 64, nTokens: 1, firstPosition: 700, window: nil, threads: 3),
        Case(nHead: 9, nKVHead: 3, headDim: 64, nTokens: 1, firstPosition: 6, window: nil, threads: 2),
        Case(nHead: 9, nKVHead: 3, headDim: 64, nTokens: 40, firstPosition: 0, window: nil, threads: 2),
        Case(nHead: 9, nKVHead: 3, headDim: 64, nTokens: 64, firstPosition: 77, window: nil, threads: 1),
        // Gemma 3's shape, with its 512-position sliding window and a short one.
        Case(nHead: 4, nKVHead: 1, headDim: 256, nTokens: 1, firstPosition: 600, window: 512, threads: 2),
        Case(nHead: 4, nKVHead: 1, headDim: 256, nTokens: 30, firstPosition: 50, window: 20, threads: 2),
        Case(nHead: 4, nKVHead: 1, headDim: 256, nTokens: 9, firstPosition: 3, window: nil, threads: 2),
        // A head size with scalar tails, and one large group (one token per unit).
        Case(nHead: 2, nKVHead: 2, headDim: 20, nTokens: 5, firstPosition: 13, window: nil, threads: 2),
        Case(nHead: 16, nKVHead: 1, headDim: 32, nTokens: 3, firstPosition: 150, window: 100, threads: 2),
        // Gemma 2's soft-capped scores: a cap that bites, in decode (split) and prefill, with a window.
        Case(nHead: 8, nKVHead: 4, headDim: 32, nTokens: 1, firstPosition: 300, window: nil, threads: 2, softcap: 1.5),
        Case(nHead: 8, nKVHead: 4, headDim: 32, nTokens: 20, firstPosition: 40, window: 16, threads: 2, softcap: 1.5),
        // Gemma 3's image rows attend to each other: 256 rows after text (4 chunks of tokens), a span cut by the
        // window, one chunk whose positions are split across threads, and image rows between text rows.
        Case(nHead: 4, nKVHead: 1, headDim: 256, nTokens: 256, firstPosition: 10, window: 512, threads: 2, bidirectional: 10..<266),
        Case(nHead: 4, nKVHead: 1, headDim: 32, nTokens: 12, firstPosition: 7, window: 8, threads: 2, bidirectional: 7..<19),
        Case(nHead: 2, nKVHead: 2, headDim: 20, nTokens: 5, firstPosition: 13, window: nil, threads: 2, bidirectional: 13..<18),
        Case(nHead: 8, nKVHead: 2, headDim: 32, nTokens: 24, firstPosition: 3, window: nil, threads: 2, bidirectional: 9..<20),
    ]

    @Test("the tiled attention equals the reference within float rounding", arguments: cases)
    func tiledMatchesReference(_ c: Case) {
        let attention = Attention(nHead: c.nHead, nKVHead: c.nKVHead, headDim: c.headDim, scale: 0.6, window: c.window,
                                  softcap: c.softcap)
        let positions = c.firstPosition + c.nTokens
        let kvSize = c.nKVHead * c.headDim, qSize = c.nHead * c.headDim
        let cache = KVCache(nLayer: 2, contextSize: positions + 5, nKVHead: c.nKVHead, headDim: c.headDim)
        var random = SplitMix64(seed: UInt64(c.headDim * 1000 + c.firstPosition))
        func values(_ n: Int) -> [Float] { (0..<n).map { _ in Float(random.nextUnit() * 2 - 1) } }
        for layer in 0..<2 {
            let k = values(positions * kvSize), v = values(positions * kvSize)
            cache.store(layer: layer, position: 0, nTokens: positions, k: k, v: v)
        }
        let q = values(c.nTokens * qSize)
        var reference = [Float](repeating: .nan, count: c.nTokens * qSize)
        attention.reference(q: q, nTokens: c.nTokens, firstPosition: c.firstPosition, bidirectional: c.bidirectional, layer: 1,
                            cache: cache, out: &reference)
        #expect(reference.contains { abs($0) > 0.05 })
        if !c.bidirectional.isEmpty {
            var causal = [Float](repeating: .nan, count: c.nTokens * qSize)
            attention.reference(q: q, nTokens: c.nTokens, firstPosition: c.firstPosition, layer: 1, cache: cache, out: &causal)
            #expect(zip(causal, reference).contains { abs($0 - $1) > 0.01 }, "the span changes nothing")
        }
        // Every kernel set this CPU runs (portable: separate multiply and add; AVX2: fused).
        for kernels in KernelSet.supported {
            var fast = [Float](repeating: .nan, count: c.nTokens * qSize)
            var scratch = [Float](repeating: 0, count: attention.scratchCount(threads: c.threads))
            attention.serial(q: q, nTokens: c.nTokens, firstPosition: c.firstPosition, bidirectional: c.bidirectional, layer: 1, cache: cache,
                             out: &fast, scratch: &scratch, threads: c.threads, kernels: kernels)
            var maxError: Float = 0
            for i in fast.indices { maxError = max(maxError, abs(fast[i] - reference[i])) }
            // Four queries share key loads with one sum per score and key block pair (256 terms
            // in a chain for Gemma's heads): rounding reaches ~2.2e-6 there.
            #expect(maxError < 4e-6, "\(kernels): max |fast - reference| = \(maxError)")
            #expect(!fast.contains { $0.isNaN })
        }
    }
}
