import LMKernelsCore

/// Matmuls that share one quantized input, fused into one parallel dispatch: every dispatch ends
/// in a barrier, and at ~200 matmuls per decoded token the barriers cost as much as small
/// products (llama.cpp spends most of a SmolLM2 step there).
extension MatMul {
    /// `y0 = x W0ᵀ`, `y1 = x W1ᵀ` and, when given, `y2 = x W2ᵀ` (a layer's Q, K and V) as one
    /// dispatch over the weights' concatenated rows. `x` is `[nTokens, cols]`, quantized in the
    /// weights' common activation format; each `yi` is `[x.nTokens, Wi.rows]`.
    ///
    /// `independentRows` as in ``multiply(_:quantized:into:pool:kernels:independentRows:)``.
    ///
    /// - Precondition: every weight pairs with `x.format` and has `x.cols` columns.
    public static func multiply(_ w0: WeightMatrix, into y0: UnsafeMutablePointer<Float>,
                                _ w1: WeightMatrix, into y1: UnsafeMutablePointer<Float>,
                                _ w2: WeightMatrix? = nil, into y2: UnsafeMutablePointer<Float>? = nil,
                                quantized x: QuantizedActivations, pool: ThreadPool, kernels: KernelSet = .active,
                                independentRows: Bool = false) {
        let k0 = DotKernels.kernel(for: w0.type, in: kernels), k1 = DotKernels.kernel(for: w1.type, in: kernels)
        check(w0, x, k0, 0..<w0.rows)
        check(w1, x, k1, 0..<w1.rows)
        let end0 = w0.rows, end1 = end0 + w1.rows
        var total = end1
        var k2 = k0
        if let w2 {
            precondition(y2 != nil, "a third weight needs a third output")
            k2 = DotKernels.kernel(for: w2.type, in: kernels)
            check(w2, x, k2, 0..<w2.rows)
            total += w2.rows
        }
        let i = independentRows
        let third = w2.flatMap { w2 in y2.map { Rows(kernel: k2, w: w2, x: x, y: $0, independentRows: i) } }
        pool.parallelFor(0..<total, alignment: 16,
                         job: Concatenated(first: Rows(kernel: k0, w: w0, x: x, y: y0, independentRows: i),
                                           second: Rows(kernel: k1, w: w1, x: x, y: y1, independentRows: i), third: third))
    }

    /// Two or three products over their concatenated rows.
    struct Concatenated: ParallelRangeJob {
        let first: Rows, second: Rows, third: Rows?

        func run(_ rows: Range<Int>) {
            let end0 = first.w.rows, end1 = end0 + second.w.rows
            first.run(rows, offset: 0, end: end0)
            second.run(rows, offset: end0, end: end1)
            if let third { third.run(rows, offset: end1, end: end1 + third.w.rows) }
        }
    }

    /// `y0 = act(x W0ᵀ) * (x W1ᵀ)` for a gated feed-forward's gate `W0` and up `W1` (same shape),
    /// split by row so that each part computes the same rows of both and gates them inside the
    /// same dispatch. `y0` and `y1` are `[x.nTokens, W0.rows]`; `y1` keeps the up projection.
    ///
    /// `independentRows` as in ``multiply(_:quantized:into:pool:kernels:independentRows:)``.
    ///
    /// - Precondition: as ``multiply(_:into:_:into:_:into:quantized:pool:kernels:independentRows:)``, and
    ///   `w0.rows == w1.rows`.
    public static func multiplyGated(_ w0: WeightMatrix, into y0: UnsafeMutablePointer<Float>,
                                     _ w1: WeightMatrix, into y1: UnsafeMutablePointer<Float>,
                                     activation: Gating, quantized x: QuantizedActivations, pool: ThreadPool,
                                     kernels: KernelSet = .active, independentRows: Bool = false) {
        let k0 = DotKernels.kernel(for: w0.type, in: kernels), k1 = DotKernels.kernel(for: w1.type, in: kernels)
        precondition(w0.rows == w1.rows, "paired weights differ in rows: \(w0.rows) and \(w1.rows)")
        check(w0, x, k0, 0..<w0.rows)
        check(w1, x, k1, 0..<w1.rows)
        pool.parallelFor(0..<w0.rows, alignment: 16,
                         job: Gated(gate: Rows(kernel: k0, w: w0, x: x, y: y0, independentRows: independentRows),
                                    up: Rows(kernel: k1, w: w1, x: x, y: y1, independentRows: independentRows), activation: activation,
                                    vector: DotKernels.vector(in: kernels)))
    }

    /// The same rows of gate and up, then the gating on them.
    struct Gated: ParallelRangeJob {
        let gate: Rows, up: Rows, activation: Gating, vector: VectorKernels

        func run(_ rows: Range<Int>) {
            gate.run(rows)
            up.run(rows)
            let n = gate.w.rows
            for t in 0..<gate.x.nTokens { vector.gate(activation, gate.y + t * n, up.y + t * n, rows) }
        }
    }
}
