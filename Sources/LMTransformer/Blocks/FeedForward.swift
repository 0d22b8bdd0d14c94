import LMKernels

/// The feed-forward half of a decoder layer:
/// - gated, `down(act(gate(x)) · up(x))`: SwiGLU (Shazeer 2020) with SiLU, GeGLU with GELU;
/// - plain, `down(act(up(x)))` (StarCoder 2's GELU MLP).
/// Biases, when the architecture has them, are added after each projection.
enum FeedForward: Sendable {
    case gated(gate: Linear, up: Linear, down: Linear, Gating)
    case plain(up: Linear, down: Linear, Gating)

    init(gate: Linear?, up: Linear, down: Linear, activation: Architecture.Activation) {
        let gating: Gating = activation == .silu ? .silu : .geluTanh
        if let gate {
            self = .gated(gate: gate, up: up, down: down, gating)
        } else {
            self = .plain(up: up, down: down, gating)
        }
    }

    /// Reads `s.xn` (`[nTokens, nEmbd]`), writes `s.blockOut` (`[nTokens, nEmbd]`).
    func callAsFunction(nTokens: Int, _ s: ForwardScratch, _ compute: ComputeResources) {
        switch self {
        case let .gated(gate, up, down, gating):
            Linear.projectGated(s.xn, nTokens: nTokens, gate, into: s.gate, up, into: s.up, activation: gating, compute)
            down(s.gate, nTokens: nTokens, into: s.blockOut, compute)
        case let .plain(up, down, gating):
            up(s.xn, nTokens: nTokens, into: s.gate, compute)
            Self.activate(s.gate, count: nTokens * up.outFeatures, gating)
            down(s.gate, nTokens: nTokens, into: s.blockOut, compute)
        }
    }

    /// `x[i] = act(x[i])`, 8 lanes at a time with the gated path's vector activation.
    private static func activate(_ x: UnsafeMutablePointer<Float>, count n: Int, _ gating: Gating) {
        var i = 0
        while i + 8 <= n {
            let p = UnsafeMutableRawPointer(x + i)
            p.storeBytes(of: gating.activate(p.loadUnaligned(as: SIMD8<Float>.self)), as: SIMD8<Float>.self)
            i += 8
        }
        if i < n {
            var v = SIMD8<Float>()
            for j in i..<n { v[j - i] = x[j] }
            let y = gating.activate(v)
            for j in i..<n { x[j] = y[j - i] }
        }
    }
}
