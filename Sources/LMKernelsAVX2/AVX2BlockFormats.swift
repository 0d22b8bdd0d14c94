#if arch(x86_64)
import LMKernelsCore

/// A legacy 32-weight block format as the AVX2 kernels see it: f16 `d` at byte 0 and, for formats
/// with an offset, f16 `m` at byte 2 (`value = q·d + m`); the quants decode into the operands of
/// one byte dot product against natural-order activation bytes.
protocol AVX2BlockFormat: SendableMetatype {
    associatedtype Decoded
    static var activationFormat: ActivationFormat { get }
    static var blockBytes: Int { get }
    static var hasOffset: Bool { get }
    static func decode(_ block: UnsafeRawPointer) -> Decoded
    /// `Σ q·a` over the block as 8 Int32 lanes.
    static func dot(_ w: Decoded, _ a: SIMD32<Int8>) -> SIMD8<Int32>
}

/// Q4_1 (block layout as ggml's `block_q4_1`), as ggml's AVX2 `ggml_vec_dot_q4_1_q8_1`: the 16
/// bytes of nibbles become 32 unsigned bytes, low nibbles being weights 0..<16 and high 16..<32.
enum Q4_1AVX2: AVX2BlockFormat {
    static var activationFormat: ActivationFormat { .q8_1 }
    static var blockBytes: Int { Q4_1.layoutBytes }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func decode(_ block: UnsafeRawPointer) -> SIMD32<UInt8> {
        let v = block.loadUnaligned(fromByteOffset: Q4_1.qsOffset, as: SIMD16<UInt8>.self)
        return SIMD32(lowHalf: v & 0x0f, highHalf: v &>> 4)
    }

    @inline(__always)
    static func dot(_ w: SIMD32<UInt8>, _ a: SIMD32<Int8>) -> SIMD8<Int32> { AVX2.dot32(w, a) }
}

/// Q8_0 (block layout as ggml's `block_q8_0`), as ggml's AVX2 `ggml_vec_dot_q8_0_q8_0`: signed
/// weights multiplied as `|w|` against the activations carrying `w`'s signs (`vpsignb`).
enum Q8_0AVX2: AVX2BlockFormat {
    static var activationFormat: ActivationFormat { .q8_0 }
    static var blockBytes: Int { Q8_0.layoutBytes }
    static var hasOffset: Bool { false }

    @inline(__always)
    static func decode(_ block: UnsafeRawPointer) -> (magnitudes: SIMD32<UInt8>, signs: SIMD32<Int8>) {
        let q = block.loadUnaligned(fromByteOffset: Q8_0.qsOffset, as: SIMD32<Int8>.self)
        return (unsafeBitCast(AVX2.sign(q, q), to: SIMD32<UInt8>.self), q)
    }

    @inline(__always)
    static func dot(_ w: (magnitudes: SIMD32<UInt8>, signs: SIMD32<Int8>), _ a: SIMD32<Int8>) -> SIMD8<Int32> {
        AVX2.dot32(w.magnitudes, AVX2.sign(a, w.signs))
    }
}

/// Q5_0 (block layout as ggml's `block_q5_0`), as ggml's AVX2 `ggml_vec_dot_q5_0_q8_0`: nibbles
/// as Q4_1's, and where a weight's fifth bit is clear its byte gets `0xf0`, which as Int8 is
/// `nibble - 16`; set, it is `nibble + 16 - 16`. Then a signed byte dot.
enum Q5_0AVX2: AVX2BlockFormat {
    static var activationFormat: ActivationFormat { .q8_0 }
    static var blockBytes: Int { Q5_0.layoutBytes }
    static var hasOffset: Bool { false }

    @inline(__always)
    static func decode(_ block: UnsafeRawPointer) -> SIMD32<Int8> {
        let v = block.loadUnaligned(fromByteOffset: Q5_0.qsOffset, as: SIMD16<UInt8>.self)
        let nibbles = SIMD32(lowHalf: v & 0x0f, highHalf: v &>> 4)
        let fifth = AVX2.bytesFromBits(UInt32(littleEndian: block.loadUnaligned(fromByteOffset: Q5_0.qhOffset, as: UInt32.self)))
        return unsafeBitCast(AVX2.or(nibbles, AVX2.andNot(fifth, AVX2.bytes(0xf0))), to: SIMD32<Int8>.self)
    }

    @inline(__always)
    static func dot(_ w: SIMD32<Int8>, _ a: SIMD32<Int8>) -> SIMD8<Int32> { AVX2.signedDot32(w, a) }
}

/// Q4_0 (block layout as ggml's `block_q4_0`), as ggml's AVX2 `ggml_vec_dot_q4_0_q8_0`: nibbles as
/// Q4_1's, less 8 (so signed), then a signed byte dot.
enum Q4_0AVX2: AVX2BlockFormat {
    static var activationFormat: ActivationFormat { .q8_0 }
    static var blockBytes: Int { Q4_0.layoutBytes }
    static var hasOffset: Bool { false }

    @inline(__always)
    static func decode(_ block: UnsafeRawPointer) -> SIMD32<Int8> {
        let v = block.loadUnaligned(fromByteOffset: Q4_0.qsOffset, as: SIMD16<UInt8>.self)
        let nibbles = SIMD32(lowHalf: v & 0x0f, highHalf: v &>> 4)
        return unsafeBitCast(AVX2.subtract(nibbles, AVX2.bytes(8)), to: SIMD32<Int8>.self)
    }

    @inline(__always)
    static func dot(_ w: SIMD32<Int8>, _ a: SIMD32<Int8>) -> SIMD8<Int32> { AVX2.signedDot32(w, a) }
}

/// Q5_1 (block layout as ggml's `block_q5_1`), as ggml's AVX2 `ggml_vec_dot_q5_1_q8_1`: nibbles as
/// Q4_1's with the fifth bit as 16 where set (unsigned, 0..<32), and the `m` offset as Q4_1's.
enum Q5_1AVX2: AVX2BlockFormat {
    static var activationFormat: ActivationFormat { .q8_1 }
    static var blockBytes: Int { Q5_1.layoutBytes }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func decode(_ block: UnsafeRawPointer) -> SIMD32<UInt8> {
        let v = block.loadUnaligned(fromByteOffset: Q5_1.qsOffset, as: SIMD16<UInt8>.self)
        let nibbles = SIMD32(lowHalf: v & 0x0f, highHalf: v &>> 4)
        let fifth = AVX2.bytesFromBits(UInt32(littleEndian: block.loadUnaligned(fromByteOffset: Q5_1.qhOffset, as: UInt32.self)))
        return AVX2.or(nibbles, AVX2.and(fifth, AVX2.bytes(0x10)))
    }

    @inline(__always)
    static func dot(_ w: SIMD32<UInt8>, _ a: SIMD32<Int8>) -> SIMD8<Int32> { AVX2.dot32(w, a) }
}
#endif
