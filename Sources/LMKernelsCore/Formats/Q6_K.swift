import LMGGUF

/// GGUF `Q6_K`, as ggml's `block_q6_K`: a super-block of 256 weights in 210 bytes (6.5625 bits
/// per weight), 16 sub-blocks of 16 with signed 8-bit scales.
///
///     offset 0    u8   ql[128]     low 4 bits; for half h (0, 1) and l in 0..<32:
///                                  ql[64h + l] low/high nibble -> weights 128h + l / + 64,
///                                  ql[64h + 32 + l] low/high nibble -> weights 128h + 32 + l / + 96
///     offset 128  u8   qh[64]      high 2 bits; qh[32h + l] bits 0-1, 2-3, 4-5, 6-7 -> weights
///                                  128h + l, + 32, + 64, + 96
///     offset 192  i8   scales[16]  scale of weights 16s..<16s + 16
///     offset 208  f16  d           super-block scale
///
/// weight = d * scale[s] * (q6 - 32). Dotted with Q8_K activations.
public enum Q6_K: TensorFormat {
    public static let type = GGMLType.q6_K
    @inlinable public static var qlOffset: Int { 0 }
    @inlinable public static var qhOffset: Int { 128 }
    @inlinable public static var scalesOffset: Int { 192 }
    @inlinable public static var dOffset: Int { 208 }
    @inlinable public static var layoutBytes: Int { dOffset + 2 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        @inline(__always) func u8(_ offset: Int) -> Int32 { Int32(block.load(fromByteOffset: offset, as: UInt8.self)) }
        @inline(__always) func scale(_ s: Int) -> Float {
            d * Float(block.load(fromByteOffset: scalesOffset + s, as: Int8.self))
        }
        for half in 0..<2 {
            let y = out + 128 * half
            let ql = qlOffset + 64 * half, qh = qhOffset + 32 * half, sc = 8 * half
            for l in 0..<32 {
                let s = l / 16
                let lowA = u8(ql + l), lowB = u8(ql + 32 + l), high = u8(qh + l)
                let q0 = ((lowA & 0x0F) | (high & 3) << 4) - 32
                let q1 = ((lowB & 0x0F) | ((high >> 2) & 3) << 4) - 32
                let q2 = ((lowA >> 4) | ((high >> 4) & 3) << 4) - 32
                let q3 = ((lowB >> 4) | ((high >> 6) & 3) << 4) - 32
                y[l] = scale(sc + s) * Float(q0)
                y[l + 32] = scale(sc + s + 2) * Float(q1)
                y[l + 64] = scale(sc + s + 4) * Float(q2)
                y[l + 96] = scale(sc + s + 6) * Float(q3)
            }
        }
    }
}
