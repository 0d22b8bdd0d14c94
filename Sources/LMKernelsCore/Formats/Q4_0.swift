import LMGGUF

/// GGUF `Q4_0`, as ggml's `block_q4_0`: 32 weights in 18 bytes (4.5 bits per weight).
///
///     offset 0   f16  d        scale
///     offset 2   u8   qs[16]   low nibble of qs[j] -> weight j, high nibble -> weight j + 16
///
/// weight = (nibble - 8) * d.
public enum Q4_0: TensorFormat {
    public static let type = GGMLType.q4_0
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var qsOffset: Int { 2 }
    @inlinable public static var layoutBytes: Int { qsOffset + 16 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        for j in 0..<16 {
            let q = block.load(fromByteOffset: qsOffset + j, as: UInt8.self)
            out[j] = Float(Int32(q & 0x0F) - 8) * d
            out[j + 16] = Float(Int32(q >> 4) - 8) * d
        }
    }
}
