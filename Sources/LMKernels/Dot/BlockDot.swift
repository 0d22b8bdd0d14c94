import LMKernelsCore

/// A quantized weight format seen by the integer kernels: blocks of `groups * 32` weights, each
/// 32-weight group decoded to two `SIMD16<Int16>` of small integers (|w| <= 128). Against
/// activation quants (|q| <= 127) two products fit in Int16 (2 * 128 * 127 < 2^15), so a group
/// costs two 16-bit multiplies, one 16-bit add and a widening pair-add into Int32 (`pmullw`,
/// `paddw` and shifts on SSE2). K-quant sub-scales are applied in Float per group: an Int32
/// multiply by a broadcast scale would be emulated with `pmuludq` shuffles on SSE2. One Float
/// multiply (`scale(block) * activation d`) per block finishes it; formats whose values carry an
/// offset (Q4_1/Q5_1 min, K-quant mins) add `offset(...)` per block.
protocol BlockFormat {
    /// What a block's header decodes to once (K-quants' unpacked sub-scales), shared by its groups.
    associatedtype Header
    /// Float lanes a group's dot is accumulated in: `SIMD4<Float>` where four products fit in
    /// Int16 and the group has one scale (the two Int16 halves are added before widening, which
    /// saves a widening and a conversion per group on SSE2), else `SIMD8<Float>`.
    associatedtype Lanes: SIMD where Lanes.Scalar == Float
    /// The activation format this weight type pairs with (ggml's `vec_dot_type`).
    static var activationFormat: ActivationFormat { get }
    static var blockBytes: Int { get }
    /// 32-weight groups per block: 1 for the legacy quants, 8 for K-quants.
    static var groups: Int { get }
    static var hasOffset: Bool { get }
    static func header(_ block: UnsafeRawPointer) -> Header
    /// Group `g` of the block as small integers, weights 0..<16 and 16..<32 of the group.
    static func group(_ block: UnsafeRawPointer, _ header: Header, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>)
    /// `Σ w * a` over group `g` (decoded as `w`) times its sub-scale(s), in Float lanes.
    static func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ header: Header, _ g: Int,
                         _ a: UnsafePointer<Int16>) -> Lanes
    /// The block's Float scale on the weight side.
    static func scale(_ block: UnsafeRawPointer) -> Float
    /// The block's offset contribution to the dot with activation block `b` of `x`, in Floats.
    static func offset(_ block: UnsafeRawPointer, _ header: Header, _ x: ActivationRow, _ b: Int) -> Float
}

extension BlockFormat where Header == Void {
    @inline(__always)
    static func header(_ block: UnsafeRawPointer) {}
}

extension BlockFormat {
    static var hasOffset: Bool { false }

    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ header: Header, _ x: ActivationRow, _ b: Int) -> Float { 0 }
}

/// `Σ w * q` over one 32-weight group and the 32 activation quants at `a`, as 8 Int32 lanes.
/// Requires |w| <= 128 so that pairs of products stay within Int16.
@inline(__always)
func pairedDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ a: UnsafePointer<Int16>) -> SIMD8<Int32> {
    widenPairs(w.0 &* loadI16x16(a) &+ w.1 &* loadI16x16(a + 16))
}

/// `Σ w * q` as 4 Float lanes, for weights with |w| <= 64 (four products fit in Int16): the
/// two halves of the Int16 products are added before widening.
@inline(__always)
func foldedDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ a: UnsafePointer<Int16>) -> SIMD4<Float> {
    let p = w.0 &* loadI16x16(a) &+ w.1 &* loadI16x16(a + 16)
    let v = unsafeBitCast(p.lowHalf &+ p.highHalf, to: SIMD4<Int32>.self)
    let s = ((v &<< 16) &>> 16) &+ (v &>> 16)
    var r = SIMD4<Float>()
    for i in 0..<4 { r[i] = Float(s[i]) }
    return r
}

