import LMKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The feed-forward half of a decoder layer:
/// - gated, `down(act(gate(x)) · up(x))`: SwiGLU (Shazeer 2020) with SiLU, GeGLU with GELU;
/// - plain, `down(act(up(x)))` (StarCoder 2's GELU MLP).
/// Biases, when the architecture has them, are added after each projection.
enum FeedForward: Sendable {
    case gated(gate: Linear, up: Linear, down: Linear, Gating)
    case plain(up: Linear, down: Linear, Architecture.Activation)

    init(gate: Linear?, up: Linear, down: Linear, activation: Architecture.Activation) {
        if let gate {
            self = .gated(gate: gate, up: up, down: down, activation == .silu ? .silu : .geluTanh)
        } else {
            self = .plain(up: up, down: down, activation)
        }
    }

    /// Reads `s.xn` (`[nTokens, nEmbd]`), writes `s.blockOut` (`[nTokens, nEmbd]`).
    func callAsFunction(nTokens: Int, _ s: ForwardScratch, _ compute: ComputeResources) {
        switch self {
        case let .gated(gate, up, down, gating):
            Linear.projectGated(s.xn, nTokens: nTokens, gate, into: s.gate, up, into: s.up, activation: gating, compute)
            down(s.gate, nTokens: nTokens, into: s.blockOut, compute)
        case let .plain(up, down, activation):
            up(s.xn, nTokens: nTokens, into: s.gate, compute)
            let n = nTokens * up.outFeatures
            switch activation {
            case .silu: for i in 0..<n { let x = s.gate[i]; s.gate[i] = x / (1 + expf(-x)) }
            case .gelu: for i in 0..<n { s.gate[i] = Self.gelu(s.gate[i]) }
            }
            down(s.gate, nTokens: nTokens, into: s.blockOut, compute)
        }
    }

    /// GELU with the tanh approximation (Hendrycks & Gimpel 2016), as ggml's `gelu`.
    @inline(__always)
    static func gelu(_ x: Float) -> Float {
        0.5 * x * (1 + tanhf(0.797_884_560_8 * x * (1 + 0.044_715 * x * x)))
    }
}
