/// A learned normalisation of rows, as ggml computes it (`rms_norm` or `norm`, then `mul` by the
/// weights and `add` of the bias), the sums taken in Double as ggml's:
///
/// - RMSNorm (Zhang & Sennrich 2019): `y = x / sqrt(mean(x²) + eps) · w`;
/// - LayerNorm (Ba et al. 2016): `y = (x - mean) / sqrt(mean((x - mean)²) + eps) · w + b`.
///
/// `weight` is `[groups, n]`: row `r` of the input uses group `r % groups` (StableLM's per-head
/// query norms have one group per head; every other norm has one). Gemma's `1 + w` convention is
/// already folded into its GGUF weights by llama.cpp's converter, so one form serves every
/// architecture.
struct Norm: Sendable {
    let kind: Architecture.Normalization
    let weight: [Float]
    let bias: [Float]?
    /// Row length.
    let n: Int
    let eps: Float

    init(_ kind: Architecture.Normalization, weight: [Float], bias: [Float]? = nil, n: Int, eps: Float) {
        precondition(n > 0 && weight.count % n == 0 && weight.count >= n && (bias?.count ?? n) == n)
        (self.kind, self.weight, self.bias, self.n, self.eps) = (kind, weight, bias, n, eps)
    }

    /// Normalises each of `rows` rows of `x` (`[rows, n]`) into `y` (may be `x`).
    func callAsFunction(_ x: UnsafePointer<Float>, rows: Int, into y: UnsafeMutablePointer<Float>) {
        let groups = weight.count / n
        weight.withUnsafeBufferPointer { w in
            for r in 0..<rows {
                let wr = w.baseAddress! + (r % groups) * n
                switch kind {
                case .rms: Self.rms(x + r * n, wr, n, eps, into: y + r * n)
                case .layer: Self.layer(x + r * n, wr, n, eps, into: y + r * n)
                }
            }
        }
        if let bias {
            for r in 0..<rows {
                let row = y + r * n
                for i in 0..<n { row[i] += bias[i] }
            }
        }
    }

    /// `Σ x[i]²` in Double, 8 lanes at a time (one serial chain of Double adds was a tenth of
    /// Gemma's prefill; the order differs from ggml's, below Float's precision).
    @inline(__always)
    static func sumOfSquares(_ x: UnsafePointer<Float>, _ n: Int) -> Double {
        var acc = SIMD8<Double>()
        var i = 0
        while i + 8 <= n {
            let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD8<Float>.self)
            acc += SIMD8<Double>(v * v)
            i += 8
        }
        var ss = acc.sum()
        while i < n { ss += Double(x[i] * x[i]); i += 1 }
        return ss
    }

    @inline(__always)
    static func rms(_ x: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ n: Int, _ eps: Float, into y: UnsafeMutablePointer<Float>) {
        let ss = sumOfSquares(x, n)
        let scale = 1 / (Float(ss / Double(n)) + eps).squareRoot()
        for i in 0..<n { y[i] = x[i] * scale * w[i] }
    }

    @inline(__always)
    static func layer(_ x: UnsafePointer<Float>, _ w: UnsafePointer<Float>, _ n: Int, _ eps: Float, into y: UnsafeMutablePointer<Float>) {
        var sum: Double = 0
        for i in 0..<n { sum += Double(x[i]) }
        let mean = Float(sum) / Float(n)
        var ss: Double = 0
        for i in 0..<n {
            let d = x[i] - mean
            y[i] = d
            ss += Double(d * d)
        }
        let scale = 1 / (Float(ss / Double(n)) + eps).squareRoot()
        for i in 0..<n { y[i] = y[i] * scale * w[i] }
    }
}
