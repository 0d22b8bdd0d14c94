#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Gated feed-forward `down(act(gate(x)) * up(x))`: SwiGLU (Shazeer 2020) with SiLU for llama-style
/// models, GeGLU with tanh-approximated GELU for Gemma.
struct GatedFeedForward: Sendable {
    enum Activation: Sendable { case silu, geluTanh }
    let gate: Linear, up: Linear, down: Linear
    let activation: Activation

    /// Reads `s.xn` (`[nTokens, nEmbd]`), writes `s.blockOut` (`[nTokens, nEmbd]`).
    func callAsFunction(nTokens: Int, _ s: ForwardScratch, _ compute: ComputeResources) {
        let nFF = gate.outFeatures
        let g = s.gate, u = s.up, act = activation
        Linear.projectPaired(s.xn, nTokens: nTokens, gate, into: g, up, into: u, compute) { rows in
            for t in 0..<nTokens { Self.gated(act, g + t * nFF, u + t * nFF, rows) }
        }
        down(s.gate, nTokens: nTokens, into: s.blockOut, compute)
    }

    /// `g[i] = act(g[i]) * u[i]` for `i` in `rows`.
    @inline(__always)
    private static func gated(_ activation: Activation, _ g: UnsafeMutablePointer<Float>,
                              _ u: UnsafePointer<Float>, _ rows: Range<Int>) {
        switch activation {
        case .silu:
            for i in rows { let x = g[i]; g[i] = x / (1 + expf(-x)) * u[i] }
        case .geluTanh:
            for i in rows {
                let x = g[i]
                let inner: Float = 0.797_884_560_8 * (x + 0.044_715 * x * x * x)
                g[i] = 0.5 * x * (1 + tanhf(inner)) * u[i]
            }
        }
    }
}
