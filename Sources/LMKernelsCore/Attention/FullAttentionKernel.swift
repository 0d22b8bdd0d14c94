#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tensors of one non-causal multi-head attention (a ViT's): every token attends to every token.
/// `q` and `out` are `[nTokens, nHead * headDim]`; `kT` holds the keys transposed per head,
/// `[nHead, headDim, nTokens]`, so 8 keys' scores come from one vector multiply-add per dimension with no
/// horizontal sums; `v` holds the values by head, `[nHead, nTokens, headDim]`, so a head's sweep is contiguous. `scores` is `FullAttentionKernel.queriesPerPass * nTokens` Floats per thread of work.
public struct FullAttentionWork: @unchecked Sendable {  // pointers owned by the caller for the call
    public let q: UnsafePointer<Float>, kT: UnsafePointer<Float>, v: UnsafePointer<Float>
    public let out: UnsafeMutablePointer<Float>
    public let nTokens: Int, nHead: Int, headDim: Int

    public init(q: UnsafePointer<Float>, kT: UnsafePointer<Float>, v: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>,
                nTokens: Int, nHead: Int, headDim: Int) {
        (self.q, self.kT, self.v, self.out) = (q, kT, v, out)
        (self.nTokens, self.nHead, self.headDim) = (nTokens, nHead, headDim)
    }
}

/// `out_h = softmax(Q_h K_hᵀ / √headDim) V_h` for each head, in Float with the softmax's sums in Double, queries
/// four at a time so each key and value load serves four of them. `@inlinable` so that each kernel module
/// compiles it with its own multiply-add `M` (FMA in the AVX2 module).
public enum FullAttentionKernel<M: MultiplyAdd> {
    /// Queries computed together.
    public static var queriesPerPass: Int { 8 }

    /// The output rows of tokens `range`, with `scores` (`queriesPerPass * work.nTokens` Floats) as workspace.
    @inlinable
    public static func attend(_ work: FullAttentionWork, tokens range: Range<Int>, scores: UnsafeMutablePointer<Float>) {
        let scale = 1 / Float(work.headDim).squareRoot()
        var t0 = range.lowerBound
        while t0 < range.upperBound {
            let count = min(queriesPerPass, range.upperBound - t0)
            for h in 0..<work.nHead {
                score(work, t0, count, h, scale, scores)
                for i in 0..<count { softmax(scores + i * work.nTokens, work.nTokens) }
                weightValues(work, t0, count, h, scores)
            }
            t0 += count
        }
    }

