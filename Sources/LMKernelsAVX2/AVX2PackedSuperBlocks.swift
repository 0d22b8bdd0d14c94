#if arch(x86_64)
import LMKernelsCore

/// A K-quant format as the packed prefill tiles see it: on top of the row kernel's view
/// (``AVX2SuperBlockFormat``), its scales per 16 weights and its offset term as Int16 values
/// dotted with the activations' Int16 sums.
protocol AVX2PackedSuperBlockFormat: AVX2SuperBlockFormat {
    /// The largest unsigned weight of ``AVX2SuperBlockFormat/weights(_:_:)`` (15, 31 or 63): how
    /// many byte products fit an Int16 sum.
    static var maxUnsigned: Int { get }
    /// Sub-block `j`'s scale (weights `16j..<16j+16`), `j < 16`.
    static func subScale(_ header: Header, _ j: Int) -> Int16
    /// Offset multiplier `j` of ``offsetSums(_:_:)`` (Q4_K/Q5_K: the mins of the 8 groups; Q6_K:
    /// the 16 sub-scales), `j < offsetCount`.
    static func offsetValue(_ header: Header, _ j: Int) -> Int16
    /// How many offset multipliers there are (8 or 16).
    static var offsetCount: Int { get }
    /// The activation sums the offset values meet in block `b` (per 32 or per 16 weights).
    static func offsetSums(_ x: ActivationRow, _ b: Int) -> UnsafePointer<Int16>
    /// The Float factor of the offset's integer dot on the weight side (`-dmin`, or `-32·d`).
    static func offsetScale(_ block: UnsafeRawPointer) -> Float
}

extension Q4_KAVX2: AVX2PackedSuperBlockFormat {
    static var maxUnsigned: Int { 15 }
    @inline(__always)
    static func subScale(_ h: KScales, _ j: Int) -> Int16 { h.scale(j >> 1) }
    @inline(__always)
    static func offsetValue(_ h: KScales, _ j: Int) -> Int16 { h.min(j) }
    static var offsetCount: Int { 8 }
    @inline(__always)
    static func offsetSums(_ x: ActivationRow, _ b: Int) -> UnsafePointer<Int16> { x.groupSums + 8 * b }
    @inline(__always)
    static func offsetScale(_ block: UnsafeRawPointer) -> Float { -AVX2.half(block, Q4_K.dminOffset) }
}

extension Q5_KAVX2: AVX2PackedSuperBlockFormat {
    static var maxUnsigned: Int { 31 }
    @inline(__always)
    static func subScale(_ h: KScales, _ j: Int) -> Int16 { h.scale(j >> 1) }
    @inline(__always)
    static func offsetValue(_ h: KScales, _ j: Int) -> Int16 { h.min(j) }
    static var offsetCount: Int { 8 }
    @inline(__always)
    static func offsetSums(_ x: ActivationRow, _ b: Int) -> UnsafePointer<Int16> { x.groupSums + 8 * b }
    @inline(__always)
    static func offsetScale(_ block: UnsafeRawPointer) -> Float { -AVX2.half(block, Q5_K.dminOffset) }
}

extension Q6_KAVX2: AVX2PackedSuperBlockFormat {
    static var maxUnsigned: Int { 63 }
    @inline(__always)
    static func subScale(_ h: SIMD16<Int16>, _ j: Int) -> Int16 { h[j] }
    @inline(__always)
    static func offsetValue(_ h: SIMD16<Int16>, _ j: Int) -> Int16 { h[j] }
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

