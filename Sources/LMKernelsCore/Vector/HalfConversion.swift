/// How a kernel module widens half-precision lanes (the KV cache) to `Float`: with F16C's
/// `vcvtph2ps` where the module is compiled for it, else with integer operations.
public protocol HalfConversion {
    /// Eight halves as `Float`s, exact for every finite half (zeros, subnormals, normals).
    static func floats(_ h: SIMD8<UInt16>) -> SIMD8<Float>
    /// Eight `Float`s as half bit patterns, lane by lane equal to ``floatToHalf(_:)-(Float)`` (ties
    /// to even, overflow to infinity, NaNs quiet).
    static func halves(_ f: SIMD8<Float>) -> SIMD8<UInt16>
}

/// Rows of `Float`s to halves with one conversion (for the KV cache).
public enum HalfRows<H: HalfConversion> {
    /// `dst[i] = half(src[i])` for `i < count`; returns whether some half is an infinity or NaN.
    @inlinable @inline(__always)
    public static func convert(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<UInt16>, count: Int) -> Bool {
        var exponents = SIMD8<UInt16>()
        var i = 0
        while i + 8 <= count {
            let h = H.halves(UnsafeRawPointer(src + i).loadUnaligned(as: SIMD8<Float>.self))
            exponents |= h & 0x7C00 &+ 0x0400   // bit 15 set only where the exponent was all ones
            UnsafeMutableRawPointer(dst + i).storeBytes(of: h, as: SIMD8<UInt16>.self)
            i += 8
        }
        var tail: UInt16 = 0
        while i < count {
            dst[i] = floatToHalf(src[i])
            tail |= dst[i] & 0x7C00 &+ 0x0400
            i += 1
        }
        return (exponents | SIMD8(repeating: tail)) & 0x8000 != SIMD8()
    }
}

/// ``halfToFloatFinite(_:)``: integer operations and one multiply, any baseline.
public enum PortableHalves: HalfConversion {
    @inlinable @inline(__always)
    public static func floats(_ h: SIMD8<UInt16>) -> SIMD8<Float> { halfToFloatFinite(h) }

    @inlinable @inline(__always)
    public static func halves(_ f: SIMD8<Float>) -> SIMD8<UInt16> { floatToHalf(f) }
}
