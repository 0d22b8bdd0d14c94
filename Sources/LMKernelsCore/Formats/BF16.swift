import LMGGUF

/// GGUF `BF16`: bfloat16 (the top 16 bits of a binary32), little-endian. 16 bits per weight; a
/// "block" is one element of 2 bytes. Converted with ``bf16ToFloat(_:)``.
public enum BF16: TensorFormat {
    public static let type = GGMLType.bf16
    @inlinable public static var layoutBytes: Int { 2 }

    @inline(__always)
    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        out.pointee = bf16ToFloat(UInt16(littleEndian: block.loadUnaligned(as: UInt16.self)))
    }

    public static func dequantizeRow(_ src: UnsafeRawPointer, into dst: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            dst[i] = bf16ToFloat(UInt16(littleEndian: src.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
        }
    }
}
