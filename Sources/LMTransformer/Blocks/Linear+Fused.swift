import LMKernels

/// Projections that read the same input, computed from one quantization of it in one dispatch.
extension Linear {
    /// `y0 = W0 x (+ b0)`, `y1 = W1 x (+ b1)` and, when given, `y2 = W2 x (+ b2)` for
    /// `x` `[nTokens, inFeatures]` (a layer's Q, K and V). Falls back to one product each when the
    /// weights pair with different activation formats.
    static func project(_ x: UnsafePointer<Float>, nTokens: Int,
                        _ l0: Linear, into y0: UnsafeMutablePointer<Float>,
                        _ l1: Linear, into y1: UnsafeMutablePointer<Float>,
                        _ l2: Linear? = nil, into y2: UnsafeMutablePointer<Float>? = nil,
                        _ compute: ComputeResources) {
        guard l0.sameInput(l1), l2.map(l0.sameInput) ?? true else {
            l0(x, nTokens: nTokens, into: y0, compute)
            l1(x, nTokens: nTokens, into: y1, compute)
            if let l2, let y2 { l2(x, nTokens: nTokens, into: y2, compute) }
            return
        }
        let q = compute.quantize(x, nTokens: nTokens, for: l0.weight)
        MatMul.multiply(l0.weight, into: y0, l1.weight, into: y1, l2?.weight, into: y2, quantized: q, pool: compute.pool, kernels: compute.kernels,
                        independentRows: compute.independentRows)
        l0.addBias(y0, nTokens: nTokens)
        l1.addBias(y1, nTokens: nTokens)
        if let l2, let y2 { l2.addBias(y2, nTokens: nTokens) }
    }

    /// `y0 = act(W0 x) * (W1 x)`, `y1 = W1 x` for a gated feed-forward's gate and up (same
    /// shape), gated inside the product's dispatch. Falls back to separate products and one pass
    /// of gating when the weights cannot share the input or have biases.
    static func projectGated(_ x: UnsafePointer<Float>, nTokens: Int,
                             _ l0: Linear, into y0: UnsafeMutablePointer<Float>,
                             _ l1: Linear, into y1: UnsafeMutablePointer<Float>,
                             activation: Gating, _ compute: ComputeResources) {
        guard l0.sameInput(l1), l0.outFeatures == l1.outFeatures, l0.bias == nil, l1.bias == nil else {
            l0(x, nTokens: nTokens, into: y0, compute)
            l1(x, nTokens: nTokens, into: y1, compute)
            let n = l0.outFeatures
            for t in 0..<nTokens { activation.apply(y0 + t * n, y1 + t * n, 0..<n) }
            return
        }
        let q = compute.quantize(x, nTokens: nTokens, for: l0.weight)
        MatMul.multiplyGated(l0.weight, into: y0, l1.weight, into: y1, activation: activation, quantized: q, pool: compute.pool, kernels: compute.kernels,
                        independentRows: compute.independentRows)
    }

    private func sameInput(_ other: Linear) -> Bool {
        other.inFeatures == inFeatures
            && activationFormat(for: other.weight.type) == activationFormat(for: weight.type)
    }
}
