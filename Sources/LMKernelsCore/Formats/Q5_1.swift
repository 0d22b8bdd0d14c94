import LMGGUF

/// GGUF `Q5_1`, as ggml's `block_q5_1`: 32 weights in 24 bytes (6 bits per weight).
///
///     offset 0   f16  d        scale
///     offset 2   f16  m        minimum
///     offset 4   u32  qh       bit i = fifth (high) bit of weight i, little-endian
///     offset 8   u8   qs[16]   low nibble of qs[j] -> weight j, high nibble -> weight j + 16
///
/// weight = (nibble | highBit << 4) * d + m.
public enum Q5_1: TensorFormat {
    public static let type = GGMLType.q5_1
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var mOffset: Int { 2 }
    @inlinable public static var qhOffset: Int { 4 }
    @inlinable public static var qsOffset: Int { 8 }
    @inlinable public static var layoutBytes: Int { qsOffset + 16 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        let m = block.loadHalf(fromByteOffset: mOffset)
        let qh = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: qhOffset, as: UInt32.self))
        for j in 0..<16 {
            let q = UInt32(block.load(fromByteOffset: qsOffset + j, as: UInt8.self))
            let lo = (q & 0x0F) | ((qh >> UInt32(j)) & 1) << 4
            let hi = (q >> 4) | ((qh >> UInt32(j + 16)) & 1) << 4
            out[j] = Float(lo) * d + m
            out[j + 16] = Float(hi) * d + m
        }
    }
}
