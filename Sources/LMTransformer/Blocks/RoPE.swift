#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rotary position embedding (Su et al. 2021) as ggml's `rope` applies it.
///
/// - `adjacent` (ggml mode 0, llama/mistral GGUFs, whose Q/K rows the converter permuted) rotates
///   pairs `(x[2i], x[2i+1])`.
/// - `neox` (ggml mode 2, Gemma 3, Qwen2/3) rotates pairs `(x[i], x[i + ropeDim/2])`.
/// Pair `i` turns by `pos · base^(-2i/ropeDim)`, with the angle built by repeated multiplication as
/// ggml does, so results match llama.cpp to float rounding.
struct RoPE: Sendable {
    enum Pairing: Sendable { case adjacent, neox }
    let pairing: Pairing
    let ropeDim: Int
    let base: Float

    /// Fills `cos`/`sin` tables `[positions.count, ropeDim/2]`.
    func tables(positions: Range<Int>, cos: UnsafeMutablePointer<Float>, sin: UnsafeMutablePointer<Float>) {
        let half = ropeDim / 2
        let thetaScale = powf(base, -2.0 / Float(ropeDim))
        for (t, pos) in positions.enumerated() {
            var theta = Float(pos)
            for i in 0..<half {
                cos[t * half + i] = cosf(theta)
                sin[t * half + i] = sinf(theta)
                theta *= thetaScale
            }
        }
    }

    /// Rotates `nHeads` heads of `headDim` in place for one token, given its table rows.
    @inline(__always)
    func apply(_ x: UnsafeMutablePointer<Float>, nHeads: Int, headDim: Int, cos: UnsafePointer<Float>, sin: UnsafePointer<Float>) {
        let half = ropeDim / 2
        for h in 0..<nHeads {
            let v = x + h * headDim
            switch pairing {
            case .adjacent:
                for i in 0..<half {
                    let x0 = v[2 * i], x1 = v[2 * i + 1]
                    v[2 * i] = x0 * cos[i] - x1 * sin[i]
                    v[2 * i + 1] = x0 * sin[i] + x1 * cos[i]
                }
            case .neox:
                for i in 0..<half {
                    let x0 = v[i], x1 = v[i + half]
                    v[i] = x0 * cos[i] - x1 * sin[i]
                    v[i + half] = x0 * sin[i] + x1 * cos[i]
                }
            }
        }
    }
}
