// Small always-inlined SIMD building blocks shared by the dot kernels.
//
// Written as element loops of at most 16 lanes: LLVM turns these into single vector instructions
// (pmovsx/pmaddwd/cvtdq2ps...) in both the baseline x86-64 and the x86-64-v3 builds, whereas the
// stdlib's generic SIMD conversion initialisers are not always inlined (a call per element).

@inline(__always)
func loadI8x16(_ p: UnsafeRawPointer) -> SIMD16<Int8> {
    p.loadUnaligned(as: SIMD16<Int8>.self)
}

@inline(__always)
func loadU8x16(_ p: UnsafeRawPointer) -> SIMD16<UInt8> {
    p.loadUnaligned(as: SIMD16<UInt8>.self)
}

/// Sign-extends 16 bytes to 16 Int16 lanes.
@inline(__always)
func widen(_ v: SIMD16<Int8>) -> SIMD16<Int16> {
    var r = SIMD16<Int16>()
    for i in 0..<16 { r[i] = Int16(v[i]) }
    return r
}

/// Zero-extends 16 bytes to 16 Int16 lanes.
@inline(__always)
func widen(_ v: SIMD16<UInt8>) -> SIMD16<Int16> {
    var r = SIMD16<Int16>()
    for i in 0..<16 { r[i] = Int16(truncatingIfNeeded: v[i]) }
    return r
}

/// `r[i] = a[2i]*b[2i] + a[2i+1]*b[2i+1]` in Int32 (x86 `pmaddwd`).
@inline(__always)
func maddPairs(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
    var r = SIMD8<Int32>()
    for i in 0..<8 {
        r[i] = Int32(a[2 * i]) &* Int32(b[2 * i]) &+ Int32(a[2 * i + 1]) &* Int32(b[2 * i + 1])
    }
    return r
}

@inline(__always)
func toFloat(_ v: SIMD8<Int32>) -> SIMD8<Float> {
    var r = SIMD8<Float>()
    for i in 0..<8 { r[i] = Float(v[i]) }
    return r
}

@inline(__always)
func horizontalSum(_ v: SIMD8<Float>) -> Float {
    let h = v.lowHalf + v.highHalf
    let q = h.lowHalf + h.highHalf
    return q[0] + q[1]
}

@inline(__always)
func horizontalSum(_ v: SIMD8<Int32>) -> Int32 {
    let h = v.lowHalf &+ v.highHalf
    let q = h.lowHalf &+ h.highHalf
    return q[0] &+ q[1]
}

/// IEEE binary16 bits to Float with integer operations only (no F16C, no libcall). Exact for all
/// finite values and subnormals; infinities and NaNs map to infinities and NaNs. Unlike the
/// reference `halfToFloat` it has a single select, so 8-lane loops of it vectorise.
@inline(__always)
func f16(_ h: UInt16) -> Float {
    let sign = UInt32(h & 0x8000) << 16
    let magnitude = UInt32(h & 0x7fff)
    // Shifting the exponent+mantissa into float position and scaling by 2^112 re-biases normals
    // and renormalises subnormals in one multiply.
    var f = Float(bitPattern: magnitude << 13) * 0x1p112
    if magnitude >= 0x7c00 { f = Float(bitPattern: 0x7f80_0000 | (magnitude & 0x3ff) << 13) }
    return Float(bitPattern: f.bitPattern | sign)
}

@inline(__always)
func loadF16(_ p: UnsafeRawPointer, _ offset: Int = 0) -> Float {
    f16(p.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
}
