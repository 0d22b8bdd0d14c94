import LMKernels

/// Gated feed-forward `down(act(gate(x)) * up(x))`: SwiGLU (Shazeer 2020) with SiLU for llama-style
/// models, GeGLU with tanh-approximated GELU for Gemma (``Gating``).
struct GatedFeedForward: Sendable {
    let gate: Linear, up: Linear, down: Linear
    let activation: Gating

    /// Reads `s.xn` (`[nTokens, nEmbd]`), writes `s.blockOut` (`[nTokens, nEmbd]`).
    func callAsFunction(nTokens: Int, _ s: ForwardScratch, _ compute: ComputeResources) {
        Linear.projectGated(s.xn, nTokens: nTokens, gate, into: s.gate, up, into: s.up, activation: activation, compute)
        down(s.gate, nTokens: nTokens, into: s.blockOut, compute)
    }
}
