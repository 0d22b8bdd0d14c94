import LMGGUF

/// GGUF `F16`: IEEE 754 binary16, little-endian. 16 bits per weight; a "block" is one element of
/// 2 bytes. Converted with ``halfToFloat(_:)``.
public enum F16: TensorFormat {
    public static let type = GGMLType.f16
    @inlinable public static var layoutBytes: Int { 2 }

    @inline(__always)
    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        out.pointee = block.loadHalf(fromByteOffset: 0)
    }

    public static func dequantizeRow(_ src: UnsafeRawPointer, into dst: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { dst[i] = src.loadHalf(fromByteOffset: 2 * i) }
    }
}
