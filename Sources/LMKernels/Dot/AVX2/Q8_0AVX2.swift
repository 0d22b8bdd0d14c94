#if X86V3 && arch(x86_64)
/// Q8_0 weights against Q8_0 activations with AVX2, as ggml's AVX2 `ggml_vec_dot_q8_0_q8_0`: per
/// 32-block one signed byte dot (`vpsignb` twice, `vpmaddubsw`, `vpmaddwd`) and one multiply-add
/// by `d·d_a`. Same values as ``BlockDot``'s Q8_0 up to Float summation order.
enum Q8_0AVX2: RowKernel {
    static var activationFormat: ActivationFormat { .q8_0 }
    private static let blockBytes = 34

    @inline(__always)
    private static func weights(_ block: UnsafeRawPointer) -> SIMD32<Int8> {
        block.loadUnaligned(fromByteOffset: 2, as: SIMD32<Int8>.self)
    }

    @inline(__always)
    private static func activations(_ x: ActivationRow, _ b: Int) -> SIMD32<Int8> {
        UnsafeRawPointer(x.bytes + b * 32).loadUnaligned(as: SIMD32<Int8>.self)
    }

    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float {
        let blocks = cols / 32
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var b = 0
        while b + 2 <= blocks {
            let block0 = w + b * blockBytes, block1 = block0 + blockBytes
            let p0 = AVX2.float(AVX2.signedDot32(weights(block0), activations(x, b)))
            let p1 = AVX2.float(AVX2.signedDot32(weights(block1), activations(x, b + 1)))
            acc0 = acc0.addingProduct(p0, SIMD8(repeating: halfLoad(block0, 0) * x.scales[b]))
            acc1 = acc1.addingProduct(p1, SIMD8(repeating: halfLoad(block1, 0) * x.scales[b + 1]))
            b += 2
        }
        if b < blocks {
            let block = w + b * blockBytes
            let p = AVX2.float(AVX2.signedDot32(weights(block), activations(x, b)))
            acc0 = acc0.addingProduct(p, SIMD8(repeating: halfLoad(block, 0) * x.scales[b]))
        }
        return horizontalSum(acc0 + acc1)
    }

    /// One weight row against four activation rows, decoding each block once; per token the
    /// arithmetic and its order are those of `dot`, so results are bit-identical.
    @inline(__always)
    static func dot4(_ w: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow,
                     _ x2: ActivationRow, _ x3: ActivationRow, cols: Int) -> SIMD4<Float> {
        let blocks = cols / 32
        var even = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        var odd = even
        @inline(__always)
        func step(_ acc: inout (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), _ block: UnsafeRawPointer, _ b: Int) {
            let q = weights(block)
            let u = SIMD32<UInt8>(truncatingIfNeeded: AVX2.sign(q, q))
            let d = halfLoad(block, 0)
            acc.0 = acc.0.addingProduct(AVX2.float(AVX2.dot32(u, AVX2.sign(activations(x0, b), q))), SIMD8(repeating: d * x0.scales[b]))
            acc.1 = acc.1.addingProduct(AVX2.float(AVX2.dot32(u, AVX2.sign(activations(x1, b), q))), SIMD8(repeating: d * x1.scales[b]))
            acc.2 = acc.2.addingProduct(AVX2.float(AVX2.dot32(u, AVX2.sign(activations(x2, b), q))), SIMD8(repeating: d * x2.scales[b]))
            acc.3 = acc.3.addingProduct(AVX2.float(AVX2.dot32(u, AVX2.sign(activations(x3, b), q))), SIMD8(repeating: d * x3.scales[b]))
        }
        var b = 0
        while b + 2 <= blocks {
            let block0 = w + b * blockBytes
            step(&even, block0, b)
            step(&odd, block0 + blockBytes, b + 1)
            b += 2
        }
        if b < blocks { step(&even, w + b * blockBytes, b) }
        return SIMD4(horizontalSum(even.0 + odd.0), horizontalSum(even.1 + odd.1),
                     horizontalSum(even.2 + odd.2), horizontalSum(even.3 + odd.3))
    }
}
#endif
