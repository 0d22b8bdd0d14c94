/// The 8×8 transpose of 32-bit lanes: `columns[k][r] == rows[r][k]`. Three rounds of pairwise
/// unzips (even and odd lanes of two vectors concatenated), each moving one bit of the lane index
/// into the vector index, so it stays in registers as shuffles (no per-lane extracts and stores).
@inlinable @inline(__always)
public func transpose8(_ v0: SIMD8<UInt32>, _ v1: SIMD8<UInt32>, _ v2: SIMD8<UInt32>, _ v3: SIMD8<UInt32>,
                       _ v4: SIMD8<UInt32>, _ v5: SIMD8<UInt32>, _ v6: SIMD8<UInt32>, _ v7: SIMD8<UInt32>)
    -> (SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>) {
    @inline(__always) func unzip(_ a: SIMD8<UInt32>, _ b: SIMD8<UInt32>) -> (SIMD8<UInt32>, SIMD8<UInt32>) {
        let c = SIMD16(lowHalf: a, highHalf: b)
        return (c.evenHalf, c.oddHalf)
    }
    let (a0, a1) = unzip(v0, v1), (a2, a3) = unzip(v2, v3), (a4, a5) = unzip(v4, v5), (a6, a7) = unzip(v6, v7)
    let (b0, b2) = unzip(a0, a2), (b1, b3) = unzip(a1, a3), (b4, b6) = unzip(a4, a6), (b5, b7) = unzip(a5, a7)
    let (c0, c4) = unzip(b0, b4), (c1, c5) = unzip(b1, b5), (c2, c6) = unzip(b2, b6), (c3, c7) = unzip(b3, b7)
    return (c0, c1, c2, c3, c4, c5, c6, c7)
}
