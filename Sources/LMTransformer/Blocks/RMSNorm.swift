/// RMSNorm (Zhang & Sennrich 2019): `y = x / sqrt(mean(x²) + eps) * w`, the sum taken in Double as
/// ggml's `rms_norm`. Gemma's `1 + w` convention is already folded into its GGUF weights by
/// llama.cpp's converter, so one form serves every architecture.
struct RMSNorm: Sendable {
    let weight: [Float]
    let eps: Float

    /// Normalises each of `nTokens` rows of `x` (`[nTokens, weight.count]`) into `y`.
    func callAsFunction(_ x: UnsafePointer<Float>, nTokens: Int, into y: UnsafeMutablePointer<Float>) {
        let n = weight.count
        weight.withUnsafeBufferPointer { w in
            for t in 0..<nTokens {
                Self.normalize(x + t * n, w.baseAddress!, n, eps, into: y + t * n)
            }
        }
    }

    @inline(__always)
    static func normalize(_ x: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ n: Int, _ eps: Float, into y: UnsafeMutablePointer<Float>) {
        var ss: Double = 0
        for i in 0..<n { ss += Double(x[i] * x[i]) }
        let scale = 1 / (Float(ss / Double(n)) + eps).squareRoot()
        for i in 0..<n { y[i] = x[i] * scale * w[i] }
    }
}
