import LMGGUF

/// GGUF `F32`: IEEE 754 binary32, little-endian. 32 bits per weight; a "block" is one element of
/// 4 bytes.
public enum F32: TensorFormat {
    public static let type = GGMLType.f32
    @inlinable public static var layoutBytes: Int { 4 }

    @inline(__always)
    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        out.pointee = Float(bitPattern: UInt32(littleEndian: block.loadUnaligned(as: UInt32.self)))
    }

    public static func dequantizeRow(_ src: UnsafeRawPointer, into dst: UnsafeMutablePointer<Float>, count: Int) {
        UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: count * 4)
    }
}
