/// A quantized weight format seen by the integer kernels: blocks of `groups * 32` weights, each
/// 32-weight group decoded to two `SIMD16<Int16>` of integers already multiplied by the group's
/// integer sub-scale, so that `Σ decoded * activation quant` over a block is exact in Int32 and one
/// Float multiply (`scale(block) * activation d`) per block finishes it. Formats whose values
/// carry an offset (Q4_1/Q5_1 min, K-quant mins) add `offset(...)` per block.
protocol BlockFormat {
    /// The activation format this weight type pairs with (ggml's `vec_dot_type`).
    static var activationFormat: ActivationFormat { get }
    static var blockBytes: Int { get }
    /// 32-weight groups per block: 1 for the legacy quants, 8 for K-quants.
    static var groups: Int { get }
    static var hasOffset: Bool { get }
    /// Group `g` of the block at `block` as integers times their sub-scale, lanes 0..<16 and 16..<32.
    static func group(_ block: UnsafeRawPointer, _ g: Int) -> (SIMD16<Int16>, SIMD16<Int16>)
    /// The block's Float scale on the weight side.
    static func scale(_ block: UnsafeRawPointer) -> Float
    /// The block's offset contribution to the dot with activation block `b` of `x`, in Floats.
    static func offset(_ block: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) -> Float
}

extension BlockFormat {
    static var hasOffset: Bool { false }
    @inline(__always)
    static func offset(_ block: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) -> Float { 0 }
}

/// Σ over one 32-weight group of `w * q` for 32 Int8 activation quants at `a`, as 8 Int32 lanes.
@inline(__always)
func groupDot(_ w: (SIMD16<Int16>, SIMD16<Int16>), _ a: UnsafePointer<Int8>) -> SIMD8<Int32> {
    maddPairs(w.0, widen(loadI8x16(a))) &+ maddPairs(w.1, widen(loadI8x16(a + 16)))
}

/// The generic integer row kernels over any ``BlockFormat``.
enum BlockDot<F: BlockFormat> {
    /// `Σ_i w[i] * x[i]` over `cols` for one weight row at `w` and one activation row.
    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float {
        let blockSize = F.groups * 32
        var acc = SIMD8<Float>()
        var offsets: Float = 0
        for b in 0..<(cols / blockSize) {
            let block = w + b * F.blockBytes
            let a = x.quants + b * blockSize
            var s = SIMD8<Int32>()
            for g in 0..<F.groups { s &+= groupDot(F.group(block, g), a + g * 32) }
            acc += toFloat(s) * (F.scale(block) * x.scales[b])
            if F.hasOffset { offsets += F.offset(block, x, b) }
        }
        return horizontalSum(acc) + offsets
    }

    /// One weight row against four activation rows, decoding each weight group once.
    @inline(__always)
    static func dot4(_ w: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow,
                     _ x2: ActivationRow, _ x3: ActivationRow, cols: Int) -> SIMD4<Float> {
        let blockSize = F.groups * 32
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>(), acc2 = SIMD8<Float>(), acc3 = SIMD8<Float>()
        var offsets = SIMD4<Float>()
        for b in 0..<(cols / blockSize) {
            let block = w + b * F.blockBytes
            let o = b * blockSize
            var s0 = SIMD8<Int32>(), s1 = SIMD8<Int32>(), s2 = SIMD8<Int32>(), s3 = SIMD8<Int32>()
            for g in 0..<F.groups {
                let wg = F.group(block, g)
                let og = o + g * 32
                s0 &+= groupDot(wg, x0.quants + og)
                s1 &+= groupDot(wg, x1.quants + og)
                s2 &+= groupDot(wg, x2.quants + og)
                s3 &+= groupDot(wg, x3.quants + og)
            }
            let d = F.scale(block)
            acc0 += toFloat(s0) * (d * x0.scales[b])
            acc1 += toFloat(s1) * (d * x1.scales[b])
            acc2 += toFloat(s2) * (d * x2.scales[b])
            acc3 += toFloat(s3) * (d * x3.scales[b])
            if F.hasOffset {
                offsets += SIMD4(F.offset(block, x0, b), F.offset(block, x1, b),
                                 F.offset(block, x2, b), F.offset(block, x3, b))
            }
        }
        return SIMD4(horizontalSum(acc0), horizontalSum(acc1), horizontalSum(acc2), horizontalSum(acc3)) + offsets
    }
}
