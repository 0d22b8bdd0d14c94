#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rotary position embedding (Su et al. 2021) as ggml's `rope_ext` applies it, with its
/// frequency scaling: linear (`freq_scale`), per-dimension factors (`rope_freqs`, LongRoPE) and
/// YaRN (Peng et al. 2023; ggml's `rope_yarn`).
///
/// - `adjacent` (ggml mode 0) rotates pairs `(x[2i], x[2i+1])`;
/// - `neox` (ggml mode 2) rotates pairs `(x[i], x[i + ropeDim/2])`;
/// dimensions past `ropeDim` are left as they are.
///
/// Pair `i` at position `pos` turns by `θ = s · pos · base^(-2i/ropeDim) / f[i]` (`s` the
/// frequency scale, `f` the factors); YaRN mixes in the unscaled angle by a ramp over the pairs
/// and scales cos and sin by `magnitude · (1 + 0.1 ln(1/s))`. Angles are built by repeated
/// multiplication as ggml does, so results match llama.cpp to float rounding.
struct RoPE: Sendable {
    typealias Pairing = Architecture.RoPEFacts.Pairing
    let pairing: Pairing
    let parameters: RoPEParameters
    /// Divisors of each pair's angle, `[ropeDim / 2]`, or nil.
    let factors: [Float]?

    var ropeDim: Int { parameters.dimensions }

    /// Fills `cos`/`sin` tables `[positions.count, ropeDim/2]`.
    func tables(positions: Range<Int>, cos: UnsafeMutablePointer<Float>, sin: UnsafeMutablePointer<Float>) {
        let p = parameters, half = ropeDim / 2
        let thetaScale = powf(p.base, -2.0 / Float(ropeDim))
        let (low, high) = p.correctionRange
        let yarn = p.extrapolation != 0
        let magnitude = yarn ? p.magnitude * (1 + 0.1 * logf(1 / p.frequencyScale)) : p.magnitude
        for (t, pos) in positions.enumerated() {
            var theta = Float(pos)
            for i in 0..<half {
                let extrapolated = factors.map { theta / $0[i] } ?? theta
                var angle = p.frequencyScale * extrapolated
                if yarn {
                    let ramp = 1 - min(1, max(0, (Float(i) - low) / max(0.001, high - low)))
                    let mix = ramp * p.extrapolation
                    angle = angle * (1 - mix) + extrapolated * mix
                }
                cos[t * half + i] = cosf(angle) * magnitude
                sin[t * half + i] = sinf(angle) * magnitude
                theta *= thetaScale
            }
        }
    }

    /// Rotates `nHeads` heads of `headDim` in place for one token, given its table rows.
    @inline(__always)
    static func apply(_ pairing: Pairing, ropeDim: Int, _ x: UnsafeMutablePointer<Float>, nHeads: Int, headDim: Int,
                      cos: UnsafePointer<Float>, sin: UnsafePointer<Float>) {
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