    /// Repacks rows `r0..<r0+8` of `w`: each group's 8 row vectors transposed in registers, the
    /// scales and offset values written per row as scalars.
    @inline(__always)
    static func pack(_ w: WeightMatrix, rows r0: Int, blocks: Int, into packed: UnsafeMutableRawPointer) {
        for b in 0..<blocks {
            let dst = packed + b * packedBlockBytes
            @inline(__always) func block(_ r: Int) -> UnsafeRawPointer { w.row(r0 + r) + b * F.blockBytes }
            for g in 0..<8 {
                @inline(__always) func lanes(_ r: Int) -> SIMD8<UInt32> {
                    unsafeBitCast(F.weights(block(r), g), to: SIMD8<UInt32>.self)
                }
                let t = transpose8(lanes(0), lanes(1), lanes(2), lanes(3), lanes(4), lanes(5), lanes(6), lanes(7))
                let at = 32 * 8 * g
                dst.storeBytes(of: t.0, toByteOffset: at, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: t.1, toByteOffset: at + 32, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: t.2, toByteOffset: at + 64, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: t.3, toByteOffset: at + 96, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: t.4, toByteOffset: at + 128, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: t.5, toByteOffset: at + 160, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: t.6, toByteOffset: at + 192, as: SIMD8<UInt32>.self)
                dst.storeBytes(of: t.7, toByteOffset: at + 224, as: SIMD8<UInt32>.self)
            }
            for r in 0..<8 {
                let blk = block(r), h = F.header(blk)
                for j in 0..<16 {
                    let sc = UInt32(UInt16(bitPattern: F.subScale(h, j)))
                    dst.storeBytes(of: sc | sc << 16, toByteOffset: scalesAt + 32 * j + 4 * r, as: UInt32.self)
                }
                for j in 0..<F.offsetCount {
                    dst.storeBytes(of: F.offsetValue(h, j), toByteOffset: offsetsAt + 32 * (j >> 1) + 4 * r + 2 * (j & 1), as: Int16.self)
                }
                dst.storeBytes(of: F.scale(blk), toByteOffset: dAt + 4 * r, as: Float.self)
                dst.storeBytes(of: F.offsetScale(blk), toByteOffset: offsetScaleAt + 4 * r, as: Float.self)
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
        #if LM_VNNI
        for g in 0..<8 { sum &+= groupDot(groupChunks(p, g), p, a, g) }
        #else
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
        #endif
        return (sum, offsetDot(p, x, b))
    }

    /// The offset's integer dot of block `b` of the 8 packed rows with token row `x`'s sums.
    @inline(__always)
    static func offsetDot(_ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) -> SIMD8<Int32> {
        let sums = UnsafeRawPointer(F.offsetSums(x, b))
        var offset = SIMD8<Int32>()
        for i in 0..<(F.offsetCount / 2) {
            let v = p.loadUnaligned(fromByteOffset: offsetsAt + 32 * i, as: SIMD16<Int16>.self)
            let s = unsafeBitCast(SIMD8<UInt32>(repeating: sums.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)), to: SIMD16<Int16>.self)
            offset &+= AVX2.madd(v, s)
        }
        return offset
    }

    /// Folds token row `xt`'s block `b` against packed block `p` into `acc`.
    @inline(__always)
    static func step(_ acc: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int) {
        let (sum, offset) = blockDot(p, xt, b)
        fold(&acc, p, xt, b, sum: sum, offset: offset)
    }

    /// `acc += d·d_a·sum + offsetScale·d_a·offset` for token row `xt`'s block `b`.
    @inline(__always)
    static func fold(_ acc: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int,
                     sum: SIMD8<Int32>, offset: SIMD8<Int32>) {
        let da = SIMD8<Float>(repeating: xt.scales[b])
        acc = acc.addingProduct(AVX2.float(sum), p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<Float>.self) * da)
        acc = acc.addingProduct(AVX2.float(offset), p.loadUnaligned(fromByteOffset: offsetScaleAt, as: SIMD8<Float>.self) * da)
    }

    #if !LM_VNNI
    /// Two ``step(_:_:_:_:)``s chunk by chunk: each weight vector is loaded once for both tokens and
    /// only their Int16 sums stay in registers (four tokens, or the per-token order, spill). The
    /// sums are exact, so the values are the two steps'.
    @inline(__always)
    static func step2(_ acc0: inout SIMD8<Float>, _ acc1: inout SIMD8<Float>, _ p: UnsafeRawPointer,
                      _ x0: ActivationRow, _ x1: ActivationRow, _ b: Int) {
        let a0 = UnsafeRawPointer(x0.bytes + 256 * b), a1 = UnsafeRawPointer(x1.bytes + 256 * b)
        // Chunks c..<c+n of both tokens summed in Int16 (as many as blockDot sums per Int16 lane).
        @inline(__always) func products(_ c: Int, _ n: Int) -> (SIMD16<Int16>, SIMD16<Int16>) {
            var s0 = SIMD16<Int16>(), s1 = SIMD16<Int16>()
            for k in c..<(c + n) {
                let w = p.loadUnaligned(fromByteOffset: 32 * k, as: SIMD32<UInt8>.self)
                s0 = AVX2.add16(s0, AVX2.maddubs(w, unsafeBitCast(AVX2.broadcast4(a0, 4 * k), to: SIMD32<Int8>.self)))
                s1 = AVX2.add16(s1, AVX2.maddubs(w, unsafeBitCast(AVX2.broadcast4(a1, 4 * k), to: SIMD32<Int8>.self)))
            }
            return (s0, s1)
        }
        @inline(__always) func scales(_ j: Int) -> SIMD16<Int16> {
            p.loadUnaligned(fromByteOffset: scalesAt + 32 * j, as: SIMD16<Int16>.self)
        }
        var sum0 = SIMD8<Int32>(), sum1 = SIMD8<Int32>()
        for g in 0..<8 {
            let c = 8 * g
            if F.maxUnsigned < 16 {
                let s = products(c, 8), sc = scales(2 * g)
                sum0 &+= AVX2.madd(s.0, sc); sum1 &+= AVX2.madd(s.1, sc)
            } else if F.maxUnsigned < 32 {
                let lo = scales(2 * g), hi = scales(2 * g + 1)
                let s = products(c, 4)
                sum0 &+= AVX2.madd(s.0, lo); sum1 &+= AVX2.madd(s.1, lo)
                let t = products(c + 4, 4)
                sum0 &+= AVX2.madd(t.0, hi); sum1 &+= AVX2.madd(t.1, hi)
            } else {
                for h in 0..<4 {
                    let sc = scales(2 * g + h / 2), s = products(c + 2 * h, 2)
                    sum0 &+= AVX2.madd(s.0, sc); sum1 &+= AVX2.madd(s.1, sc)
                }
            }
        }
        fold(&acc0, p, x0, b, sum: sum0, offset: offsetDot(p, x0, b))
        fold(&acc1, p, x1, b, sum: sum1, offset: offsetDot(p, x1, b))
    }

