import LMKernelsCore

/// 8-bit weights in one 32-weight group with an f16 scale `d` at byte 0 (value `q * d`), paired
/// with Q8_0 activations: Q8_0 and Q8_1 differ only in where the quants start.
protocol SignedByteBlockFormat: BlockFormat where Header == Void, Lanes == SIMD8<Float> {
    /// Byte offset of the 32 Int8 quants inside a block.
    static var quantsOffset: Int { get }
}

extension SignedByteBlockFormat {
    static var activationFormat: ActivationFormat { .q8_0 }
    static var groups: Int { 1 }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: Void, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        signedBytePlanes(block + quantsOffset)
    }

    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: Void, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD8<Float> {
        toFloat(pairedDot(w, a))
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }
}

/// Q8_0 weights (8.5 bits/weight, 34 bytes per 32: f16 `d`, 32 Int8; value `q * d`) against Q8_0
/// activations, as ggml's `ggml_vec_dot_q8_0_q8_0`.
enum Q8_0Format: SignedByteBlockFormat {
    typealias Header = Void
    typealias Lanes = SIMD8<Float>
    static var blockBytes: Int { Q8_0.layoutBytes }
    static var quantsOffset: Int { Q8_0.qsOffset }
}
