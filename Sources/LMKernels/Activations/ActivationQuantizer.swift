import LMKernelsCore

// Fast per-block activation quantizers. Each produces exactly ggml's reference values
// (`quantize_row_q8_0_ref`, `quantize_row_q8_1_ref`, `quantize_row_q8_K_ref`), using 16-lane
// element loops that vectorise, integer tricks for rounding (no per-lane libm calls), and
// Float scales rounded through f16 where ggml stores f16. Quants are stored as Int16 in the
// even/odd order of ``QuantizedActivations``.

enum ActivationQuantizer {
    /// 32 floats -> 32 Int8 and `d` (f16-rounded), as ggml's Q8_0, and `Σq` (for the kernels that
    /// offset unsigned weights: `Σ(w - o)·q = Σw·q - o·Σq`).
    @inline(__always)
    static func q8_0Block(_ x: UnsafePointer<Float>, quants: UnsafeMutablePointer<Int16>,
                          bytes: UnsafeMutablePointer<Int8>, scale: UnsafeMutablePointer<Float>,
                          sum: UnsafeMutablePointer<Int16>) {
        let d = blockQuantize32(x, quants, bytes)
        let ones = SIMD16<Int16>(repeating: 1)
        sum.pointee = Int16(truncatingIfNeeded: horizontalSum(maddPairs(loadI16x16(quants), ones) &+ maddPairs(loadI16x16(quants + 16), ones)))
        scale.pointee = roundedToF16(d)
    }

    /// 32 floats -> 32 Int8, `d` and `s = d * Σq` (both f16-rounded), as ggml's Q8_1.
    @inline(__always)
    static func q8_1Block(_ x: UnsafePointer<Float>, quants: UnsafeMutablePointer<Int16>,
                          bytes: UnsafeMutablePointer<Int8>,
                          scale: UnsafeMutablePointer<Float>, sum: UnsafeMutablePointer<Float>) {
        let d = blockQuantize32(x, quants, bytes)
        let ones = SIMD16<Int16>(repeating: 1)
        let total = horizontalSum(maddPairs(loadI16x16(quants), ones) &+ maddPairs(loadI16x16(quants + 16), ones))
        scale.pointee = roundedToF16(d)
        sum.pointee = roundedToF16(Float(total) * d)
    }

    /// 256 floats -> 256 Int8, Float `d` and 16 sums of 16 quants, as ggml's Q8_K
    /// (`iscale = -127 / max` where `max` is the signed value of largest magnitude, round to
    /// nearest even, clamp at 127). The quants also go to `bytes` in natural order.
    @inline(__always)
    static func q8_KBlock(_ x: UnsafePointer<Float>, quants: UnsafeMutablePointer<Int16>,
                          bytes: UnsafeMutablePointer<Int8>, scale: UnsafeMutablePointer<Float>,
                          bsums: UnsafeMutablePointer<Int16>, groupSums: UnsafeMutablePointer<Int16>) {
        // Largest |x| and the first signed value reaching it (ggml keeps the first on ties).
        var amax: Float = 0
        var maxValue: Float = 0
        var vmax = SIMD16<Float>()
        for c in 0..<16 { vmax = maxLanes(vmax, absLanes(load16(x + c * 16))) }
        amax = reduceMax(vmax)
        if amax == 0 {
            scale.pointee = 0
            quants.update(repeating: 0, count: 256)
            bytes.update(repeating: 0, count: 256)
            for j in 0..<16 { bsums[j] = 0 }
            for j in 0..<8 { groupSums[j] = 0 }
            return
        }
        for j in 0..<256 where abs(x[j]) == amax { maxValue = x[j]; break }
        let iscale = -127 / maxValue
        let v = SIMD16<Float>(repeating: iscale)
        let top = SIMD16<Int32>(repeating: 127), ones = SIMD16<Int16>(repeating: 1)
        for g in 0..<8 {
            let qa = minLanes(roundEven(load16(x + g * 32) * v), top)
            let qb = minLanes(roundEven(load16(x + g * 32 + 16) * v), top)
            storeEvenOdd(qa, qb, quants + g * 32)
            storeBytes(qa, bytes + g * 32)
            storeBytes(qb, bytes + g * 32 + 16)
            bsums[2 * g] = Int16(truncatingIfNeeded: horizontalSum(maddPairs(narrow(qa), ones)))
            bsums[2 * g + 1] = Int16(truncatingIfNeeded: horizontalSum(maddPairs(narrow(qb), ones)))
        }
        for j in 0..<8 { groupSums[j] = bsums[2 * j] &+ bsums[2 * j + 1] }
        scale.pointee = 1 / iscale
    }

    /// Shared Q8_0/Q8_1 core: writes `round(x / d)` (ties away from zero, like `roundf`) and
    /// returns the unrounded `d = max|x| / 127`. The quants also go to `bytes` in natural order for
    /// the byte-multiply kernels.
    @inline(__always)
    static func blockQuantize32(_ x: UnsafePointer<Float>, _ quants: UnsafeMutablePointer<Int16>,
                                _ bytes: UnsafeMutablePointer<Int8>) -> Float {
        let a = load16(x)
        let b = load16(x + 16)
        let amax = reduceMax(maxLanes(absLanes(a), absLanes(b)))
        let d = amax / 127
        let id: Float = d != 0 ? 1 / d : 0
        let qa = roundAway(a * id), qb = roundAway(b * id)
        storeEvenOdd(qa, qb, quants)
        storeBytes(qa, bytes)
        storeBytes(qb, bytes + 16)
        return d
    }
}

