import LMKernels

/// Causal grouped-query attention (GQA: `nHead` query heads share `nKVHead` key/value heads) over
/// the KV cache, optionally restricted to a sliding window.
struct Attention: Sendable {
    let nHead: Int
    let nKVHead: Int
    let headDim: Int
    let scale: Float
    /// Keys at distance `window` or more behind the query are masked (`nil`: all earlier keys).
    let window: Int?

    /// For `nTokens` queries at positions `firstPosition...` (`q`: `[nTokens, nHead * headDim]`),
    /// attends over cached positions `0...position` of `layer` and writes `out`
    /// (`[nTokens, nHead * headDim]`). `scores` is scratch of `[threads, contextSize]`.
    func callAsFunction(q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, layer: Int, cache: KVCache,
                        out: UnsafeMutablePointer<Float>, scores: UnsafeMutablePointer<Float>, _ compute: ComputeResources) {
        let group = nHead / nKVHead
        let rowSize = nHead * headDim
        let contextSize = cache.contextSize
        let units = nTokens * nHead
        compute.parallel(units) { range, thread in
            let s = scores + thread * contextSize
            for unit in range {
                let t = unit / nHead, h = unit % nHead
                let pos = firstPosition + t
                let start = window.map { max(0, pos - $0 + 1) } ?? 0
                let qh = q + t * rowSize + h * headDim
                let kvOffset = (h / group) * headDim
                for j in start...pos {
                    s[j - start] = VectorMath.dot(qh, cache.key(layer, j) + kvOffset, headDim) * scale
                }
                let n = pos - start + 1
                VectorMath.softmax(s, n)
                let o = out + t * rowSize + h * headDim
                o.initialize(repeating: 0, count: headDim)
                for j in start...pos {
                    VectorMath.axpy(s[j - start], cache.value(layer, j) + kvOffset, o, headDim)
                }
            }
        }
    }
}
