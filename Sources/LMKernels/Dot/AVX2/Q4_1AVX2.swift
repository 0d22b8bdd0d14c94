#if X86V3 && arch(x86_64)
/// Q4_1 weights against Q8_1 activations with AVX2, as ggml's AVX2 `ggml_vec_dot_q4_1_q8_1`: per
/// 32-block the 16 bytes of nibbles become 32 unsigned bytes (low nibbles are weights 0..<16, high
/// nibbles 16..<32), one `vpmaddubsw`/`vpmaddwd` against the natural-order activation bytes, and
/// one multiply-add by `d·d_a`; the mins add `m·s_a`. Same values as ``BlockDot``'s Q4_1 up to
/// Float summation order.
enum Q4_1AVX2: RowKernel {
    static var activationFormat: ActivationFormat { .q8_1 }
    private static let blockBytes = 20

    @inline(__always)
    private static func nibbles(_ block: UnsafeRawPointer) -> SIMD32<UInt8> {
        let v = block.loadUnaligned(fromByteOffset: 4, as: SIMD16<UInt8>.self)
        return SIMD32(lowHalf: v & 0x0f, highHalf: v &>> 4)
    }

    @inline(__always)
    private static func activations(_ x: ActivationRow, _ b: Int) -> SIMD32<Int8> {
        UnsafeRawPointer(x.bytes + b * 32).loadUnaligned(as: SIMD32<Int8>.self)
    }

    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float {
        let blocks = cols / 32
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var offsets: Float = 0
        var b = 0
        while b + 2 <= blocks {
            let block0 = w + b * blockBytes, block1 = block0 + blockBytes
            let p0 = AVX2.float(AVX2.dot32(nibbles(block0), activations(x, b)))
            let p1 = AVX2.float(AVX2.dot32(nibbles(block1), activations(x, b + 1)))
            acc0 = acc0.addingProduct(p0, SIMD8(repeating: halfLoad(block0, 0) * x.scales[b]))
            acc1 = acc1.addingProduct(p1, SIMD8(repeating: halfLoad(block1, 0) * x.scales[b + 1]))
            offsets += halfLoad(block0, 2) * x.sums[b] + halfLoad(block1, 2) * x.sums[b + 1]
            b += 2
        }
        if b < blocks {
            let block = w + b * blockBytes
            let p = AVX2.float(AVX2.dot32(nibbles(block), activations(x, b)))
            acc0 = acc0.addingProduct(p, SIMD8(repeating: halfLoad(block, 0) * x.scales[b]))
            offsets += halfLoad(block, 2) * x.sums[b]
        }
        return horizontalSum(acc0 + acc1) + offsets
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
        func step(_ acc: inout (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), _ block: UnsafeRawPointer, _ b: Int) -> SIMD4<Float> {
            let q = nibbles(block)
            let d = halfLoad(block, 0)
            acc.0 = acc.0.addingProduct(AVX2.float(AVX2.dot32(q, activations(x0, b))), SIMD8(repeating: d * x0.scales[b]))
            acc.1 = acc.1.addingProduct(AVX2.float(AVX2.dot32(q, activations(x1, b))), SIMD8(repeating: d * x1.scales[b]))
            acc.2 = acc.2.addingProduct(AVX2.float(AVX2.dot32(q, activations(x2, b))), SIMD8(repeating: d * x2.scales[b]))
            acc.3 = acc.3.addingProduct(AVX2.float(AVX2.dot32(q, activations(x3, b))), SIMD8(repeating: d * x3.scales[b]))
            return halfLoad(block, 2) * SIMD4(x0.sums[b], x1.sums[b], x2.sums[b], x3.sums[b])
        }
        var b = 0
        while b + 2 <= blocks {
            let block0 = w + b * blockBytes
            let m0 = step(&even, block0, b)
            let m1 = step(&odd, block0 + blockBytes, b + 1)
            offsets += m0 + m1
            b += 2
        }
        if b < blocks { offsets += step(&even, w + b * blockBytes, b) }
        return SIMD4(horizontalSum(even.0 + odd.0), horizontalSum(even.1 + odd.1),
                     horizontalSum(even.2 + odd.2), horizontalSum(even.3 + odd.3)) + offsets
    }
}

/// An f16 at `offset` of `p` as Float (`vcvtph2ps` with F16C, which x86-64-v3 has).
@inline(__always)
func halfLoad(_ p: UnsafeRawPointer, _ offset: Int) -> Float {
    Float(Float16(bitPattern: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
}
#endif
