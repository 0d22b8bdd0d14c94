/// e^x lane by lane, with Cephes `expf`'s range reduction and polynomial (relative error about
/// 1e-7); 0 below -87.3 (including -inf), where e^x is no longer a normal Float. Whole-vector
/// operations without calls or branches, so it stays vector code (compiled for each kernel
/// module's instruction set) where `expf` is a library call per element.
@inlinable @inline(__always)
public func vectorExp(_ x: SIMD8<Float>) -> SIMD8<Float> {
    let lo = SIMD8<Float>(repeating: -87.3), hi = SIMD8<Float>(repeating: 88.3)
    let tooSmall = x .< lo
    let clampedLow = laneSelect(tooSmall, lo, x)
    let xc = laneSelect(clampedLow .> hi, hi, clampedLow)
    // n = round(x·log2 e) by adding 1.5·2^23, which also leaves n in the low mantissa bits.
    let shifted = xc * 1.442_695_04 + 12_582_912
    let n = shifted - 12_582_912
    let scale = unsafeBitCast((unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000 &+ 127) &<< 23, to: SIMD8<Float>.self)
    let f = xc - n * 0.693_359_375 + n * 2.121_944_4e-4
    var p = SIMD8<Float>(repeating: 1.987_569_15e-4)
    p = p * f + 1.398_199_950_7e-3
    p = p * f + 8.333_451_907_3e-3
    p = p * f + 4.166_579_589_4e-2
    p = p * f + 1.666_666_545_9e-1
    p = p * f + 5.000_000_120_1e-1
    return laneSelect(tooSmall, SIMD8<Float>(), (p * f * f + f + 1) * scale)
}

/// `a` where `mask` is set, else `b`, by bit operations (the stdlib's `replacing(with:where:)`
/// is not always inlined).
@inlinable @inline(__always)
public func laneSelect(_ mask: SIMDMask<SIMD8<Int32>>, _ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    let m = unsafeBitCast(mask, to: SIMD8<Int32>.self)
    return unsafeBitCast(unsafeBitCast(a, to: SIMD8<Int32>.self) & m | unsafeBitCast(b, to: SIMD8<Int32>.self) & ~m,
                         to: SIMD8<Float>.self)
}

/// Largest lane.
@inlinable @inline(__always)
public func maxLane(_ v: SIMD8<Float>) -> Float {
    Swift.max(Swift.max(Swift.max(v[0], v[1]), Swift.max(v[2], v[3])),
              Swift.max(Swift.max(v[4], v[5]), Swift.max(v[6], v[7])))
}
