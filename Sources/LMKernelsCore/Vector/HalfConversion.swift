/// How a kernel module widens half-precision lanes (the KV cache) to `Float`: with F16C's
/// `vcvtph2ps` where the module is compiled for it, else with integer operations.
public protocol HalfConversion {
    /// Eight halves as `Float`s, exact for every finite half (zeros, subnormals, normals).
    static func floats(_ h: SIMD8<UInt16>) -> SIMD8<Float>
}

/// ``halfToFloatFinite(_:)``: integer operations and one multiply, any baseline.
public enum PortableHalves: HalfConversion {
    @inlinable @inline(__always)
    public static func floats(_ h: SIMD8<UInt16>) -> SIMD8<Float> { halfToFloatFinite(h) }
}
