import LMKernels

/// Multi-head attention in which every token attends to every token (a ViT's, non-causal), as a pool job over
/// ranges of tokens: each range runs the kernel set's ``FullAttentionKernel`` with eight rows of `[nTokens]`
/// scores of its own (Gemma 3's 4,096 patches would need 64 MB for all rows).
struct FullAttention: ParallelRangeJob {
    let work: FullAttentionWork
    let kernels: VectorKernels

    /// Writes `k` `[nTokens, nHead * headDim]` as `[nHead, headDim, nTokens]` into `kT` (``FullAttentionWork``'s keys).
    static func transposeKeys(_ k: UnsafePointer<Float>, into kT: UnsafeMutablePointer<Float>, nTokens: Int, nHead: Int, headDim: Int) {
        let width = nHead * headDim
        for t in 0..<nTokens {
            for c in 0..<width { kT[c * nTokens + t] = k[t * width + c] }
        }
    }

    /// Writes `v` `[nTokens, nHead * headDim]` as `[nHead, nTokens, headDim]` into `byHead` (``FullAttentionWork``'s values).
    static func groupValues(_ v: UnsafePointer<Float>, into byHead: UnsafeMutablePointer<Float>, nTokens: Int, nHead: Int, headDim: Int) {
        let width = nHead * headDim
        for t in 0..<nTokens {
            for h in 0..<nHead {
                (byHead + (h * nTokens + t) * headDim).update(from: v + t * width + h * headDim, count: headDim)
            }
        }
    }

    func run(_ range: Range<Int>) {
        let scores = UnsafeMutablePointer<Float>.allocate(capacity: work.scoresCount)
        defer { scores.deallocate() }
        kernels.attendAll(work, range, scores)
    }
}
