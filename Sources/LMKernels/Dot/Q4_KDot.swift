/// Q4_K weights (4.5 bits/weight, 144 bytes per 256: f16 `d`, f16 `dmin`, 12 bytes of packed
/// 6-bit sub-scales and sub-mins for 8 groups of 32, 128 bytes of nibbles: bytes `32p..<32p+32`
/// hold group `2p` in their low and group `2p+1` in their high nibbles; value
/// `d * sc * q - dmin * m`) against Q8_K activations, as ggml's `ggml_vec_dot_q4_K_q8_K`: the min
/// term uses the activation's per-group sums.
enum Q4_KFormat: BlockFormat {
    typealias Lanes = SIMD4<Float>
    static var activationFormat: ActivationFormat { .q8_K }
    static var blockBytes: Int { 144 }
    static var groups: Int { 8 }
    static var hasOffset: Bool { true }

    @inline(__always)
    static func header(_ block: UnsafeRawPointer) -> KScales { KScales(block + 4) }

    @inline(__always)
    static func group(_ block: UnsafeRawPointer, _ header: KScales, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
        nibblePlanes32(block + 16 + 32 * (g >> 1), high: g & 1 == 1)
    }

    @inline(__always)
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: KScales, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> SIMD4<Float> {
        foldedDot(w, a) * Float(header.scale(g))
    }

    @inline(__always)
    static func scale(_ block: UnsafeRawPointer) -> Float { loadF16(block) }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ header: KScales, _ x: ActivationRow, _ b: Int) -> Float {
        -loadF16(block, 2) * x.scales[b] * Float(header.minDot(x.groupSums + 8 * b))
    }
}

/// Q4_K/Q5_K's 8 six-bit sub-scales and sub-mins unpacked from their 12 packed bytes (ggml's
/// `get_scale_min_k4`, done four at a time with 32-bit masks): byte `g` of `scales`/`mins`.
struct KScales {
    let scales: UInt64
    let mins: UInt64

    @inline(__always)
    init(_ q: UnsafeRawPointer) {
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

    @inline(__always)
    func scale(_ g: Int) -> Int16 { Int16(truncatingIfNeeded: (scales >> UInt64(8 * g)) & 0xff) }

    /// `Σ_g min_g * sums[g]` over the 8 groups.
    @inline(__always)
    func minDot(_ sums: UnsafePointer<Int16>) -> Int32 {
        let m = widen8(unsafeBitCast(mins, to: SIMD8<UInt8>.self))
        let s = UnsafeRawPointer(sums).loadUnaligned(as: SIMD8<Int16>.self)
        var r = SIMD4<Int32>()
        for i in 0..<4 {
            r[i] = Int32(m[2 * i]) &* Int32(s[2 * i]) &+ Int32(m[2 * i + 1]) &* Int32(s[2 * i + 1])
        }
        return r[0] &+ r[1] &+ r[2] &+ r[3]
    }
}

@inline(__always)
private func widen8(_ v: SIMD8<UInt8>) -> SIMD8<Int16> {
    var r = SIMD8<Int16>()
    for i in 0..<8 { r[i] = Int16(truncatingIfNeeded: v[i]) }
    return r
}
