#if arch(x86_64)
import LMKernelsCore

/// A K-quant format as the packed prefill tiles see it: on top of the row kernel's view
/// (``AVX2SuperBlockFormat``), its scales per 16 weights and its offset term as Int16 values
/// dotted with the activations' Int16 sums.
protocol AVX2PackedSuperBlockFormat: AVX2SuperBlockFormat {
    /// The largest unsigned weight of ``AVX2SuperBlockFormat/weights(_:_:)`` (15, 31 or 63): how
    /// many byte products fit an Int16 sum.
    static var maxUnsigned: Int { get }
    /// Sub-block `j`'s scale (weights `16j..<16j+16`) in lane `j`.
    static func subScales(_ header: Header) -> SIMD16<Int16>
    /// The offset's Int16 multipliers of ``offsetSums(_:_:)`` (Q4_K/Q5_K: the 8 mins of the
    /// groups; Q6_K: the 16 sub-scales), zero past their count.
    static func offsetValues(_ header: Header) -> SIMD16<Int16>
    /// How many lanes of ``offsetValues(_:)`` are used (8 or 16).
    static var offsetCount: Int { get }
    /// The activation sums the offset values meet in block `b` (per 32 or per 16 weights).
    static func offsetSums(_ x: ActivationRow, _ b: Int) -> UnsafePointer<Int16>
    /// The Float factor of the offset's integer dot on the weight side (`-dmin`, or `-32·d`).
    static func offsetScale(_ block: UnsafeRawPointer) -> Float
}

extension Q4_KAVX2: AVX2PackedSuperBlockFormat {
    static var maxUnsigned: Int { 15 }
    @inline(__always)
    static func subScales(_ h: KScales) -> SIMD16<Int16> {
        var r = SIMD16<Int16>()
        for j in 0..<16 { r[j] = h.scale(j >> 1) }
        return r
    }
    @inline(__always)
    static func offsetValues(_ h: KScales) -> SIMD16<Int16> {
        var r = SIMD16<Int16>()
        for g in 0..<8 { r[g] = h.min(g) }
        return r
    }
    static var offsetCount: Int { 8 }
    @inline(__always)
    static func offsetSums(_ x: ActivationRow, _ b: Int) -> UnsafePointer<Int16> { x.groupSums + 8 * b }
    @inline(__always)
    static func offsetScale(_ block: UnsafeRawPointer) -> Float { -AVX2.half(block, Q4_K.dminOffset) }
}

extension Q5_KAVX2: AVX2PackedSuperBlockFormat {
    static var maxUnsigned: Int { 31 }
    @inline(__always)
    static func subScales(_ h: KScales) -> SIMD16<Int16> { Q4_KAVX2.subScales(h) }
    @inline(__always)
    static func offsetValues(_ h: KScales) -> SIMD16<Int16> { Q4_KAVX2.offsetValues(h) }
    static var offsetCount: Int { 8 }
    @inline(__always)
    static func offsetSums(_ x: ActivationRow, _ b: Int) -> UnsafePointer<Int16> { x.groupSums + 8 * b }
    @inline(__always)
    static func offsetScale(_ block: UnsafeRawPointer) -> Float { -AVX2.half(block, Q5_K.dminOffset) }
}

extension Q6_KAVX2: AVX2PackedSuperBlockFormat {
    static var maxUnsigned: Int { 63 }
    @inline(__always)
    static func subScales(_ h: SIMD16<Int16>) -> SIMD16<Int16> { h }
    @inline(__always)
    static func offsetValues(_ h: SIMD16<Int16>) -> SIMD16<Int16> { h }
    static var offsetCount: Int { 16 }
    @inline(__always)
    static func offsetSums(_ x: ActivationRow, _ b: Int) -> UnsafePointer<Int16> { x.bsums + 16 * b }
    @inline(__always)
    static func offsetScale(_ block: UnsafeRawPointer) -> Float { -32 * AVX2.half(block, Q6_K.dOffset) }
}

/// Prefill for the K-quants as a packed GEMM, the super-block counterpart of ``AVX2PackedTiles``:
/// each tile of 8 weight rows is repacked once per call so that a 32-bit lane holds 4 consecutive
/// weights of one row (chunk `8g + k` of a super-block = weights `32g + 4k ..< +4` of rows 0..<8),
/// and the sub-scales and offset values are laid out as Int16 pairs per row, so one `vpmaddwd`
/// applies them to all 8 rows. Per token, a super-block then costs 64 byte multiply-adds for 8
/// rows and no horizontal sums. The repacked tile is scratch of `blocks × 2880` bytes.
///
/// Integer sums are exact; the offset term is a Float product (`-32·d·d_a·Σ sc·bsum` for Q6_K,
/// where the row kernel folds it into the integer sum), so values equal ``AVX2SuperBlockDot``'s up
/// to Float rounding.
enum AVX2PackedSuperBlocks<F: AVX2PackedSuperBlockFormat>: AVX2PackedTileKernel {
    // Packed block layout: 64 chunks of 32 bytes, 16 scale-pair vectors, 8 offset-pair vectors,
    // then `d` and the offset scale of the 8 rows as Floats.
    static var scalesAt: Int { 2048 }
    static var offsetsAt: Int { 2048 + 512 }
    static var dAt: Int { 2048 + 512 + 256 }
    static var offsetScaleAt: Int { dAt + 32 }
    static var packedBlockBytes: Int { offsetScaleAt + 32 }

    static var weightsPerBlock: Int { 256 }

