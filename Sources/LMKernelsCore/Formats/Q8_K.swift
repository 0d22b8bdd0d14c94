import LMGGUF

/// ggml's `block_q8_K` (GGUF type `Q8_K`): 256 values in 292 bytes. Used only as the activation
/// format that K-quant weights are dotted with.
///
///     offset 0     f32  d          scale (full precision, unlike the other formats)
///     offset 4     i8   qs[256]    value i = qs[i] * d
///     offset 260   i16  bsums[16]  bsums[g] = sum of qs[16g..<16g + 16], little-endian
public enum Q8_K: TensorFormat {
    public static let type = GGMLType.q8_K
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var qsOffset: Int { 4 }
    @inlinable public static var bsumsOffset: Int { 260 }
    @inlinable public static var layoutBytes: Int { bsumsOffset + 2 * 16 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = Float(bitPattern: UInt32(littleEndian: block.loadUnaligned(fromByteOffset: dOffset, as: UInt32.self)))
        for i in 0..<256 {
            out[i] = Float(block.load(fromByteOffset: qsOffset + i, as: Int8.self)) * d
        }
    }
}

/// Quantizes `count` floats (a multiple of 256) to Q8_K blocks at `dst`, as ggml's
/// `quantize_row_q8_K_ref`: with `max` the value of largest magnitude (first one on ties),
/// iscale = -127 / max, q = min(127, nearestInt(iscale * x)) rounding halves to even, d = 1 / iscale,
/// and the 16 group sums. An all-zero block gets d = 0 and zero codes and sums (ggml leaves its
/// sums unwritten there).
///
/// - Parameters:
///   - x: `[count]` input floats.
///   - dst: room for `count / 256 * 292` bytes.
/// - Precondition: `count` is a multiple of 256. Non-finite inputs give unspecified codes (no trap).
public func quantizeRowQ8_K(_ x: UnsafePointer<Float>, into dst: UnsafeMutableRawPointer, count: Int) {
    precondition(count % 256 == 0, "Q8_K rows are whole blocks of 256")
    for b in 0..<(count / 256) {
        let src = x + b * 256
        let block = dst + b * Q8_K.layoutBytes
        var amax: Float = 0, maxValue: Float = 0
        for i in 0..<256 where abs(src[i]) > amax {
            amax = abs(src[i])
            maxValue = src[i]
        }
        guard amax != 0 else {
            block.initializeMemory(as: UInt8.self, repeating: 0, count: Q8_K.layoutBytes)
            continue
        }
        let iscale = -127 / maxValue
        for g in 0..<16 {
            var sum: Int32 = 0
            for i in (16 * g)..<(16 * g + 16) {
                let q = Int8(truncatingIfNeeded: min(127, nearestInt(iscale * src[i])))
                block.storeBytes(of: q, toByteOffset: Q8_K.qsOffset + i, as: Int8.self)
                sum += Int32(q)
            }
            block.storeBytes(of: Int16(truncatingIfNeeded: sum).littleEndian,
                             toByteOffset: Q8_K.bsumsOffset + 2 * g, as: Int16.self)
        }
        block.storeBytes(of: (1 / iscale).bitPattern.littleEndian, toByteOffset: Q8_K.dOffset, as: UInt32.self)
    }
}

/// ggml's `nearest_int`: round to nearest, ties to even, by adding 1.5 * 2^23 and reading the
/// mantissa. Exact for |v| < 2^22; never traps.
@inline(__always)
func nearestInt(_ v: Float) -> Int32 {
    let shifted = (v + 12_582_912).bitPattern
    return Int32(bitPattern: shifted & 0x007F_FFFF) - 0x0040_0000
}