@inline(__always)
private func load16(_ p: UnsafePointer<Float>) -> SIMD16<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self)
}

@inline(__always)
private func absLanes(_ v: SIMD16<Float>) -> SIMD16<Float> {
    var r = SIMD16<Float>()
    for i in 0..<16 { r[i] = Float(bitPattern: v[i].bitPattern & 0x7fff_ffff) }
    return r
}

/// Lane-wise maximum (an element loop: `pointwiseMax` did not inline).
@inline(__always)
private func maxLanes<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar == Float {
    var r = V()
    for i in 0..<V.scalarCount { r[i] = a[i] > b[i] ? a[i] : b[i] }
    return r
}

@inline(__always)
private func minLanes(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
    var r = SIMD16<Int32>()
    for i in 0..<16 { r[i] = a[i] < b[i] ? a[i] : b[i] }
    return r
}

/// Largest lane, as a tree of lane-wise maxima (a scalar loop with a branch per lane would not
/// vectorise).
@inline(__always)
private func reduceMax(_ v: SIMD16<Float>) -> Float {
    let m8 = maxLanes(v.lowHalf, v.highHalf)
    let m4 = maxLanes(m8.lowHalf, m8.highHalf)
    let m2 = m4.lowHalf.max() > m4.highHalf.max() ? m4.lowHalf : m4.highHalf
    return m2.max()
}

// The rounding helpers use whole-vector operators on bit-cast vectors: written as element loops
// with these bodies, LLVM kept them scalar (each lane stored to and reloaded from the stack).

/// Round to nearest, ties to even, for |x| < 2^22 (the 1.5 * 2^23 magic-number trick, as ggml's
/// `nearest_int`).
@inline(__always)
private func roundEven(_ v: SIMD16<Float>) -> SIMD16<Int32> {
    unsafeBitCast(v + 12_582_912, to: SIMD16<Int32>.self) &- 0x4B40_0000
}

/// Round to nearest, ties away from zero (C `roundf`), for |x| < 2^22, without compares: round
/// |x| to nearest even with the 2^23 magic number, add one where that dropped an exact half (only
/// ties round differently), then restore the sign.
@inline(__always)
private func roundAway(_ v: SIMD16<Float>) -> SIMD16<Int32> {
    let bits = unsafeBitCast(v, to: SIMD16<Int32>.self)
    let y = unsafeBitCast(bits & 0x7fff_ffff, to: SIMD16<Float>.self)
    let m = y + 8_388_608
    let q = unsafeBitCast(m, to: SIMD16<Int32>.self) &- 0x4B00_0000
    let half = unsafeBitCast(y - (m - 8_388_608), to: SIMD16<Int32>.self) ^ 0x3F00_0000  // 0 iff y - q == 0.5
    let tie = 1 &+ ((half | (0 &- half)) &>> 31)
    let negative = bits &>> 31
    return ((q &+ tie) ^ negative) &- negative
}

/// Stores quants `0..<16` (`a`) and `16..<32` (`b`) of a 32-block in even/odd order: the 16
/// even-indexed quants, then the 16 odd-indexed ones.
@inline(__always)
private func storeEvenOdd(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>, _ out: UnsafeMutablePointer<Int16>) {
    var even = SIMD16<Int16>(), odd = SIMD16<Int16>()
    for i in 0..<8 {
        even[i] = Int16(truncatingIfNeeded: a[2 * i])
        even[i + 8] = Int16(truncatingIfNeeded: b[2 * i])
        odd[i] = Int16(truncatingIfNeeded: a[2 * i + 1])
        odd[i + 8] = Int16(truncatingIfNeeded: b[2 * i + 1])
    }
    UnsafeMutableRawPointer(out).storeBytes(of: even, as: SIMD16<Int16>.self)
    UnsafeMutableRawPointer(out + 16).storeBytes(of: odd, as: SIMD16<Int16>.self)
}

@inline(__always)
private func storeBytes(_ v: SIMD16<Int32>, _ out: UnsafeMutablePointer<Int8>) {
    var r = SIMD16<Int8>()
    for i in 0..<16 { r[i] = Int8(truncatingIfNeeded: v[i]) }
    UnsafeMutableRawPointer(out).storeBytes(of: r, as: SIMD16<Int8>.self)
}

@inline(__always)
private func narrow(_ v: SIMD16<Int32>) -> SIMD16<Int16> {
    var r = SIMD16<Int16>()
    for i in 0..<16 { r[i] = Int16(truncatingIfNeeded: v[i]) }
    return r
}

/// `x` rounded to the nearest binary16 value (ties to even), as Float: the value ggml stores.
@inline(__always)
func roundedToF16(_ x: Float) -> Float { halfToFloat(floatToHalf(x)) }