    static func rowMatMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        RowLoops<AVX2SuperBlockDot<F>>.matMul(w, x, into: y, rows: rows)
    }

    /// Repacks rows `r0..<r0+8` of `w`.
    @inline(__always)
    static func pack(_ w: WeightMatrix, rows r0: Int, blocks: Int, into packed: UnsafeMutableRawPointer) {
        for r in 0..<8 {
            let row = w.row(r0 + r)
            for b in 0..<blocks {
                let block = row + b * F.blockBytes
                let h = F.header(block)
                let dst = packed + b * packedBlockBytes
                for g in 0..<8 {
                    let lanes = unsafeBitCast(F.weights(block, g), to: SIMD8<UInt32>.self)
                    for k in 0..<8 { dst.storeBytes(of: lanes[k], toByteOffset: 32 * (8 * g + k) + 4 * r, as: UInt32.self) }
                }
                let scales = F.subScales(h), values = F.offsetValues(h)
                for j in 0..<16 {
                    dst.storeBytes(of: scales[j], toByteOffset: scalesAt + 32 * j + 4 * r, as: Int16.self)
                    dst.storeBytes(of: scales[j], toByteOffset: scalesAt + 32 * j + 4 * r + 2, as: Int16.self)
                    dst.storeBytes(of: values[j], toByteOffset: offsetsAt + 32 * (j >> 1) + 4 * r + 2 * (j & 1), as: Int16.self)
                }
                dst.storeBytes(of: F.scale(block), toByteOffset: dAt + 4 * r, as: Float.self)
                dst.storeBytes(of: F.offsetScale(block), toByteOffset: offsetScaleAt + 4 * r, as: Float.self)
            }
        }
    }

    /// Block `b` of the 8 packed rows against token row `x`: per lane (row) the scaled integer
    /// dot `Σ sc·Σ u·q` and the offset's integer dot.
    @inline(__always)
    static func blockDot(_ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) -> (SIMD8<Int32>, SIMD8<Int32>) {
        let a = UnsafeRawPointer(x.bytes + 256 * b)
        @inline(__always) func pair(_ c: Int) -> SIMD16<Int16> {
            let w = p.loadUnaligned(fromByteOffset: 32 * c, as: SIMD32<UInt8>.self)
            let q = unsafeBitCast(SIMD8<UInt32>(repeating: a.loadUnaligned(fromByteOffset: 4 * c, as: UInt32.self)), to: SIMD32<Int8>.self)
            return AVX2.maddubs(w, q)
        }
        @inline(__always) func scales(_ j: Int) -> SIMD16<Int16> {
            p.loadUnaligned(fromByteOffset: scalesAt + 32 * j, as: SIMD16<Int16>.self)
        }
        var sum = SIMD8<Int32>()
        for g in 0..<8 {
            let c = 8 * g
            if F.maxUnsigned < 16 {
                // One scale per 32 weights (Q4_K) and 16 products of at most 15·128 per lane.
                let s = AVX2.add16(AVX2.add16(AVX2.add16(pair(c), pair(c + 1)), AVX2.add16(pair(c + 2), pair(c + 3))),
                                   AVX2.add16(AVX2.add16(pair(c + 4), pair(c + 5)), AVX2.add16(pair(c + 6), pair(c + 7))))
                sum &+= AVX2.madd(s, scales(2 * g))
            } else if F.maxUnsigned < 32 {
                // 8 products of at most 31·128 per lane, one sub-block each.
                let s0 = AVX2.add16(AVX2.add16(pair(c), pair(c + 1)), AVX2.add16(pair(c + 2), pair(c + 3)))
                let s1 = AVX2.add16(AVX2.add16(pair(c + 4), pair(c + 5)), AVX2.add16(pair(c + 6), pair(c + 7)))
                sum &+= AVX2.madd(s0, scales(2 * g)) &+ AVX2.madd(s1, scales(2 * g + 1))
            } else {
                // 6-bit weights: 4 products of at most 63·128 per lane.
                let s0 = AVX2.add16(pair(c), pair(c + 1)), s1 = AVX2.add16(pair(c + 2), pair(c + 3))
                let s2 = AVX2.add16(pair(c + 4), pair(c + 5)), s3 = AVX2.add16(pair(c + 6), pair(c + 7))
                let lo = scales(2 * g), hi = scales(2 * g + 1)
                sum &+= (AVX2.madd(s0, lo) &+ AVX2.madd(s1, lo)) &+ (AVX2.madd(s2, hi) &+ AVX2.madd(s3, hi))
            }
        }
        let sums = UnsafeRawPointer(F.offsetSums(x, b))
        var offset = SIMD8<Int32>()
        for i in 0..<(F.offsetCount / 2) {
            let v = p.loadUnaligned(fromByteOffset: offsetsAt + 32 * i, as: SIMD16<Int16>.self)
            let s = unsafeBitCast(SIMD8<UInt32>(repeating: sums.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)), to: SIMD16<Int16>.self)
            offset &+= AVX2.madd(v, s)
        }
        return (sum, offset)
    }

    /// Folds token row `xt`'s block `b` against packed block `p` into `acc`.
    @inline(__always)
    static func step(_ acc: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int) {
        let (sum, offset) = blockDot(p, xt, b)
        let da = SIMD8<Float>(repeating: xt.scales[b])
        acc = acc.addingProduct(AVX2.float(sum), p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<Float>.self) * da)
        acc = acc.addingProduct(AVX2.float(offset), p.loadUnaligned(fromByteOffset: offsetScaleAt, as: SIMD8<Float>.self) * da)
    }
}
#endif
