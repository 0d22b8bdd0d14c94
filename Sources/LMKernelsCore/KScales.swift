/// Q4_K/Q5_K's 8 six-bit sub-scales and sub-mins unpacked from their 12 packed bytes (ggml's
/// `get_scale_min_k4`, done four at a time with 32-bit masks): byte `g` of `scales`/`mins`.
public struct KScales {
    @usableFromInline let scales: UInt64
    @usableFromInline let mins: UInt64

    @inlinable @inline(__always)
    public init(_ q: UnsafeRawPointer) {
        let u0 = q.loadUnaligned(as: UInt32.self)
        let u1 = q.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        let u2 = q.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        let low6: UInt32 = 0x3f3f_3f3f, low4: UInt32 = 0x0f0f_0f0f, low2: UInt32 = 0x0303_0303
        // Groups 0..<4 keep the low 6 bits of bytes 0..<4 (scales) and 4..<8 (mins); groups 4..<8
        // take 4 bits from bytes 8..<12 and their top 2 bits from the top of bytes 0..<8.
        let sc0 = u0 & low6, m0 = u1 & low6
        let sc1 = (u2 & low4) | ((u0 >> 6) & low2) << 4
        let m1 = ((u2 >> 4) & low4) | ((u1 >> 6) & low2) << 4
        scales = UInt64(sc0) | UInt64(sc1) << 32
        mins = UInt64(m0) | UInt64(m1) << 32
    }

    @inlinable @inline(__always)
    public func scale(_ g: Int) -> Int16 { Int16(truncatingIfNeeded: (scales >> UInt64(8 * g)) & 0xff) }

    /// `Σ_g min_g * sums[g]` over the 8 groups.
    @inlinable @inline(__always)
    public func minDot(_ sums: UnsafePointer<Int16>) -> Int32 {
        let m = widen8(unsafeBitCast(mins, to: SIMD8<UInt8>.self))
        let s = UnsafeRawPointer(sums).loadUnaligned(as: SIMD8<Int16>.self)
        var r = SIMD4<Int32>()
        for i in 0..<4 {
            r[i] = Int32(m[2 * i]) &* Int32(s[2 * i]) &+ Int32(m[2 * i + 1]) &* Int32(s[2 * i + 1])
        }
        return r[0] &+ r[1] &+ r[2] &+ r[3]
    }
}

@usableFromInline @inline(__always)
func widen8(_ v: SIMD8<UInt8>) -> SIMD8<Int16> {
    var r = SIMD8<Int16>()
    for i in 0..<8 { r[i] = Int16(truncatingIfNeeded: v[i]) }
    return r
}
