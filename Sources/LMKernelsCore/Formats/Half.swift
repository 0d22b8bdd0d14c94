/// IEEE 754 binary16 ("half", GGUF F16) and bfloat16 (GGUF BF16) conversions by bit manipulation,
/// so no per-element library call is needed on CPUs without F16C.

/// The `Float` equal to the half-precision value with bit pattern `bits`.
///
/// Exact for zeros, subnormals, normals and infinities. A NaN keeps its sign and payload and comes
/// back quiet (quiet bit set), as the F16C `vcvtph2ps` instruction and compiler-rt do.
@inlinable @inline(__always)
public func halfToFloat(_ bits: UInt16) -> Float {
    let sign = UInt32(bits & 0x8000) << 16
    let magnitude = UInt32(bits & 0x7FFF)
    if magnitude >= 0x7C00 {
        // Infinity or NaN: all-ones exponent; a NaN's payload moves up 13 bits and is made quiet.
        let quiet: UInt32 = magnitude > 0x7C00 ? 0x0040_0000 : 0
        return Float(bitPattern: sign | 0x7F80_0000 | ((magnitude & 0x3FF) << 13) | quiet)
    }
    if magnitude >= 0x0400 {
        // Normal: rebias the exponent from 15 to 127 (add 112 << 23) and widen the mantissa.
        return Float(bitPattern: sign | ((magnitude << 13) &+ 0x3800_0000))
    }
    // Zero or subnormal: mantissa * 2^-24, exact in Float.
    return Float(bitPattern: sign | (Float(magnitude) * 0x1p-24).bitPattern)
}

/// The half-precision bit pattern nearest to `value`, ties to even (IEEE default rounding, as
/// F16C `vcvtps2ph` with rounding mode 0 and ggml's `GGML_FP32_TO_FP16`).
///
/// Values of magnitude at least 65520 become infinity; a NaN stays NaN (quiet, sign and the top
/// payload bits kept).
@inlinable @inline(__always)
public func floatToHalf(_ value: Float) -> UInt16 {
    let bits = value.bitPattern
    let sign = UInt16(truncatingIfNeeded: (bits >> 16) & 0x8000)
    let magnitude = bits & 0x7FFF_FFFF
    if magnitude > 0x7F80_0000 {
        return sign | 0x7E00 | UInt16(truncatingIfNeeded: (magnitude >> 13) & 0x3FF)
    }
    let exponent = Int(magnitude >> 23)          // biased by 127
    if exponent >= 143 { return sign | 0x7C00 }   // |value| >= 2^16, or infinity
    if exponent >= 113 {
        // Normal half. A carry out of the mantissa bumps the exponent, up to infinity: still right.
        var half = UInt32(exponent - 112) << 10 | (magnitude >> 13) & 0x3FF
        let rest = magnitude & 0x1FFF
        if rest > 0x1000 || (rest == 0x1000 && half & 1 == 1) { half += 1 }
        return sign | UInt16(truncatingIfNeeded: half)
    }
    if exponent < 102 { return sign }              // below half the smallest subnormal (2^-25)
    // Subnormal half: the significand with its implicit bit, shifted down to units of 2^-24.
    let significand = (magnitude & 0x7F_FFFF) | 0x80_0000
    let shift = UInt32(126 - exponent)             // 14...24
    var half = significand >> shift
    let rest = significand & ((1 << shift) - 1)
    let halfway: UInt32 = 1 << (shift - 1)
    if rest > halfway || (rest == halfway && half & 1 == 1) { half += 1 }
    return sign | UInt16(truncatingIfNeeded: half)
}

/// The `Float` whose top 16 bits are `bits` (bfloat16 is a truncated binary32; exact).
@inlinable @inline(__always)
public func bf16ToFloat(_ bits: UInt16) -> Float {
    Float(bitPattern: UInt32(bits) << 16)
}

/// The bfloat16 bit pattern nearest to `value`, ties to even, as ggml's
/// `ggml_compute_fp32_to_bf16`: a NaN is made quiet, subnormals are kept.
@inlinable @inline(__always)
public func floatToBF16(_ value: Float) -> UInt16 {
    let bits = value.bitPattern
    if bits & 0x7FFF_FFFF > 0x7F80_0000 {
        return UInt16(truncatingIfNeeded: bits >> 16) | 0x0040
    }
    let rounded = UInt64(bits) + 0x7FFF + UInt64((bits >> 16) & 1)
    return UInt16(truncatingIfNeeded: rounded >> 16)
}

