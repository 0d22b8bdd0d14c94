/// The attention half of a decoder layer: Q/K/V projections, optional normalisation of queries
/// and keys (per head or over the whole projection), RoPE, KV-cache store, GQA attention, output
/// projection.
struct AttentionBlock: Sendable {
    /// Which RoPE table a layer rotates with.
    enum RoPETable: Sendable { case none, global, local }

    /// A query or key norm and the rows it sees per token (heads for per-head norms, 1 for whole).
    struct HeadNorm: Sendable {
        let norm: Norm
        let rowsPerToken: Int
    }

    let wq: Linear, wk: Linear, wv: Linear, wo: Linear
    let qNorm: HeadNorm?, kNorm: HeadNorm?
    let rope: RoPETable
    let pairing: RoPE.Pairing
    let ropeDim: Int
    let attention: Attention

    /// Reads `s.xn` (`[nTokens, nEmbd]`), writes `s.blockOut` (`[nTokens, nEmbd]`). The projections
    /// run over all rows at once; keys and values are stored, and attention runs, per sequence.
    func callAsFunction(nRows nTokens: Int, _ sequences: [SequenceRows], layer: Int, _ s: ForwardScratch, _ compute: ComputeResources) {
        let a = attention
        Linear.project(s.xn, nTokens: nTokens, wq, into: s.q, wk, into: s.k, wv, into: s.v, compute)
        if let qNorm { qNorm.norm(s.q, rows: nTokens * qNorm.rowsPerToken, into: s.q) }
        if let kNorm { kNorm.norm(s.k, rows: nTokens * kNorm.rowsPerToken, into: s.k) }
        if rope != .none {
            let half = ropeDim / 2
            let cos = rope == .local ? s.cosLocal : s.cosGlobal, sin = rope == .local ? s.sinLocal : s.sinGlobal
            for t in 0..<nTokens {
                RoPE.apply(pairing, ropeDim: ropeDim, s.q + t * a.nHead * a.headDim, nHeads: a.nHead, headDim: a.headDim,
                           cos: cos + t * half, sin: sin + t * half)
                RoPE.apply(pairing, ropeDim: ropeDim, s.k + t * a.nKVHead * a.headDim, nHeads: a.nKVHead, headDim: a.headDim,
                           cos: cos + t * half, sin: sin + t * half)
            }
        }
        let qSize = a.nHead * a.headDim, kvSize = a.nKVHead * a.headDim
        for q in sequences {
            q.cache.store(layer: layer, position: q.firstPosition, nTokens: q.count, k: s.k + q.firstRow * kvSize,
                          v: s.v + q.firstRow * kvSize, halves: compute.vector)
            a(q: s.q + q.firstRow * qSize, nTokens: q.count, firstPosition: q.firstPosition, bidirectional: q.bidirectionalPositions,
              layer: layer, cache: q.cache,
              out: s.attnOut + q.firstRow * qSize, scores: s.scores, compute)
        }
        wo(s.attnOut, nTokens: nTokens, into: s.blockOut, compute)
    }
}
