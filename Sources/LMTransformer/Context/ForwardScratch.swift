/// Activation buffers for one forward pass over up to `maxBatch` tokens, allocated once per
/// context. Shapes are outermost-first.
final class ForwardScratch {
    let maxBatch: Int
    /// Residual stream `[maxBatch, nEmbd]`.
    let x: UnsafeMutablePointer<Float>
    /// Normalised input of the current block `[maxBatch, nEmbd]`.
    let xn: UnsafeMutablePointer<Float>
    /// Block output before the residual add `[maxBatch, nEmbd]`.
    let blockOut: UnsafeMutablePointer<Float>
    /// Queries `[maxBatch, nHead * headDim]`.
    let q: UnsafeMutablePointer<Float>
    /// Keys and values of the new tokens `[maxBatch, nKVHead * headDim]`.
    let k: UnsafeMutablePointer<Float>
    let v: UnsafeMutablePointer<Float>
    /// Attention output `[maxBatch, nHead * headDim]`.
    let attnOut: UnsafeMutablePointer<Float>
    /// Feed-forward gate and up projections `[maxBatch, nFF]`.
    let gate: UnsafeMutablePointer<Float>
    let up: UnsafeMutablePointer<Float>
    /// Attention scratch (``Attention/scratchCount(threads:)`` floats), independent of the context size.
    let scores: UnsafeMutablePointer<Float>
    /// RoPE tables for global and local layers `[maxBatch, ropeDim / 2]` each.
    let cosGlobal: UnsafeMutablePointer<Float>, sinGlobal: UnsafeMutablePointer<Float>
    let cosLocal: UnsafeMutablePointer<Float>, sinLocal: UnsafeMutablePointer<Float>
    /// Logits `[logitRows, vocabSize]`.
    let logits: UnsafeMutablePointer<Float>
    let logitRows: Int

    private var owned: [UnsafeMutablePointer<Float>] = []

    init(config c: ModelConfig, maxBatch: Int, contextSize: Int, threads: Int, logitRows: Int) {
        func alloc(_ n: Int) -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(n, 1))
            p.initialize(repeating: 0, count: max(n, 1))
            return p
        }
        self.maxBatch = maxBatch
        self.logitRows = logitRows
        let qSize = c.nHead * c.headDim, kvSize = c.nKVHead * c.headDim, half = c.ropeDim / 2
        x = alloc(maxBatch * c.nEmbd)
        xn = alloc(maxBatch * max(c.nEmbd, qSize))
        blockOut = alloc(maxBatch * c.nEmbd)
        q = alloc(maxBatch * qSize)
        k = alloc(maxBatch * kvSize)
        v = alloc(maxBatch * kvSize)
        attnOut = alloc(maxBatch * qSize)
        gate = alloc(maxBatch * c.nFF)
        up = alloc(maxBatch * c.nFF)
        scores = alloc(Attention.scratchCount(nHead: c.nHead, nKVHead: c.nKVHead, headDim: c.headDim, threads: threads))
        cosGlobal = alloc(maxBatch * half); sinGlobal = alloc(maxBatch * half)
        cosLocal = alloc(maxBatch * half); sinLocal = alloc(maxBatch * half)
        // Logits are left uninitialised (Float is trivial; every row is written before it is read):
        // zeroing [64, vocab] touched 12 MB (SmolLM2) / 67 MB (Gemma 3) at load that generation,
        // which reads one row, never needs.
        logits = .allocate(capacity: max(logitRows * c.vocabSize, 1))
        owned = [x, xn, blockOut, q, k, v, attnOut, gate, up, scores, cosGlobal, sinGlobal, cosLocal, sinLocal, logits]
    }

    deinit { for p in owned { p.deallocate() } }
}