/// `r[i] = v[2i] + v[2i+1]` in Int32: the Int16 pairs seen as Int32 lanes, the low half
/// sign-extended by a shift pair and the high half by an arithmetic shift (3 shifts and an add
/// per vector; a multiply-add by ones gets turned into slower shuffles by LLVM).
@inline(__always)
func widenPairs(_ v: SIMD16<Int16>) -> SIMD8<Int32> {
    let w = unsafeBitCast(v, to: SIMD8<Int32>.self)
    return ((w &<< 16) &>> 16) &+ (w &>> 16)
}

/// The generic integer row kernels over any ``BlockFormat``.
///
/// Legacy formats (one group per block) run four blocks at a time so that their f16 scales (and
/// Q4_1/Q5_1 mins) are gathered and converted as one 4-lane vector instead of one at a time;
/// that scalar work was a third of a Q4_1 block. These formats keep `d` as f16 at byte 0 and,
/// when they have an offset, `m` as f16 at byte 2 with the offset `m * s` (ggml's layouts).
enum BlockDot<F: BlockFormat> {
    /// `Σ_i w[i] * x[i]` over `cols` for one weight row at `w` and one activation row.
    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float {
        let blockSize = F.groups * 32, blocks = cols / blockSize
        var acc = F.Lanes()
        var offsets: Float = 0
        var b = 0
        if F.groups == 1 {
            var offsets4 = SIMD4<Float>()
            while b + 4 <= blocks {
                let block = w + b * F.blockBytes
                let (d, m) = legacyScales4(block)
                let ds = d * load4(x.scales + b)
                if F.hasOffset { offsets4 += m * load4(x.sums + b) }
                for k in 0..<4 {
                    let blockK = block + k * F.blockBytes
                    acc += F.groupDot(F.group(blockK, F.header(blockK), 0), F.header(blockK), 0,
                                      x.quants + (b + k) * 32) * ds[k]
                }
                b += 4
            }
            offsets = laneSum(offsets4)
        }
        while b < blocks {
            let block = w + b * F.blockBytes
            let header = F.header(block)
            let a = x.quants + b * blockSize
            var s = F.Lanes()
            forEachGroup(F.groups) { g in s += F.groupDot(F.group(block, header, g), header, g, a + g * 32) }
            acc += s * (F.scale(block) * x.scales[b])
            if F.hasOffset { offsets += F.offset(block, header, x, b) }
            b += 1
        }
        return laneSum(acc) + offsets
    }

