import LMKernels

/// A linear projection `y = W x (+ b)` with `W` of shape `[outFeatures, inFeatures]` kept in its
/// quantized form inside the mapped file.
struct Linear: Sendable {
    let weight: WeightMatrix
    let bias: [Float]?

    var outFeatures: Int { weight.rows }
    var inFeatures: Int { weight.cols }

    /// `y[t, :] = W x[t, :] + b` for `nTokens` tokens: x `[nTokens, inFeatures]`, y `[nTokens, outFeatures]`.
    func callAsFunction(_ x: UnsafePointer<Float>, nTokens: Int, into y: UnsafeMutablePointer<Float>, _ compute: ComputeResources) {
        compute.multiply(weight, x, nTokens: nTokens, into: y)
        addBias(y, nTokens: nTokens)
    }

    /// Adds the bias, if any, to each of the `nTokens` rows of `y` (`[nTokens, outFeatures]`).
    func addBias(_ y: UnsafeMutablePointer<Float>, nTokens: Int) {
        guard let bias else { return }
        for t in 0..<nTokens {
            let row = y + t * outFeatures
            for i in 0..<outFeatures { row[i] += bias[i] }
        }
    }
}
