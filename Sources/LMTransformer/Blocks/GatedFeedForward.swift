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
        gate(s.xn, nTokens: nTokens, into: s.gate, compute)
        up(s.xn, nTokens: nTokens, into: s.up, compute)
        let n = nTokens * gate.outFeatures
        switch activation {
        case .silu:
            for i in 0..<n { let g = s.gate[i]; s.gate[i] = g / (1 + expf(-g)) * s.up[i] }
        case .geluTanh:
            for i in 0..<n {
                let g = s.gate[i]
                let inner: Float = 0.797_884_560_8 * (g + 0.044_715 * g * g * g)
                s.gate[i] = 0.5 * g * (1 + tanhf(inner)) * s.up[i]
            }
        }
        down(s.gate, nTokens: nTokens, into: s.blockOut, compute)
    }
}
