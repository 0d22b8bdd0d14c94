#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tensors of one non-causal multi-head attention (a ViT's): every token attends to every token.
/// `q` and `out` are `[nTokens, nHead * headDim]`; `kT` holds the keys transposed per head,
/// `[nHead, headDim, nTokens]`, so 8 keys' scores come from one vector multiply-add per dimension with no
/// horizontal sums; `v` holds the values by head, `[nHead, nTokens, headDim]`, so a head's sweep is contiguous.
public struct FullAttentionWork: @unchecked Sendable {  // pointers owned by the caller for the call
    public let q: UnsafePointer<Float>, kT: UnsafePointer<Float>, v: UnsafePointer<Float>
    public let out: UnsafeMutablePointer<Float>
    public let nTokens: Int, nHead: Int, headDim: Int

    /// Queries computed together: each key and value load serves this many.
    public static let queriesPerPass = 8
    /// The scores workspace of one thread, in Floats: `queriesPerPass` rows of `nTokens`.
    public var scoresCount: Int { Self.queriesPerPass * nTokens }

    public init(q: UnsafePointer<Float>, kT: UnsafePointer<Float>, v: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>,
                nTokens: Int, nHead: Int, headDim: Int) {
        (self.q, self.kT, self.v, self.out) = (q, kT, v, out)
        (self.nTokens, self.nHead, self.headDim) = (nTokens, nHead, headDim)
    }
}

/// `out_h = softmax(Q_h K_hᵀ / √headDim) V_h` for each head, in Float with the softmax's sums in Double, eight queries
/// at a time (``FullAttentionWork/queriesPerPass``). `@inlinable` so that each kernel module compiles it with its own
/// multiply-add `M` (FMA in the AVX2 module).
public enum FullAttentionKernel<M: MultiplyAdd> {
    /// The output rows of tokens `range`, with `scores` (``FullAttentionWork/scoresCount`` Floats) as workspace.
    @inlinable
    public static func attend(_ work: FullAttentionWork, tokens range: Range<Int>, scores: UnsafeMutablePointer<Float>) {
        let scale = 1 / Float(work.headDim).squareRoot()
        var t0 = range.lowerBound
        while t0 < range.upperBound {
            let count = min(FullAttentionWork.queriesPerPass, range.upperBound - t0)
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
        let queries = EightRows(w.q + t0 * width + h * headDim, stride: width, count: count)
        let keys = w.kT + h * headDim * T
        var j = 0
        while j + 8 <= T {
            var sums = EightSums()
            for d in 0..<headDim {
                sums.add(queries, at: d, times: UnsafeRawPointer(keys + d * T + j).loadUnaligned(as: SIMD8<Float>.self))
            }
            sums.store(count, scale: scale, at: scores + j, stride: T)
            j += 8
        }
        while j < T {
            for i in 0..<count {
                var dot: Float = 0
                for d in 0..<headDim { dot += queries[i][d] * keys[d * T + j] }
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
        let probabilities = EightRows(p, stride: T, count: count)
        let out = w.out + t0 * width + h * headDim
        var d = 0
        while d + 8 <= headDim {
            var sums = EightSums()
            for j in 0..<T {
                sums.add(probabilities, at: j, times: UnsafeRawPointer(values + j * headDim + d).loadUnaligned(as: SIMD8<Float>.self))
            }
            sums.store(count, scale: 1, at: out + d, stride: width)
            d += 8
        }
        while d < headDim {
            for i in 0..<count {
                var sum: Float = 0
                for j in 0..<T { sum += probabilities[i][j] * values[j * headDim + d] }
                out[i * width + d] = sum
            }
            d += 1
        }
    }

    /// The rows of eight queries (of their scores, or of their probabilities), `stride` Floats apart; rows past
    /// `count` repeat the last one, so the eight sums always have operands (those sums are not stored).
    @usableFromInline
    struct EightRows {
        @usableFromInline let r0, r1, r2, r3, r4, r5, r6, r7: UnsafePointer<Float>

        @inlinable @inline(__always)
        init(_ first: UnsafePointer<Float>, stride: Int, count: Int) {
            func row(_ i: Int) -> UnsafePointer<Float> { first + min(i, count - 1) * stride }
            (r0, r1, r2, r3, r4, r5, r6, r7) = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        }

        @inlinable @inline(__always)
        subscript(i: Int) -> UnsafePointer<Float> { [r0, r1, r2, r3, r4, r5, r6, r7][i] }
    }

    /// Eight vectors of sums, one per query row, held in registers.
    @usableFromInline
    struct EightSums {
        @usableFromInline var s0 = SIMD8<Float>(), s1 = SIMD8<Float>(), s2 = SIMD8<Float>(), s3 = SIMD8<Float>()
        @usableFromInline var s4 = SIMD8<Float>(), s5 = SIMD8<Float>(), s6 = SIMD8<Float>(), s7 = SIMD8<Float>()

        @inlinable @inline(__always)
        init() {}

        /// Sum `i` += row `i`'s value at `index` × `v`, for the eight rows.
        @inlinable @inline(__always)
        mutating func add(_ rows: EightRows, at index: Int, times v: SIMD8<Float>) {
            s0 = M.madd(s0, SIMD8(repeating: rows.r0[index]), v)
            s1 = M.madd(s1, SIMD8(repeating: rows.r1[index]), v)
            s2 = M.madd(s2, SIMD8(repeating: rows.r2[index]), v)
            s3 = M.madd(s3, SIMD8(repeating: rows.r3[index]), v)
            s4 = M.madd(s4, SIMD8(repeating: rows.r4[index]), v)
            s5 = M.madd(s5, SIMD8(repeating: rows.r5[index]), v)
            s6 = M.madd(s6, SIMD8(repeating: rows.r6[index]), v)
            s7 = M.madd(s7, SIMD8(repeating: rows.r7[index]), v)
        }

        /// Stores the first `count` sums times `scale`, sum `i` at `base + i * stride`.
        @inlinable @inline(__always)
        func store(_ count: Int, scale: Float, at base: UnsafeMutablePointer<Float>, stride: Int) {
            for (i, s) in [s0, s1, s2, s3, s4, s5, s6, s7].prefix(count).enumerated() {
                UnsafeMutableRawPointer(base + i * stride).storeBytes(of: s * scale, as: SIMD8<Float>.self)
            }
        }
    }
}
