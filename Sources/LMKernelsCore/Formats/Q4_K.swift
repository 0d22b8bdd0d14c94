import LMGGUF

/// GGUF `Q4_K`, as ggml's `block_q4_K`: a super-block of 256 weights in 144 bytes (4.5 bits per
/// weight), split into 8 sub-blocks of 32 with 6-bit scales and mins.
///
///     offset 0    f16  d           scale of the sub-block scales
///     offset 2    f16  dmin        scale of the sub-block mins
///     offset 4    u8   scales[12]  8 six-bit scales and 8 six-bit mins, see `scaleMin(_:_:)`
///     offset 16   u8   qs[128]     4 chunks of 32 bytes; chunk c holds sub-block 2c in its low
///                                  nibbles and sub-block 2c + 1 in its high nibbles
///
/// weight = d * scale[s] * nibble - dmin * min[s] for sub-block s. Dotted with Q8_K activations.
public enum Q4_K: TensorFormat {
    public static let type = GGMLType.q4_K
    @inlinable public static var dOffset: Int { 0 }
    @inlinable public static var dminOffset: Int { 2 }
    @inlinable public static var scalesOffset: Int { 4 }
    @inlinable public static var qsOffset: Int { 16 }
    @inlinable public static var layoutBytes: Int { qsOffset + 128 }

    /// Six-bit scale and min of sub-block `j` (0..<8) from the 12 packed bytes at `scales`, as
    /// ggml's `get_scale_min_k4`. Bytes 0-3 hold scales 0-3 (low 6 bits) and the top 2 bits of
    /// scales 4-7; bytes 4-7 the same for mins; bytes 8-11 the low 4 bits of scale (low nibble)
    /// and min (high nibble) 4-7.
    @inline(__always)
    public static func scaleMin(_ j: Int, _ scales: UnsafeRawPointer) -> (scale: UInt8, min: UInt8) {
        @inline(__always) func byte(_ i: Int) -> UInt8 { scales.load(fromByteOffset: i, as: UInt8.self) }
        if j < 4 {
            return (byte(j) & 63, byte(j + 4) & 63)
        }
        return ((byte(j + 4) & 0x0F) | (byte(j - 4) >> 6) << 4,
                (byte(j + 4) >> 4) | (byte(j) >> 6) << 4)
    }

    public static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>) {
        let d = block.loadHalf(fromByteOffset: dOffset)
        let dmin = block.loadHalf(fromByteOffset: dminOffset)
        let scales = block + scalesOffset
        for chunk in 0..<4 {
            let (sc0, m0) = scaleMin(2 * chunk, scales)
            let (sc1, m1) = scaleMin(2 * chunk + 1, scales)
            let d0 = d * Float(sc0), min0 = dmin * Float(m0)
            let d1 = d * Float(sc1), min1 = dmin * Float(m1)
            let y = out + 64 * chunk
            for l in 0..<32 {
                let q = block.load(fromByteOffset: qsOffset + 32 * chunk + l, as: UInt8.self)
                y[l] = d0 * Float(q & 0x0F) - min0
                y[l + 32] = d1 * Float(q >> 4) - min1
            }
        }
    }
}
