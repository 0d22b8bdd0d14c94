#if arch(x86_64)
import LMGGUF
import LMKernelsCore

/// Float weights (F32, F16, BF16) against Float activations with AVX2, FMA and F16C: a ViT's matrices
/// (1,024 tokens a tile) and the float tensors of language models.
///
/// Prefill is blocked like a small GEMM: a block of `colBlock` columns of `rowBlock` weight rows is widened to
/// Float once (F16C's `vcvtph2ps` for halves) and kept in cache while every token passes over it, four tokens
/// and two rows at a time (eight FMA accumulators); the partial sums of each column block are added into `y`.
/// Sums run in another order than the portable kernel's, within Float rounding of it.
enum AVX2FloatMatMul {
    static let colBlock = 128, rowBlock = 64

    /// `count` values of `row` from column `c0`, as Floats, into `out`.
    @inline(__always)
    static func widen(_ type: GGMLType, _ row: UnsafeRawPointer, from c0: Int, count: Int, into out: UnsafeMutablePointer<Float>) {
        var c = 0
        switch type {
        case .f16:
            while c + 8 <= count {
                let h = row.loadUnaligned(fromByteOffset: 2 * (c0 + c), as: SIMD8<UInt16>.self)
                UnsafeMutableRawPointer(out + c).storeBytes(of: F16CHalves.floats(h), as: SIMD8<Float>.self)
                c += 8
            }
            while c < count {
                out[c] = f16Exact(row.loadUnaligned(fromByteOffset: 2 * (c0 + c), as: UInt16.self))
                c += 1
            }
        case .bf16:
            while c < count {
                out[c] = Float(bitPattern: UInt32(row.loadUnaligned(fromByteOffset: 2 * (c0 + c), as: UInt16.self)) << 16)
                c += 1
            }
        default:  // .f32
            (out).update(from: row.assumingMemoryBound(to: Float.self) + c0, count: count)
        }
    }

    /// `y[t * w.rows + r] = w[r] · x[t]` for all tokens `t` and `r` in `rows`. Under 8 tokens, each token's values
    /// are ``matVec(_:_:token:into:rows:)``'s bit for bit, as every kernel's are (a batched decode step then matches
    /// each sequence decoding alone).
    static func matMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let n = x.nTokens, cols = w.cols, stride = w.rows
        if n < 8 {
            for t in 0..<n { matVec(w, x, token: t, into: y + t * stride, rows: rows) }
            return
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: rowBlock * colBlock) { buffer in
            let block = buffer.baseAddress!
            var r0 = rows.lowerBound
            while r0 < rows.upperBound {
                let r1 = min(r0 + rowBlock, rows.upperBound)
                var c0 = 0
                while c0 < cols {
                    let kc = min(colBlock, cols - c0)
                    for r in r0..<r1 { widen(w.type, w.row(r), from: c0, count: kc, into: block + (r - r0) * kc) }
                    var t = 0
                    while t < n {
                        let nt = min(4, n - t)
                        tile(block, kc: kc, rows: r0..<r1, x, t: t, tokens: nt, c0: c0, y: y, stride: stride)
                        t += nt
                    }
                    c0 += kc
                }
                r0 = r1
            }
        }
    }

    /// Adds (or, for the first column block, stores) the products of the widened rows `rows` (`block`, `kc`
    /// columns each) with tokens `t..<t+tokens` (at most 4) into `y`.
    @inline(__always)
    static func tile(_ block: UnsafePointer<Float>, kc: Int, rows: Range<Int>, _ x: ActivationRows, t: Int, tokens: Int,
                     c0: Int, y: UnsafeMutablePointer<Float>, stride: Int) {
        // Tokens past `tokens` repeat the last one; their sums are not kept.
        let a0 = x.row(t).floats + c0, a1 = x.row(t + min(1, tokens - 1)).floats + c0
        let a2 = x.row(t + min(2, tokens - 1)).floats + c0, a3 = x.row(t + min(3, tokens - 1)).floats + c0
        var r = rows.lowerBound
        while r < rows.upperBound {
            let second = r + 1 < rows.upperBound
            let w0 = block + (r - rows.lowerBound) * kc, w1 = second ? w0 + kc : w0
            var s00 = SIMD8<Float>(), s01 = SIMD8<Float>(), s02 = SIMD8<Float>(), s03 = SIMD8<Float>()
            var s10 = SIMD8<Float>(), s11 = SIMD8<Float>(), s12 = SIMD8<Float>(), s13 = SIMD8<Float>()
            var c = 0
            while c + 8 <= kc {
                let v0 = UnsafeRawPointer(w0 + c).loadUnaligned(as: SIMD8<Float>.self)
                let v1 = UnsafeRawPointer(w1 + c).loadUnaligned(as: SIMD8<Float>.self)
                let x0 = UnsafeRawPointer(a0 + c).loadUnaligned(as: SIMD8<Float>.self)
                let x1 = UnsafeRawPointer(a1 + c).loadUnaligned(as: SIMD8<Float>.self)
                let x2 = UnsafeRawPointer(a2 + c).loadUnaligned(as: SIMD8<Float>.self)
                let x3 = UnsafeRawPointer(a3 + c).loadUnaligned(as: SIMD8<Float>.self)
                s00 = s00.addingProduct(v0, x0); s01 = s01.addingProduct(v0, x1)
                s02 = s02.addingProduct(v0, x2); s03 = s03.addingProduct(v0, x3)
                s10 = s10.addingProduct(v1, x0); s11 = s11.addingProduct(v1, x1)
                s12 = s12.addingProduct(v1, x2); s13 = s13.addingProduct(v1, x3)
                c += 8
            }
            // Lanes 0-3: the first row with the four tokens; 4-7: the second row.
            var sums = SIMD8<Float>(horizontalSum(s00), horizontalSum(s01), horizontalSum(s02), horizontalSum(s03),
                                    horizontalSum(s10), horizontalSum(s11), horizontalSum(s12), horizontalSum(s13))
            while c < kc {
                let xs = SIMD4<Float>(a0[c], a1[c], a2[c], a3[c])
                sums += SIMD8(lowHalf: w0[c] * xs, highHalf: w1[c] * xs)
                c += 1
            }
            for k in 0..<tokens {
                let out = y + (t + k) * stride
                out[r] = (c0 == 0 ? 0 : out[r]) + sums[k]
                if second { out[r + 1] = (c0 == 0 ? 0 : out[r + 1]) + sums[4 + k] }
            }
            r += second ? 2 : 1
        }
    }

    /// `y[r] = w[r] · x[token]` for `r` in `rows` (one token).
    static func matVec(_ w: WeightMatrix, _ x: ActivationRows, token: Int, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let cols = w.cols, a = x.row(token).floats
        withUnsafeTemporaryAllocation(of: Float.self, capacity: colBlock) { buffer in
            let block = buffer.baseAddress!
            for r in rows {
                var acc = SIMD8<Float>(), total: Float = 0
                var c0 = 0
                while c0 < cols {
                    let kc = min(colBlock, cols - c0)
                    widen(w.type, w.row(r), from: c0, count: kc, into: block)
                    var c = 0
                    while c + 8 <= kc {
                        acc = acc.addingProduct(UnsafeRawPointer(block + c).loadUnaligned(as: SIMD8<Float>.self),
                                                UnsafeRawPointer(a + c0 + c).loadUnaligned(as: SIMD8<Float>.self))
                        c += 8
                    }
                    while c < kc {
                        total += block[c] * a[c0 + c]
                        c += 1
                    }
                    c0 += kc
                }
                y[r] = horizontalSum(acc) + total
            }
        }
    }
}
#endif
