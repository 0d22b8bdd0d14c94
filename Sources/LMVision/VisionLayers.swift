import LMKernels
import LMKernelsCore

/// A linear map `y = W x + b` with `W` `[outFeatures, inFeatures]` viewed in the mapped file.
struct VisionLinear: @unchecked Sendable {  // @unchecked: WeightMatrix points into the read-only mapped file
    let weight: WeightMatrix
    let bias: [Float]?

    /// `y[t, :] = W x[t, :] + b`: x `[nTokens, inFeatures]`, y `[nTokens, outFeatures]`.
    func callAsFunction(_ x: UnsafePointer<Float>, nTokens: Int, into y: UnsafeMutablePointer<Float>,
                        scratch: QuantizedActivations, pool: ThreadPool) {
        MatMul.multiply(weight, x: x, nTokens: nTokens, into: y, scratch: scratch, pool: pool)
        guard let bias else { return }
        let n = weight.rows
        for t in 0..<nTokens {
            let row = y + t * n
            for i in 0..<n { row[i] += bias[i] }
        }
    }
}

/// LayerNorm (Ba et al. 2016) as ggml's `norm`, `mul`, `add`: `y = (x - mean) / sqrt(var + eps) · w + b`,
/// the sums in Double. (LMTransformer's `Norm` computes the same; it is internal to that module.)
struct LayerNorm: Sendable {
    let weight: [Float]
    let bias: [Float]?
    let eps: Float

    /// Normalises each of `rows` rows of `x` (`[rows, weight.count]`) into `y` (may be `x`).
    func callAsFunction(_ x: UnsafePointer<Float>, rows: Int, into y: UnsafeMutablePointer<Float>) {
        let n = weight.count
        for r in 0..<rows {
            let xr = x + r * n, yr = y + r * n
            var sum = 0.0
            for i in 0..<n { sum += Double(xr[i]) }
            let mean = Float(sum / Double(n))
            var ss = 0.0
            for i in 0..<n {
                let d = xr[i] - mean
                yr[i] = d
                ss += Double(d * d)
            }
            let scale = 1 / (Float(ss / Double(n)) + eps).squareRoot()
            for i in 0..<n { yr[i] = yr[i] * scale * weight[i] + (bias?[i] ?? 0) }
        }
    }
}

/// RMSNorm as ggml's `rms_norm` then `mul`: `y = x / sqrt(mean(x²) + eps) · w`, for each of `rows` rows.
func rmsNorm(_ x: UnsafeMutablePointer<Float>, rows: Int, weight: [Float], eps: Float) {
    let n = weight.count
    for r in 0..<rows {
        let xr = x + r * n
        var ss = 0.0
        for i in 0..<n { ss += Double(xr[i]) * Double(xr[i]) }
        let scale = 1 / (Float(ss / Double(n)) + eps).squareRoot()
        for i in 0..<n { xr[i] = xr[i] * scale * weight[i] }
    }
}

extension VisionActivation {
    /// Applies the activation to `count` values in place.
    func apply(_ x: UnsafeMutablePointer<Float>, count: Int) {
        switch self {
        case .gelu:
            var i = 0
            while i + 8 <= count {
                let p = UnsafeMutableRawPointer(x + i)
                p.storeBytes(of: Gating.geluTanh.activate(p.loadUnaligned(as: SIMD8<Float>.self)), as: SIMD8<Float>.self)
                i += 8
            }
            if i < count {
                var v = SIMD8<Float>()
                for j in 0..<(count - i) { v[j] = x[i + j] }
                let y = Gating.geluTanh.activate(v)
                for j in 0..<(count - i) { x[i + j] = y[j] }
            }
        case .silu:
            for i in 0..<count { x[i] = x[i] / (1 + expf(-x[i])) }
        case .geluQuick:
            for i in 0..<count { x[i] = x[i] / (1 + expf(-1.702 * x[i])) }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
