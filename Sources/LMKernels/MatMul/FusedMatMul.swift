/// Matmuls that share one quantized input, fused into one parallel dispatch: every dispatch ends
/// in a barrier, and at ~200 matmuls per decoded token the barriers cost as much as small
/// products (llama.cpp spends most of a SmolLM2 step there).
extension MatMul {
    /// `y0 = x W0ᵀ`, `y1 = x W1ᵀ` and, when given, `y2 = x W2ᵀ` (a layer's Q, K and V) as one
    /// dispatch over the weights' concatenated rows. `x` is `[nTokens, cols]`, quantized in the
    /// weights' common activation format; each `yi` is `[x.nTokens, Wi.rows]`.
    ///
    /// - Precondition: every weight pairs with `x.format` and has `x.cols` columns.
    public static func multiply(_ w0: WeightMatrix, into y0: UnsafeMutablePointer<Float>,
                                _ w1: WeightMatrix, into y1: UnsafeMutablePointer<Float>,
                                _ w2: WeightMatrix? = nil, into y2: UnsafeMutablePointer<Float>? = nil,
                                quantized x: QuantizedActivations, pool: ThreadPool) {
        let k0 = DotKernels.kernel(for: w0.type), k1 = DotKernels.kernel(for: w1.type)
        check(w0, x, k0, 0..<w0.rows)
        check(w1, x, k1, 0..<w1.rows)
        let end0 = w0.rows, end1 = end0 + w1.rows
        var total = end1
        var k2 = k0
        if let w2 {
            precondition(y2 != nil, "a third weight needs a third output")
            k2 = DotKernels.kernel(for: w2.type)
            check(w2, x, k2, 0..<w2.rows)
            total += w2.rows
        }
        pool.parallelFor(0..<total, alignment: 16) { rows in
            segment(k0, w0, x, y0, rows, offset: 0, end: end0)
            segment(k1, w1, x, y1, rows, offset: end0, end: end1)
            if let w2, let y2 { segment(k2, w2, x, y2, rows, offset: end1, end: total) }
        }
    }

    /// `y0 = x W0ᵀ` and `y1 = x W1ᵀ` for two weights of the same shape (a gated feed-forward's
    /// gate and up), split by row so that each part computes the same rows of both and then runs
    /// `epilogue(rows)` on them (the gating) inside the same dispatch.
    ///
    /// - Precondition: as ``multiply(_:into:_:into:_:into:quantized:pool:)``, and
    ///   `w0.rows == w1.rows`.
    public static func multiplyPaired(_ w0: WeightMatrix, into y0: UnsafeMutablePointer<Float>,
                                      _ w1: WeightMatrix, into y1: UnsafeMutablePointer<Float>,
                                      quantized x: QuantizedActivations, pool: ThreadPool,
                                      epilogue: (Range<Int>) -> Void) {
        let k0 = DotKernels.kernel(for: w0.type), k1 = DotKernels.kernel(for: w1.type)
        precondition(w0.rows == w1.rows, "paired weights differ in rows: \(w0.rows) and \(w1.rows)")
        check(w0, x, k0, 0..<w0.rows)
        check(w1, x, k1, 0..<w1.rows)
        pool.parallelFor(0..<w0.rows, alignment: 16) { rows in
            segment(k0, w0, x, y0, rows, offset: 0, end: w0.rows)
            segment(k1, w1, x, y1, rows, offset: 0, end: w1.rows)
            epilogue(rows)
        }
    }

    /// Runs the rows of `w` that fall in `rows` of a concatenated row space where `w` occupies
    /// `offset..<end`.
    @inline(__always)
    private static func segment(_ kernel: DotKernel, _ w: WeightMatrix, _ x: QuantizedActivations,
                                _ y: UnsafeMutablePointer<Float>, _ rows: Range<Int>, offset: Int, end: Int) {
        let lo = max(rows.lowerBound, offset), hi = min(rows.upperBound, end)
        guard lo < hi else { return }
        if x.nTokens == 1 {
            kernel.matVec(w, x, 0, y, (lo - offset)..<(hi - offset))
        } else {
            kernel.matMul(w, x, y, (lo - offset)..<(hi - offset))
        }
    }
}
