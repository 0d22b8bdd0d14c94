import LMGGUF

/// GGUF `Q8_1`, as ggml's `block_q8_1`: 32 weights in 36 bytes (9 bits per weight). Used only as
/// the activation format that Q4_1/Q5_1 weights are dotted with.
///
///     offset 0   f16  d        scale
///     offset 2   f16  s        d * sum(qs), which carries a weight block's minimum term
///     offset 4   i8   qs[32]   value i = qs[i] * d
public enum Q8_1: TensorFormat {
    public static let type = GGMLType.q8_1
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var sOffset: Int { 2 }
    @inlinable public static var qsOffset: Int { 4 }
    @inlinable public static var layoutBytes: Int { qsOffset + 32 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        for i in 0..<32 {
            out[i] = Float(block.load(fromByteOffset: qsOffset + i, as: Int8.self)) * d
        }
    }
}

/// Quantizes `count` floats (a multiple of 32) to Q8_1 blocks at `dst`, as ggml's
/// `quantize_row_q8_1_ref`: the Q8_0 rule for d and qs, plus s = f16(Float(sum(qs)) * d) with
/// the unrounded f32 d.
///
/// - Parameters:
///   - x: `[count]` input floats.
///   - dst: room for `count / 32 * 36` bytes.
/// - Precondition: `count` is a multiple of 32. Non-finite inputs give unspecified codes (no trap).
public func quantizeRowQ8_1(_ x: UnsafePointer<Float>, into dst: UnsafeMutableRawPointer, count: Int) {
    precondition(count % 32 == 0, "Q8_1 rows are whole blocks of 32")
    for b in 0..<(count / 32) {
        let src = x + b * 32
        let block = dst + b * Q8_1.layoutBytes
        var amax: Float = 0
        for i in 0..<32 { amax = max(amax, abs(src[i])) }
        let d = amax / 127
        let id: Float = d != 0 ? 1 / d : 0
        var sum: Int32 = 0
        for i in 0..<32 {
            let q = int8RoundedAwayFromZero(src[i] * id)
            block.storeBytes(of: q, toByteOffset: Q8_1.qsOffset + i, as: Int8.self)
            sum += Int32(q)
        }
        block.storeHalf(d, toByteOffset: Q8_1.dOffset)
        block.storeHalf(Float(sum) * d, toByteOffset: Q8_1.sOffset)
    }
}
