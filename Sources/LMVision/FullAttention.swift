import LMKernels

/// Multi-head attention in which every token attends to every token (a ViT's, non-causal):
/// `out_h = softmax(Q_h K_hᵀ · scale) V_h` for each head, in Float with the softmax's sums in Double.
///
/// `q`, `k`, `v` and `out` are `[nTokens, nHead * headDim]`. Tokens are split across the pool; each range
/// of tokens keeps one row of `[nTokens]` scores (Gemma 3's 4,096 patches would need 64 MB for all rows).
struct FullAttention: ParallelRangeJob {
    let q: UnsafePointer<Float>, k: UnsafePointer<Float>, v: UnsafePointer<Float>
    let out: UnsafeMutablePointer<Float>
    let nTokens: Int, nHead: Int, headDim: Int

    func run(_ range: Range<Int>) {
        let width = nHead * headDim
        let scale = 1 / Float(headDim).squareRoot()
        let s = UnsafeMutablePointer<Float>.allocate(capacity: nTokens)
        defer { s.deallocate() }
        for t in range {
            for h in 0..<nHead {
                let qh = q + t * width + h * headDim
                var maxScore = -Float.infinity
                for j in 0..<nTokens {
                    let kh = k + j * width + h * headDim
                    var dot: Float = 0
                    for d in 0..<headDim { dot += qh[d] * kh[d] }
                    s[j] = dot * scale
                    maxScore = max(maxScore, s[j])
                }
                var sum = 0.0
                for j in 0..<nTokens {
                    s[j] = expf(s[j] - maxScore)
                    sum += Double(s[j])
                }
                let inv = Float(1 / sum)
                let o = out + t * width + h * headDim
                for d in 0..<headDim { o[d] = 0 }
                for j in 0..<nTokens {
                    let p = s[j] * inv, vh = v + j * width + h * headDim
                    for d in 0..<headDim { o[d] += p * vh[d] }
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