    /// One weight row against four activation rows, decoding each weight group once. Per token,
    /// the arithmetic and its order are those of `dot`, so results are bit-identical.
    @inline(__always)
    static func dot4(_ w: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow,
                     _ x2: ActivationRow, _ x3: ActivationRow, cols: Int) -> SIMD4<Float> {
        let blockSize = F.groups * 32, blocks = cols / blockSize
        var acc0 = F.Lanes(), acc1 = F.Lanes(), acc2 = F.Lanes(), acc3 = F.Lanes()
        var off0: Float = 0, off1: Float = 0, off2: Float = 0, off3: Float = 0
        var b = 0
        if F.groups == 1 {
            var o0 = SIMD4<Float>(), o1 = SIMD4<Float>(), o2 = SIMD4<Float>(), o3 = SIMD4<Float>()
            while b + 4 <= blocks {
                let block = w + b * F.blockBytes
                let (d, m) = legacyScales4(block)
                let ds0 = d * load4(x0.scales + b), ds1 = d * load4(x1.scales + b)
                let ds2 = d * load4(x2.scales + b), ds3 = d * load4(x3.scales + b)
                if F.hasOffset {
                    o0 += m * load4(x0.sums + b)
                    o1 += m * load4(x1.sums + b)
                    o2 += m * load4(x2.sums + b)
                    o3 += m * load4(x3.sums + b)
                }
                for k in 0..<4 {
                    let blockK = block + k * F.blockBytes
                    let header = F.header(blockK)
                    let wg = F.group(blockK, header, 0)
                    let o = (b + k) * 32
                    acc0 += F.groupDot(wg, header, 0, x0.quants + o) * ds0[k]
                    acc1 += F.groupDot(wg, header, 0, x1.quants + o) * ds1[k]
                    acc2 += F.groupDot(wg, header, 0, x2.quants + o) * ds2[k]
                    acc3 += F.groupDot(wg, header, 0, x3.quants + o) * ds3[k]
                }
                b += 4
            }
            off0 = laneSum(o0); off1 = laneSum(o1); off2 = laneSum(o2); off3 = laneSum(o3)
        }
        while b < blocks {
            let block = w + b * F.blockBytes
            let header = F.header(block)
            let o = b * blockSize
            var s0 = F.Lanes(), s1 = F.Lanes(), s2 = F.Lanes(), s3 = F.Lanes()
            forEachGroup(F.groups) { g in
                let wg = F.group(block, header, g)
                let og = o + g * 32
                s0 += F.groupDot(wg, header, g, x0.quants + og)
                s1 += F.groupDot(wg, header, g, x1.quants + og)
                s2 += F.groupDot(wg, header, g, x2.quants + og)
                s3 += F.groupDot(wg, header, g, x3.quants + og)
            }
            let d = F.scale(block)
            acc0 += s0 * (d * x0.scales[b])
            acc1 += s1 * (d * x1.scales[b])
            acc2 += s2 * (d * x2.scales[b])
            acc3 += s3 * (d * x3.scales[b])
            if F.hasOffset {
                off0 += F.offset(block, header, x0, b)
                off1 += F.offset(block, header, x1, b)
                off2 += F.offset(block, header, x2, b)
                off3 += F.offset(block, header, x3, b)
            }
            b += 1
        }
        return SIMD4(laneSum(acc0) + off0, laneSum(acc1) + off1, laneSum(acc2) + off2, laneSum(acc3) + off3)
    }

    /// `d` (f16 at byte 0) and, for formats with an offset, `m` (f16 at byte 2) of four
    /// consecutive legacy blocks, converted as vectors.
    @inline(__always)
    static func legacyScales4(_ block: UnsafeRawPointer) -> (SIMD4<Float>, SIMD4<Float>) {
        let n = F.blockBytes
        let v = SIMD4<Int32>(block.loadUnaligned(as: Int32.self), (block + n).loadUnaligned(as: Int32.self),
                             (block + 2 * n).loadUnaligned(as: Int32.self), (block + 3 * n).loadUnaligned(as: Int32.self))
        // Low 16 bits are d, high 16 bits m (or the first quants, unused when there is no m).
        return (f16Lanes((v &<< 16) &>> 16), F.hasOffset ? f16Lanes(v &>> 16) : SIMD4())
    }
}

@inline(__always)
private func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
}

/// `f16` on four sign-extended binary16 values (see `f16`).
@inline(__always)
func f16Lanes(_ h: SIMD4<Int32>) -> SIMD4<Float> {
    let bits = (h &<< 13) & SIMD4(repeating: Int32(bitPattern: 0x8fff_e000))
    return unsafeBitCast(bits, to: SIMD4<Float>.self) * 0x1p112
}

/// Calls `body` for groups `0..<groups` (1 or 8) fully unrolled, so every group index is a
/// constant and the decoders' shifts and selects on it fold away.
@inline(__always)
func forEachGroup(_ groups: Int, _ body: (Int) -> Void) {
    if groups == 1 {
        body(0)
    } else {
        body(0); body(1); body(2); body(3); body(4); body(5); body(6); body(7)
    }
}

/// The sum of a group accumulator's lanes (4 or 8), pairwise.
@inline(__always)
func laneSum<V: SIMD>(_ v: V) -> Float where V.Scalar == Float {
    if V.scalarCount == 8 { return horizontalSum(unsafeBitCast(v, to: SIMD8<Float>.self)) }
    let v4 = unsafeBitCast(v, to: SIMD4<Float>.self)
    let h = v4.lowHalf + v4.highHalf
    return h[0] + h[1]
}
