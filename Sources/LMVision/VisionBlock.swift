import LMKernels

/// One pre-LN ViT block (SigLIP's encoder layer):
/// `x += attn_out(attention(ln1(x)))`, then `x += ffn_down(act(ffn_up(ln2(x))))`.
struct VisionBlock: Sendable {
    let ln1: LayerNorm, ln2: LayerNorm
    let q: VisionLinear, k: VisionLinear, v: VisionLinear, o: VisionLinear
    let up: VisionLinear, down: VisionLinear
    let nHead: Int, headDim: Int, nFF: Int
    let activation: VisionActivation

    init(_ t: VisionTensors, layer i: Int, _ hp: VisionHyperparameters) throws(VisionLoadError) {
        let p = "v.blk.\(i)", n = hp.nEmbd
        ln1 = try t.layerNorm(p + ".ln1", n: n, eps: hp.layerNormEps)
        ln2 = try t.layerNorm(p + ".ln2", n: n, eps: hp.layerNormEps)
        q = try t.linear(p + ".attn_q", rows: n, cols: n)
        k = try t.linear(p + ".attn_k", rows: n, cols: n)
        v = try t.linear(p + ".attn_v", rows: n, cols: n)
        o = try t.linear(p + ".attn_out", rows: n, cols: n)
        up = try t.linear(p + ".ffn_up", rows: hp.nFF, cols: n)
        down = try t.linear(p + ".ffn_down", rows: n, cols: hp.nFF)
        (nHead, headDim, nFF, activation) = (hp.nHead, hp.headDim, hp.nFF, hp.activation)
    }

    /// Activations of one block, allocated once per image.
    struct Scratch {
        var h, q, k, kT, v, attn: [Float]
        var ff: [Float]
        init(nTokens T: Int, _ hp: VisionHyperparameters) {
            let n = T * hp.nEmbd
            (h, q, k, kT, v, attn) = ([Float](repeating: 0, count: n), [Float](repeating: 0, count: n), [Float](repeating: 0, count: n),
                                      [Float](repeating: 0, count: n), [Float](repeating: 0, count: n), [Float](repeating: 0, count: n))
            ff = [Float](repeating: 0, count: T * hp.nFF)
        }
    }

    /// Runs the block on `x` `[nTokens, nEmbd]` in place.
    func callAsFunction(_ x: UnsafeMutablePointer<Float>, nTokens T: Int, work: inout Scratch,
                        scratch: QuantizedActivations, pool: ThreadPool) {
        let n = nHead * headDim
        work.h.withUnsafeMutableBufferPointer { hb in
            let h = hb.baseAddress!
            ln1(x, rows: T, into: h)
            work.q.withUnsafeMutableBufferPointer { qb in
            work.k.withUnsafeMutableBufferPointer { kb in
            work.kT.withUnsafeMutableBufferPointer { ktb in
            work.v.withUnsafeMutableBufferPointer { vb in
            work.attn.withUnsafeMutableBufferPointer { ab in
                q(h, nTokens: T, into: qb.baseAddress!, scratch: scratch, pool: pool)
                k(h, nTokens: T, into: kb.baseAddress!, scratch: scratch, pool: pool)
                v(h, nTokens: T, into: vb.baseAddress!, scratch: scratch, pool: pool)
                FullAttention.transposeKeys(kb.baseAddress!, into: ktb.baseAddress!, nTokens: T, nHead: nHead, headDim: headDim)
                // The keys' buffer is free once transposed: it takes the values grouped by head.
                FullAttention.groupValues(vb.baseAddress!, into: kb.baseAddress!, nTokens: T, nHead: nHead, headDim: headDim)
                let work = FullAttentionWork(q: qb.baseAddress!, kT: ktb.baseAddress!, v: kb.baseAddress!, out: ab.baseAddress!,
                                             nTokens: T, nHead: nHead, headDim: headDim)
                pool.parallelFor(0..<T, alignment: 8, job: FullAttention(work: work, kernels: KernelSet.active.vectorKernels))
                o(ab.baseAddress!, nTokens: T, into: h, scratch: scratch, pool: pool)
            }}}}}
            for i in 0..<(T * n) { x[i] += h[i] }
            ln2(x, rows: T, into: h)
            work.ff.withUnsafeMutableBufferPointer { fb in
                let f = fb.baseAddress!
                up(h, nTokens: T, into: f, scratch: scratch, pool: pool)
                activation.apply(f, count: T * nFF)
                down(f, nTokens: T, into: h, scratch: scratch, pool: pool)
            }
            for i in 0..<(T * n) { x[i] += h[i] }
        }
    }
}
