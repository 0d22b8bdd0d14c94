#if arch(x86_64)
import LMKernelsCore

/// Row kernels of the AVX2 formats: per 32-block one byte dot product (`vpmaddubsw`, `vpmaddwd`),
/// converted and multiplied-added by `d·d_a` into one of two accumulators (even and odd blocks, so
/// consecutive blocks do not wait on each other); offsets add `m·s_a`. Same values as ``BlockDot``
/// up to Float summation order.
enum AVX2BlockDot<F: AVX2BlockFormat>: RowKernel {
    static var activationFormat: ActivationFormat { F.activationFormat }

    @inline(__always)
    private static func activations(_ x: ActivationRow, _ b: Int) -> SIMD32<Int8> {
        UnsafeRawPointer(x.bytes + b * 32).loadUnaligned(as: SIMD32<Int8>.self)
    }

    /// Block `b` of the row at `w` against token row `x`: accumulates into `acc`, returns `m·s_a`.
    @inline(__always)
    private static func step(_ acc: inout SIMD8<Float>, _ w: F.Decoded, _ block: UnsafeRawPointer,
                             _ x: ActivationRow, _ b: Int) -> Float {
        acc = acc.addingProduct(AVX2.float(F.dot(w, activations(x, b))), SIMD8(repeating: AVX2.half(block, 0) * x.scales[b]))
        return F.hasOffset ? AVX2.half(block, 2) * x.sums[b] : 0
    }

    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float {
        let blocks = cols / 32
        var even = SIMD8<Float>(), odd = SIMD8<Float>()
        var offsets: Float = 0
        var b = 0
        while b + 2 <= blocks {
            let block0 = w + b * F.blockBytes, block1 = block0 + F.blockBytes
            let m0 = step(&even, F.decode(block0), block0, x, b)
            let m1 = step(&odd, F.decode(block1), block1, x, b + 1)
            offsets += m0 + m1
            b += 2
        }
        if b < blocks {
            let block = w + b * F.blockBytes
            offsets += step(&even, F.decode(block), block, x, b)
        }
        return horizontalSum(even + odd) + offsets
    }

    /// One weight row against four activation rows, decoding each block once; per token the
    /// arithmetic and its order are those of `dot`, so results are bit-identical.
    @inline(__always)
    static func dot4(_ w: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow,
                     _ x2: ActivationRow, _ x3: ActivationRow, cols: Int) -> SIMD4<Float> {
        let blocks = cols / 32
        var even = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        var odd = even
        var offsets = SIMD4<Float>()
        @inline(__always)
        func step4(_ acc: inout (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>),
                   _ block: UnsafeRawPointer, _ b: Int) -> SIMD4<Float> {
            let q = F.decode(block)
            return SIMD4(step(&acc.0, q, block, x0, b), step(&acc.1, q, block, x1, b),
                         step(&acc.2, q, block, x2, b), step(&acc.3, q, block, x3, b))
        }
        var b = 0
        while b + 2 <= blocks {
            let block0 = w + b * F.blockBytes
            let m0 = step4(&even, block0, b)
            let m1 = step4(&odd, block0 + F.blockBytes, b + 1)
            offsets += m0 + m1
            b += 2
        }
        if b < blocks { offsets += step4(&even, w + b * F.blockBytes, b) }
        return SIMD4(horizontalSum(even.0 + odd.0), horizontalSum(even.1 + odd.1),
                     horizontalSum(even.2 + odd.2), horizontalSum(even.3 + odd.3)) + offsets
    }
}
#endif
