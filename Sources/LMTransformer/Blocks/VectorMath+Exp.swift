extension VectorMath {
    /// e^x lane by lane, with Cephes `expf`'s range reduction and polynomial (relative error about
    /// 1e-7); 0 below -87.3 (including -inf), where e^x is no longer a normal Float. Lane loops
    /// without calls, so it vectorises where `expf` is a library call per element.
    @inline(__always)
    static func exp(_ x: SIMD8<Float>) -> SIMD8<Float> {
        var r = SIMD8<Float>()
        for i in 0..<8 {
            let xi = Swift.min(Swift.max(x[i], -87.3), 88.3)
            // Round x·log2(e) to an integer n by adding 1.5·2^23; n is then in the low mantissa bits.
            let shifted = xi * 1.442_695_04 + 12_582_912
            let n = shifted - 12_582_912
            let exponent = UInt32(bitPattern: Int32(bitPattern: shifted.bitPattern) &- 0x4B40_0000 &+ 127) &<< 23
            let f = xi - n * 0.693_359_375 + n * 2.121_944_4e-4
            var p: Float = 1.987_569_15e-4
            p = p * f + 1.398_199_950_7e-3
            p = p * f + 8.333_451_907_3e-3
            p = p * f + 4.166_579_589_4e-2
            p = p * f + 1.666_666_545_9e-1
            p = p * f + 5.000_000_120_1e-1
            let y = (p * f * f + f + 1) * Float(bitPattern: exponent)
            r[i] = x[i] < -87.3 ? 0 : y
        }
        return r
    }

    /// Largest lane.
    @inline(__always)
    static func maxLane(_ v: SIMD8<Float>) -> Float {
        let h = v.lowHalf.replacing(with: v.highHalf, where: v.highHalf .> v.lowHalf)
        return Swift.max(Swift.max(h[0], h[1]), Swift.max(h[2], h[3]))
    }
}