extension UnsafeRawPointer {
    /// Reads the little-endian half at `offset` bytes (any alignment) as a `Float`.
    @inline(__always)
    public func loadHalf(fromByteOffset offset: Int) -> Float {
        halfToFloat(UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }
}

extension UnsafeMutableRawPointer {
    /// Writes `value` as a little-endian half (rounded to nearest even) at `offset` bytes.
    @inline(__always)
    public func storeHalf(_ value: Float, toByteOffset offset: Int) {
        storeBytes(of: floatToHalf(value).littleEndian, toByteOffset: offset, as: UInt16.self)
    }
}

/// Eight halves to `Float`s with integer operations and one multiply per lane, lane by lane equal
/// to ``halfToFloat(_:)-(UInt16)`` (zeros, subnormals, normals, infinities, NaNs made quiet).
///
/// For hot loops over half-precision data (the KV cache): whole-vector operations without
/// branches, so it stays vector code when inlined into a loop on baseline x86-64, where
/// `Float(Float16)` is a library call per element. `@inlinable` so other modules inline it.
@inlinable @inline(__always)
public func halfToFloat(_ bits: SIMD8<UInt16>) -> SIMD8<Float> {
    let h = SIMD8<UInt32>(truncatingIfNeeded: bits)
    // Sign to bit 31, exponent and mantissa to their Float places; multiplying by 2^112
    // re-biases the exponent from 15 to 127 and renormalises subnormals, exactly.
    let b = (h & 0x8000) &<< 16 | (h & 0x7FFF) &<< 13
    let finite = unsafeBitCast(unsafeBitCast(b, to: SIMD8<Float>.self) * 0x1p112, to: SIMD8<UInt32>.self)
    // All-ones exponent: infinity, or NaN made quiet (bit 22 set when the mantissa is non-zero).
    let special = b | 0x7F80_0000 | (((h & 0x3FF) &+ 0x3FF) & 0x400) &<< 12
    // All ones in lanes whose exponent is all ones: (exponent bits + 0x400) reaches bit 15 only then.
    let isSpecial = SIMD8<UInt32>() &- (((h & 0x7C00) &+ 0x400) &>> 15)
    return unsafeBitCast(special & isSpecial | finite & ~isSpecial, to: SIMD8<Float>.self)
}

/// Eight halves to `Float`s, exact for finite halves (zeros, subnormals, normals) and cheaper than
/// ``halfToFloat(_:)-(SIMD8<UInt16>)``: an infinity or NaN comes back as a finite value (2^16 or
/// more), so use it only on data known to be finite (the KV cache tracks that per layer).
@inlinable @inline(__always)
public func halfToFloatFinite(_ bits: SIMD8<UInt16>) -> SIMD8<Float> {
    // Sign-extending puts the sign in bit 31 after the shift; exponent and mantissa land in their
    // Float places once the sign copies between them are masked off. Multiplying by 2^112
    // re-biases the exponent from 15 to 127 and renormalises subnormals, exactly.
    let h = SIMD8<Int32>(truncatingIfNeeded: unsafeBitCast(bits, to: SIMD8<Int16>.self))
    let b = unsafeBitCast(h &<< 13, to: SIMD8<UInt32>.self) & 0x8FFF_E000
    return unsafeBitCast(b, to: SIMD8<Float>.self) * 0x1p112
}

/// Eight `Float`s to half bit patterns, lane by lane equal to ``floatToHalf(_:)-(Float)`` (ties to
/// even, overflow to infinity, subnormals, NaNs kept quiet with their top payload bits), with
/// integer and float vector operations only, for storing rows of the KV cache.
@inlinable @inline(__always)
public func floatToHalf(_ v: SIMD8<Float>) -> SIMD8<UInt16> {
    let bits = unsafeBitCast(v, to: SIMD8<UInt32>.self)
    let sign = (bits &>> 16) & 0x8000
    let magnitude = bits & 0x7FFF_FFFF
    // Normal halves: rebias the exponent (127 -> 15) and round the 13 dropped bits to even; a
    // carry out of the mantissa correctly bumps the exponent.
    let rebased = magnitude &- 0x3800_0000
    let normal = (rebased &+ 0xFFF &+ ((rebased &>> 13) & 1)) &>> 13
    // Subnormal halves (|x| < 2^-14): adding 0.5 leaves the FPU to round |x| to a multiple of 2^-24
    // (the ulp of [0.5, 1)), ties to even; the difference of the bit patterns is that multiple.
    let tiny = unsafeBitCast(unsafeBitCast(magnitude, to: SIMD8<Float>.self) + 0.5, to: SIMD8<UInt32>.self) &- 0x3F00_0000
    let nan = 0x7E00 | (magnitude &>> 13) & 0x3FF
    @inline(__always) func lanes(_ m: SIMDMask<SIMD8<Int32>>) -> SIMD8<UInt32> { unsafeBitCast(m, to: SIMD8<UInt32>.self) }
    let isSubnormal = lanes(magnitude .< 0x3880_0000)
    let isOverflow = lanes(magnitude .>= 0x477F_F000)
    let isNaN = lanes(magnitude .> 0x7F80_0000)
    var r = tiny & isSubnormal | normal & ~isSubnormal
    r = 0x7C00 & isOverflow | r & ~isOverflow
    r = nan & isNaN | r & ~isNaN
    return SIMD8<UInt16>(truncatingIfNeeded: r | sign)
}
