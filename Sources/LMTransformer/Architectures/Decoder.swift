import LMKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoder-only transformer as its ``Architecture`` describes it, every layer one form:
///
///     n = attnNorm(x)            (x itself without a pre-norm)
///     a = postAttnNorm(attention(n)) · residualScale
///     h = x + a
///     f = postFFNorm(ffn(parallel ? n : ffnNorm(h))) · residualScale
///     y = h + f
///
/// which is llama's pre-norm layer when the post norms are absent and the scale is 1, Gemma's
/// sandwich with them, OLMo 2's post-norm layer without pre-norms and StableLM's parallel residual
/// without `ffn_norm`. The shared parts (embedding lookup, KV cache, scratch) live in
/// ``InferenceContext``; the weights are loaded in `Decoder+Load.swift`.
struct Decoder: Sendable {
    struct Layer: Sendable {
        let attnNorm: Norm?
        let attention: AttentionBlock
        let postAttnNorm: Norm?
        let ffnNorm: Norm?
        /// The feed-forward reads the attention's normalised input (parallel residual).
        let parallel: Bool
        let feedForward: FeedForward
        let postFFNorm: Norm?
    }

    let config: ModelConfig
    /// Token embedding `[vocabSize, nEmbd]`.
    let embedding: WeightMatrix
    let outputNorm: Norm
    /// Output head `[vocabSize, nEmbd]` (the embedding when tied), with its bias if any.
    let output: Linear
    let layers: [Layer]
    /// RoPE frequency divisors `[ropeDim / 2]` read from tensors.
    enum RoPEFactors: Sendable {
        case none
        /// `rope_freqs` (Llama 3.1 and later).
        case ropeFreqs([Float])
        /// LongRoPE's sets, either possibly absent (`rope_factors_short`, `rope_factors_long`).
        case longRoPE(short: [Float]?, long: [Float]?)
    }
    let ropeFactors: RoPEFactors

    /// The RoPE of global and local layers for a context of `contextSize` positions: LongRoPE
    /// uses its long factors when the context exceeds the original one (llama.cpp's
    /// `get_rope_factors`, which also applies them to local layers).
    func ropes(contextSize: Int) -> (global: RoPE, local: RoPE) {
        let c = config
        let factors: [Float]? = switch ropeFactors {
        case .none: nil
        case let .ropeFreqs(f): f
        case let .longRoPE(short, long): contextSize > c.ropeGlobal.originalContext ? long : short
        }
        let pairing = c.architecture.rope.pairing
        return (RoPE(pairing: pairing, parameters: c.ropeGlobal, factors: factors),
                RoPE(pairing: pairing, parameters: c.ropeLocal, factors: factors))
    }

    /// Runs layer `l` over `s.x` (`[nTokens, nEmbd]`) in place, the rows belonging to `sequences`.
    func layer(_ l: Int, nRows nTokens: Int, _ sequences: [SequenceRows], _ s: ForwardScratch, _ compute: ComputeResources) {
        let layer = layers[l]
        let n = nTokens * config.nEmbd, residualScale = config.residualScale
        if let norm = layer.attnNorm { norm(s.x, rows: nTokens, into: s.xn) } else { s.xn.update(from: s.x, count: n) }
        layer.attention(nRows: nTokens, sequences, layer: l, s, compute)
        if let norm = layer.postAttnNorm { norm(s.blockOut, rows: nTokens, into: s.blockOut) }
        if residualScale != 1 { for i in 0..<n { s.blockOut[i] *= residualScale } }
        VectorMath.add(s.blockOut, into: s.x, n)
        if !layer.parallel {
            if let norm = layer.ffnNorm { norm(s.x, rows: nTokens, into: s.xn) } else { s.xn.update(from: s.x, count: n) }
        }
        layer.feedForward(nTokens: nTokens, s, compute)
        if let norm = layer.postFFNorm { norm(s.blockOut, rows: nTokens, into: s.blockOut) }
        if residualScale != 1 { for i in 0..<n { s.blockOut[i] *= residualScale } }
        VectorMath.add(s.blockOut, into: s.x, n)
    }

    /// Applies the logit scale and final soft-cap, when the model has them, to `rows` rows of
    /// logits `[rows, vocabSize]`.
    func finishLogits(_ logits: UnsafeMutablePointer<Float>, rows: Int) {
        let c = config, n = rows * c.vocabSize
        if c.logitScale != 1 {
            let inverse = 1 / c.logitScale
            for i in 0..<n { logits[i] *= inverse }
        }
        if let cap = c.finalSoftcap {
            let inverse = 1 / cap
            for i in 0..<n { logits[i] = tanhf(logits[i] * inverse) * cap }
        }
    }
}
