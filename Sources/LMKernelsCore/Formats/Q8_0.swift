import LMGGUF

/// GGUF `Q8_0`, as ggml's `block_q8_0`: 32 weights in 34 bytes (8.5 bits per weight).
///
///     offset 0   f16  d        scale
///     offset 2   i8   qs[32]   weight i = qs[i] * d
///
/// Also the activation format that Q4_0/Q5_0/Q8_0 weights are dotted with.
public enum Q8_0: TensorFormat {
    public static let type = GGMLType.q8_0
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var qsOffset: Int { 2 }
    @inlinable public static var layoutBytes: Int { qsOffset + 32 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        for i in 0..<32 {
            out[i] = Float(block.load(fromByteOffset: qsOffset + i, as: Int8.self)) * d
        }
    }
}

/// Quantizes `count` floats (a multiple of 32) to Q8_0 blocks at `dst`, as ggml's
/// `quantize_row_q8_0_ref`: per block d = max|x| / 127 (stored as f16), q = round(x / d) with
/// halves rounded away from zero, computed with the unrounded f32 d.
///
/// - Parameters:
///   - x: `[count]` input floats.
///   - dst: room for `count / 32 * 34` bytes.
/// - Precondition: `count` is a multiple of 32. Non-finite inputs give unspecified codes (no trap).
public func quantizeRowQ8_0(_ x: UnsafePointer<Float>, into dst: UnsafeMutableRawPointer, count: Int) {
    precondition(count % 32 == 0, "Q8_0 rows are whole blocks of 32")
    for b in 0..<(count / 32) {
        let src = x + b * 32
        let block = dst + b * Q8_0.layoutBytes
        var amax: Float = 0
        for i in 0..<32 { amax = max(amax, abs(src[i])) }
        let d = amax / 127
        let id: Float = d != 0 ? 1 / d : 0
        block.storeHalf(d, toByteOffset: Q8_0.dOffset)
        for i in 0..<32 {
            block.storeBytes(of: int8RoundedAwayFromZero(src[i] * id), toByteOffset: Q8_0.qsOffset + i, as: Int8.self)
        }
    }
}

/// C's `(int8_t)roundf(v)` for |v| <= 127.5; clamps instead of trapping outside that range.
@inline(__always)
func int8RoundedAwayFromZero(_ v: Float) -> Int8 {
    let r = v.rounded(.toNearestOrAwayFromZero)
    return Int8(Swift.max(-128, Swift.min(127, r.isNaN ? 0 : r)))
}
