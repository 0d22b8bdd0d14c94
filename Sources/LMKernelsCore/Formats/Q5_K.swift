import LMGGUF

/// GGUF `Q5_K`, as ggml's `block_q5_K`: a super-block of 256 weights in 176 bytes (5.5 bits per
/// weight), 8 sub-blocks of 32 with 6-bit scales and mins packed as in ``Q4_K``.
///
///     offset 0    f16  d           scale of the sub-block scales
///     offset 2    f16  dmin        scale of the sub-block mins
///     offset 4    u8   scales[12]  packed as Q4_K (``Q4_K/scaleMin(_:_:)``)
///     offset 16   u8   qh[32]      bit s of qh[l] = fifth bit of weight l of sub-block s
///     offset 48   u8   qs[128]     low 4 bits, arranged as Q4_K's qs
///
/// weight = d * scale[s] * (nibble | highBit << 4) - dmin * min[s]. Dotted with Q8_K activations.
public enum Q5_K: TensorFormat {
    public static let type = GGMLType.q5_K
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var dminOffset: Int { 2 }
    @inlinable public static var scalesOffset: Int { 4 }
    @inlinable public static var qhOffset: Int { 16 }
    @inlinable public static var qsOffset: Int { 48 }
    @inlinable public static var layoutBytes: Int { qsOffset + 128 }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        let dmin = block.loadHalf(fromByteOffset: dminOffset)
        let scales = block + scalesOffset
        for chunk in 0..<4 {
            let (sc0, m0) = Q4_K.scaleMin(2 * chunk, scales)
            let (sc1, m1) = Q4_K.scaleMin(2 * chunk + 1, scales)
            let d0 = d * Float(sc0), min0 = dmin * Float(m0)
            let d1 = d * Float(sc1), min1 = dmin * Float(m1)
            let y = out + 64 * chunk
            for l in 0..<32 {
                let q = block.load(fromByteOffset: qsOffset + 32 * chunk + l, as: UInt8.self)
                let h = block.load(fromByteOffset: qhOffset + l, as: UInt8.self) >> UInt8(2 * chunk)
                y[l] = d0 * Float((q & 0x0F) | (h & 1) << 4) - min0
                y[l + 32] = d1 * Float((q >> 4) | (h & 2) << 3) - min1
            }
        }
    }
}
