import LMGGUF

/// GGUF `Q4_1`, as ggml's `block_q4_1`: 32 weights in 20 bytes (5 bits per weight).
///
///     offset 0   f16  d        scale
///     offset 2   f16  m        minimum
///     offset 4   u8   qs[16]   low nibble of qs[j] -> weight j, high nibble -> weight j + 16
///
/// weight = nibble * d + m. Dotted with Q8_1 activations (whose `s` carries the m term).
public enum Q4_1: TensorFormat {
    public static let type = GGMLType.q4_1
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var mOffset: Int { 2 }
    @inlinable public static var qsOffset: Int { 4 }
    @inlinable public static var layoutBytes: Int { qsOffset + 16 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        let m = block.loadHalf(fromByteOffset: mOffset)
        for j in 0..<16 {
            let q = block.load(fromByteOffset: qsOffset + j, as: UInt8.self)
            out[j] = Float(q & 0x0F) * d + m
            out[j + 16] = Float(q >> 4) * d + m
        }
    }
}
