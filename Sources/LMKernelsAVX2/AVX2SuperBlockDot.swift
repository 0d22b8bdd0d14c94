#if arch(x86_64)
import LMKernelsCore

/// A K-quant super-block format (256 weights in 8 groups of 32) as the AVX2 kernels see it,
/// paired with Q8_K activations: each group's weights decode to 32 unsigned bytes whose byte
/// products with the activations (`vpmaddubsw`) are weighted by Int16 sub-scales (`vpmaddwd`).
protocol AVX2SuperBlockFormat: SendableMetatype {
    /// What a block's header decodes to once (its unpacked sub-scales), shared by its groups.
    associatedtype Header
    static var blockBytes: Int { get }
    static func header(_ block: UnsafeRawPointer) -> Header
    /// Group `g`'s 32 weights as unsigned bytes (< 64, so pairs of products fit in Int16).
    static func weights(_ block: UnsafeRawPointer, _ g: Int) -> SIMD32<UInt8>
    /// Group `g`'s sub-scales as multipliers of its 16 pair sums.
    static func groupScales(_ header: Header, _ g: Int) -> SIMD16<Int16>
    /// The block's integer term not covered by the group dots (Q6_K's `-32·Σ sc·bsum`), as 8 lanes.
    static func correction(_ header: Header, _ x: ActivationRow, _ b: Int) -> SIMD8<Int32>
    /// The block's Float scale `d` on the weight side.
    static func scale(_ block: UnsafeRawPointer) -> Float
    /// The block's Float offset term against activation block `b` (Q4_K's mins), or 0.
    static func offset(_ block: UnsafeRawPointer, _ header: Header, _ x: ActivationRow, _ b: Int) -> Float
}

/// Row kernels of the AVX2 K-quant formats, as ggml's AVX2 `ggml_vec_dot_q4_K_q8_K` and
/// `ggml_vec_dot_q6_K_q8_K`: per super-block an exact Int32 sum over its 8 groups, converted and
/// multiplied-added by `d·d_a` into one accumulator; offsets summed separately. Same values as
/// ``BlockDot`` up to Float summation order.
enum AVX2SuperBlockDot<F: AVX2SuperBlockFormat>: RowKernel {
    static var activationFormat: ActivationFormat { .q8_K }

    @inline(__always)
    private static func activations(_ x: ActivationRow, _ b: Int, _ g: Int) -> SIMD32<Int8> {
        UnsafeRawPointer(x.bytes + 256 * b + 32 * g).loadUnaligned(as: SIMD32<Int8>.self)
    }

    /// Group `g` (decoded `w`, sub-scales `s`) against token row `x`, added to `sum`.
    @inline(__always)
    private static func group(_ sum: inout SIMD8<Int32>, _ w: SIMD32<UInt8>, _ s: SIMD16<Int16>,
                              _ x: ActivationRow, _ b: Int, _ g: Int) {
        sum &+= AVX2.madd(AVX2.maddubs(w, activations(x, b, g)), s)
    }

    /// Folds block `b`'s integer sum into `acc` and returns its offset term.
    @inline(__always)
    private static func finish(_ acc: inout SIMD8<Float>, _ sum: SIMD8<Int32>, _ block: UnsafeRawPointer,
                               _ h: F.Header, _ x: ActivationRow, _ b: Int) -> Float {
        acc = acc.addingProduct(AVX2.float(sum), SIMD8(repeating: F.scale(block) * x.scales[b]))
        return F.offset(block, h, x, b)
    }

    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float {
        var acc = SIMD8<Float>()
        var offsets: Float = 0
        for b in 0..<(cols / 256) {
            let block = w + b * F.blockBytes
            let h = F.header(block)
            var sum = F.correction(h, x, b)
            for g in 0..<8 { group(&sum, F.weights(block, g), F.groupScales(h, g), x, b, g) }
            offsets += finish(&acc, sum, block, h, x, b)
        }
        return horizontalSum(acc) + offsets
    }

    /// One weight row against four activation rows, decoding each group once; per token the
    /// arithmetic and its order are those of `dot` (the Int32 sums are exact), so results are
    /// bit-identical.
    @inline(__always)
    static func dot4(_ w: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow,
                     _ x2: ActivationRow, _ x3: ActivationRow, cols: Int) -> SIMD4<Float> {
        var acc = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
        var offsets = SIMD4<Float>()
        for b in 0..<(cols / 256) {
            let block = w + b * F.blockBytes
            let h = F.header(block)
            var sum = (F.correction(h, x0, b), F.correction(h, x1, b), F.correction(h, x2, b), F.correction(h, x3, b))
            for g in 0..<8 {
                let q = F.weights(block, g), s = F.groupScales(h, g)
                group(&sum.0, q, s, x0, b, g)
                group(&sum.1, q, s, x1, b, g)
                group(&sum.2, q, s, x2, b, g)
                group(&sum.3, q, s, x3, b, g)
            }
            offsets += SIMD4(finish(&acc.0, sum.0, block, h, x0, b), finish(&acc.1, sum.1, block, h, x1, b),
                             finish(&acc.2, sum.2, block, h, x2, b), finish(&acc.3, sum.3, block, h, x3, b))
        }
        return SIMD4(horizontalSum(acc.0), horizontalSum(acc.1), horizontalSum(acc.2), horizontalSum(acc.3)) + offsets
    }
}
#endif
