/// The attention half of a decoder layer: Q/K/V projections, optional per-head RMSNorm of queries
/// and keys (Qwen3, Gemma 3), RoPE, KV-cache store, GQA attention, output projection.
struct AttentionBlock: Sendable {
    let wq: Linear, wk: Linear, wv: Linear, wo: Linear
    let qNorm: RMSNorm?, kNorm: RMSNorm?
    let rope: RoPE
    let attention: Attention
    /// Whether this layer uses the local (sliding-window) RoPE table.
    let isLocal: Bool

    /// Reads `s.xn` (`[nTokens, nEmbd]`), writes `s.blockOut` (`[nTokens, nEmbd]`).
    func callAsFunction(nTokens: Int, firstPosition: Int, layer: Int, _ s: ForwardScratch, _ cache: KVCache, _ compute: ComputeResources) {
        let a = attention
        Linear.project(s.xn, nTokens: nTokens, wq, into: s.q, wk, into: s.k, wv, into: s.v, compute)
        if let qNorm { qNorm(s.q, nTokens: nTokens * a.nHead, into: s.q) }
        if let kNorm { kNorm(s.k, nTokens: nTokens * a.nKVHead, into: s.k) }
        let half = rope.ropeDim / 2
        let cos = isLocal ? s.cosLocal : s.cosGlobal, sin = isLocal ? s.sinLocal : s.sinGlobal
        for t in 0..<nTokens {
            rope.apply(s.q + t * a.nHead * a.headDim, nHeads: a.nHead, headDim: a.headDim, cos: cos + t * half, sin: sin + t * half)
            rope.apply(s.k + t * a.nKVHead * a.headDim, nHeads: a.nKVHead, headDim: a.headDim, cos: cos + t * half, sin: sin + t * half)
        }
        cache.store(layer: layer, position: firstPosition, nTokens: nTokens, k: s.k, v: s.v)
        a(q: s.q, nTokens: nTokens, firstPosition: firstPosition, layer: layer, cache: cache, out: s.attnOut, scores: s.scores, compute)
        wo(s.attnOut, nTokens: nTokens, into: s.blockOut, compute)
    }
}
