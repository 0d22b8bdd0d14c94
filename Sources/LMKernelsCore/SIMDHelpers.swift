// Small always-inlined SIMD building blocks shared by the dot kernels and quantizers.
//
// Written as element loops of at most 16 lanes: LLVM turns these into vector instructions
// (pmaddwd, cvtdq2ps, ...) in both the baseline x86-64 and the x86-64-v3 builds, whereas the
// stdlib's generic SIMD conversion initialisers are not always inlined (a call per element).

@inlinable @inline(__always)
public func loadI16x16(_ p: UnsafePointer<Int16>) -> SIMD16<Int16> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int16>.self)
}

/// `r[i] = a[2i]*b[2i] + a[2i+1]*b[2i+1]` in Int32 (x86 `pmaddwd`).
@inlinable @inline(__always)
public func maddPairs(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
    var r = SIMD8<Int32>()
    for i in 0..<8 {
        r[i] = Int32(a[2 * i]) &* Int32(b[2 * i]) &+ Int32(a[2 * i + 1]) &* Int32(b[2 * i + 1])
    }
    return r
}

@inlinable @inline(__always)
public func toFloat(_ v: SIMD8<Int32>) -> SIMD8<Float> {
    var r = SIMD8<Float>()
    for i in 0..<8 { r[i] = Float(v[i]) }
    return r
}

@inlinable @inline(__always)
public func horizontalSum(_ v: SIMD8<Float>) -> Float {
    let h = v.lowHalf + v.highHalf
    let q = h.lowHalf + h.highHalf
    return q[0] + q[1]
}

@inlinable @inline(__always)
public func horizontalSum(_ v: SIMD8<Int32>) -> Int32 {
    let h = v.lowHalf &+ v.highHalf
    let q = h.lowHalf &+ h.highHalf
    return q[0] &+ q[1]
}

/// IEEE binary16 bits to Float with integer operations and one multiply (no F16C, no libcall):
/// exact for all finite values including subnormals. Infinities and NaNs are not special-cased
/// (they become large finite values): block scales in a well-formed model are finite, and this
/// is the per-block hot path.
@inlinable @inline(__always)
public func f16(_ h: UInt16) -> Float {
    // Sign-extending puts the sign in bit 31 after the shift; exponent and mantissa land in
    // Float position (the mask clears the sign copies between them). Scaling by 2^112 re-biases
    // the exponent (and renormalises subnormals) in one exact multiply that keeps the sign.
    let b = UInt32(bitPattern: Int32(Int16(bitPattern: h)) &<< 13) & 0x8fff_e000
    return Float(bitPattern: b) * 0x1p112
}

/// `f16` with infinities and NaNs kept (one more select), for F16 weight values.
@inlinable @inline(__always)
public func f16Exact(_ h: UInt16) -> Float {
    let f = f16(h)
    let b = UInt32(h)
    return b & 0x7c00 == 0x7c00 ? Float(bitPattern: (b & 0x8000) << 16 | 0x7f80_0000 | (b & 0x3ff) << 13) : f
}

@inlinable @inline(__always)
public func loadF16(_ p: UnsafeRawPointer, _ offset: Int = 0) -> Float {
    f16(p.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
}