    static var sweepsInPairs: Bool { true }
    #endif

    #if LM_VNNI
    /// A group's 8 packed weight chunks (32 weights of the 8 rows).
    typealias GroupChunks = (SIMD32<UInt8>, SIMD32<UInt8>, SIMD32<UInt8>, SIMD32<UInt8>,
                             SIMD32<UInt8>, SIMD32<UInt8>, SIMD32<UInt8>, SIMD32<UInt8>)

    /// The 8 weight chunks of group `g` (chunk `8g + k` of the packed block).
    @inline(__always)
    static func groupChunks(_ p: UnsafeRawPointer, _ g: Int) -> GroupChunks {
        @inline(__always) func chunk(_ k: Int) -> SIMD32<UInt8> { p.loadUnaligned(fromByteOffset: 32 * (8 * g + k), as: SIMD32<UInt8>.self) }
        return (chunk(0), chunk(1), chunk(2), chunk(3), chunk(4), chunk(5), chunk(6), chunk(7))
    }

    /// Group `g`'s scaled integer dot against activation bytes `a` of one block: each sub-block's
    /// byte dot in Int32 (vpdpbusd, no Int16 limit, two chains), then its scale by vpmulld (a
    /// scale-pair lane read as Int32 holds the scale in its high half).
    @inline(__always)
    static func groupDot(_ w: GroupChunks, _ p: UnsafeRawPointer, _ a: UnsafeRawPointer, _ g: Int) -> SIMD8<Int32> {
        let c = 8 * g
        @inline(__always) func q(_ k: Int) -> SIMD32<Int8> { unsafeBitCast(AVX2.broadcast4(a, 4 * (c + k)), to: SIMD32<Int8>.self) }
        var l = AVX2.dotAdd(SIMD8(), w.0, q(0)), h = AVX2.dotAdd(SIMD8(), w.4, q(4))
        l = AVX2.dotAdd(l, w.1, q(1)); h = AVX2.dotAdd(h, w.5, q(5))
        l = AVX2.dotAdd(l, w.2, q(2)); h = AVX2.dotAdd(h, w.6, q(6))
        l = AVX2.dotAdd(l, w.3, q(3)); h = AVX2.dotAdd(h, w.7, q(7))
        let lo = p.loadUnaligned(fromByteOffset: scalesAt + 32 * (2 * g), as: SIMD8<Int32>.self) &>> 16
        guard F.maxUnsigned >= 32 else { return (l &+ h) &* lo }  // one scale per 32 weights (Q4_K, Q5_K)
        return l &* lo &+ h &* (p.loadUnaligned(fromByteOffset: scalesAt + 32 * (2 * g + 1), as: SIMD8<Int32>.self) &>> 16)
    }

    /// Four tokens at once: each group's 8 weight chunks are loaded once into registers for all
    /// four (AVX-512VL has the registers), so a vpdpbusd costs one broadcast load, not two loads.
    @inline(__always)
    static func step4(_ acc: inout (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), _ p: UnsafeRawPointer,
                      _ x: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), _ b: Int) {
        let a0 = UnsafeRawPointer(x.0.bytes + 256 * b), a1 = UnsafeRawPointer(x.1.bytes + 256 * b)
        let a2 = UnsafeRawPointer(x.2.bytes + 256 * b), a3 = UnsafeRawPointer(x.3.bytes + 256 * b)
        var s0 = SIMD8<Int32>(), s1 = SIMD8<Int32>(), s2 = SIMD8<Int32>(), s3 = SIMD8<Int32>()
        for g in 0..<8 {
            let w = groupChunks(p, g)
            s0 &+= groupDot(w, p, a0, g); s1 &+= groupDot(w, p, a1, g)
            s2 &+= groupDot(w, p, a2, g); s3 &+= groupDot(w, p, a3, g)
        }
        fold(&acc.0, p, x.0, b, sum: s0, offset: offsetDot(p, x.0, b))
        fold(&acc.1, p, x.1, b, sum: s1, offset: offsetDot(p, x.1, b))
        fold(&acc.2, p, x.2, b, sum: s2, offset: offsetDot(p, x.2, b))
        fold(&acc.3, p, x.3, b, sum: s3, offset: offsetDot(p, x.3, b))
    }
    #endif
}
#endif