    /// `scores[i, j] = q[t0 + i] · k[j] · scale` for head `h`, for `count` (at most 8) queries.
    @inlinable @inline(__always)
    static func score(_ w: FullAttentionWork, _ t0: Int, _ count: Int, _ h: Int, _ scale: Float, _ scores: UnsafeMutablePointer<Float>) {
        let width = w.nHead * w.headDim, T = w.nTokens, headDim = w.headDim
        // Queries past `count` repeat the last one; their scores are not kept.
        func row(_ i: Int) -> UnsafePointer<Float> { w.q + (t0 + min(i, count - 1)) * width + h * headDim }
        let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3), r4 = row(4), r5 = row(5), r6 = row(6), r7 = row(7)
        let keys = w.kT + h * headDim * T
        var j = 0
        while j + 8 <= T {
            var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
            var a4 = SIMD8<Float>(), a5 = SIMD8<Float>(), a6 = SIMD8<Float>(), a7 = SIMD8<Float>()
            for d in 0..<headDim {
                let k8 = UnsafeRawPointer(keys + d * T + j).loadUnaligned(as: SIMD8<Float>.self)
                a0 = M.madd(a0, SIMD8(repeating: r0[d]), k8)
                a1 = M.madd(a1, SIMD8(repeating: r1[d]), k8)
                a2 = M.madd(a2, SIMD8(repeating: r2[d]), k8)
                a3 = M.madd(a3, SIMD8(repeating: r3[d]), k8)
                a4 = M.madd(a4, SIMD8(repeating: r4[d]), k8)
                a5 = M.madd(a5, SIMD8(repeating: r5[d]), k8)
                a6 = M.madd(a6, SIMD8(repeating: r6[d]), k8)
                a7 = M.madd(a7, SIMD8(repeating: r7[d]), k8)
            }
            for (i, a) in [a0, a1, a2, a3, a4, a5, a6, a7].prefix(count).enumerated() {
                UnsafeMutableRawPointer(scores + i * T + j).storeBytes(of: a * scale, as: SIMD8<Float>.self)
            }
            j += 8
        }
        while j < T {
            for i in 0..<count {
                let r = row(i)
                var dot: Float = 0
                for d in 0..<headDim { dot += r[d] * keys[d * T + j] }
                scores[i * T + j] = dot * scale
            }
            j += 1
        }
    }

    /// Turns one row of `n` scores into probabilities in place.
    @inlinable @inline(__always)
    static func softmax(_ s: UnsafeMutablePointer<Float>, _ n: Int) {
        var maxScore = -Float.infinity
        for j in 0..<n { maxScore = max(maxScore, s[j]) }
        var sum = 0.0
        for j in 0..<n {
            s[j] = expf(s[j] - maxScore)
            sum += Double(s[j])
        }
        let inv = Float(1 / sum)
        for j in 0..<n { s[j] *= inv }
    }

    /// `out[t0 + i, head h] = Σ_j p[i, j] · v[j, head h]`, 8 dimensions at a time for eight queries.
    @inlinable @inline(__always)
    static func weightValues(_ w: FullAttentionWork, _ t0: Int, _ count: Int, _ h: Int, _ p: UnsafeMutablePointer<Float>) {
        let width = w.nHead * w.headDim, T = w.nTokens, headDim = w.headDim
        let values = w.v + h * T * headDim
        func probabilities(_ i: Int) -> UnsafePointer<Float> { UnsafePointer(p + min(i, count - 1) * T) }
        let p0 = probabilities(0), p1 = probabilities(1), p2 = probabilities(2), p3 = probabilities(3)
        let p4 = probabilities(4), p5 = probabilities(5), p6 = probabilities(6), p7 = probabilities(7)
        var d = 0
        while d + 8 <= headDim {
            var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
            var a4 = SIMD8<Float>(), a5 = SIMD8<Float>(), a6 = SIMD8<Float>(), a7 = SIMD8<Float>()
            for j in 0..<T {
                let v8 = UnsafeRawPointer(values + j * headDim + d).loadUnaligned(as: SIMD8<Float>.self)
                a0 = M.madd(a0, SIMD8(repeating: p0[j]), v8)
                a1 = M.madd(a1, SIMD8(repeating: p1[j]), v8)
                a2 = M.madd(a2, SIMD8(repeating: p2[j]), v8)
                a3 = M.madd(a3, SIMD8(repeating: p3[j]), v8)
                a4 = M.madd(a4, SIMD8(repeating: p4[j]), v8)
                a5 = M.madd(a5, SIMD8(repeating: p5[j]), v8)
                a6 = M.madd(a6, SIMD8(repeating: p6[j]), v8)
                a7 = M.madd(a7, SIMD8(repeating: p7[j]), v8)
            }
            for (i, a) in [a0, a1, a2, a3, a4, a5, a6, a7].prefix(count).enumerated() {
                UnsafeMutableRawPointer(w.out + (t0 + i) * width + h * headDim + d).storeBytes(of: a, as: SIMD8<Float>.self)
            }
            d += 8
        }
        while d < headDim {
            for i in 0..<count {
                var sum: Float = 0
                for j in 0..<T { sum += p[i * T + j] * values[j * headDim + d] }
                w.out[(t0 + i) * width + h * headDim + d] = sum
            }
            d += 1
        }
    }
}
