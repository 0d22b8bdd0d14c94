/// Llama (Touvron et al. 2023) and its close variants, tensor names as llama.cpp's `LLM_ARCH_LLAMA`:
///
///     h = x + wo(attention(rope(wq(norm(x))), rope(wk(norm(x))), wv(norm(x))))
///     y = h + down(silu(gate(norm(h))) * up(norm(h)))
///
/// Qwen2 adds Q/K/V biases and NeoX RoPE; Qwen3 adds per-head RMSNorm on queries and keys; Mistral
/// is llama with its own metadata. All read from the same tensors when present.
struct Llama: DecoderArchitecture {
    struct Layer: Sendable {
        let attnNorm: RMSNorm
        let attention: AttentionBlock
        let ffnNorm: RMSNorm
        let feedForward: GatedFeedForward
    }

    let config: ModelConfig
    let embedding: LMKernels.WeightMatrix
    let embeddingScale: Float = 1
    let outputNorm: RMSNorm
    let output: Linear
    let ropeGlobal: RoPE
    var ropeLocal: RoPE { ropeGlobal }
    let layers: [Layer]

    init(config c: ModelConfig, tensors: TensorLookup) throws(ModelLoadError) {
        config = c
        let qSize = c.nHead * c.headDim, kvSize = c.nKVHead * c.headDim
        embedding = try tensors.matrix("token_embd.weight", rows: c.vocabSize, cols: c.nEmbd)
        outputNorm = RMSNorm(weight: try tensors.vector("output_norm.weight", count: c.nEmbd), eps: c.normEps)
        let head = try tensors.optionalMatrix("output.weight", rows: c.vocabSize, cols: c.nEmbd) ?? embedding
        output = Linear(weight: head, bias: nil)
        let pairing: RoPE.Pairing = c.architecture.hasPrefix("qwen") ? .neox : .adjacent
        ropeGlobal = RoPE(pairing: pairing, ropeDim: c.ropeDim, base: c.ropeBase)
        var layers: [Layer] = []
        for l in 0..<c.nLayer {
            let p = "blk.\(l)."
            func linear(_ name: String, _ rows: Int, _ cols: Int) throws(ModelLoadError) -> Linear {
                Linear(weight: try tensors.matrix(p + name + ".weight", rows: rows, cols: cols),
                       bias: try tensors.optionalVector(p + name + ".bias", count: rows))
            }
            func headNorm(_ name: String) throws(ModelLoadError) -> RMSNorm? {
                try tensors.optionalVector(p + name + ".weight", count: c.headDim).map { RMSNorm(weight: $0, eps: c.normEps) }
            }
            let attention = AttentionBlock(
                wq: try linear("attn_q", qSize, c.nEmbd), wk: try linear("attn_k", kvSize, c.nEmbd),
                wv: try linear("attn_v", kvSize, c.nEmbd), wo: try linear("attn_output", c.nEmbd, qSize),
                qNorm: try headNorm("attn_q_norm"), kNorm: try headNorm("attn_k_norm"),
                rope: ropeGlobal,
                attention: Attention(nHead: c.nHead, nKVHead: c.nKVHead, headDim: c.headDim,
                                     scale: 1 / Float(c.headDim).squareRoot(), window: nil),
                isLocal: false)
            layers.append(Layer(
                attnNorm: RMSNorm(weight: try tensors.vector(p + "attn_norm.weight", count: c.nEmbd), eps: c.normEps),
                attention: attention,
                ffnNorm: RMSNorm(weight: try tensors.vector(p + "ffn_norm.weight", count: c.nEmbd), eps: c.normEps),
                feedForward: GatedFeedForward(gate: try linear("ffn_gate", c.nFF, c.nEmbd), up: try linear("ffn_up", c.nFF, c.nEmbd),
                                              down: try linear("ffn_down", c.nEmbd, c.nFF), activation: .silu)))
        }
        self.layers = layers
    }

    func layer(_ l: Int, nTokens: Int, firstPosition: Int, _ s: ForwardScratch, _ cache: KVCache, _ compute: ComputeResources) {
        let layer = layers[l]
        let n = nTokens * config.nEmbd
        layer.attnNorm(s.x, nTokens: nTokens, into: s.xn)
        layer.attention(nTokens: nTokens, firstPosition: firstPosition, layer: l, s, cache, compute)
        VectorMath.add(s.blockOut, into: s.x, n)
        layer.ffnNorm(s.x, nTokens: nTokens, into: s.xn)
        layer.feedForward(nTokens: nTokens, s, compute)
        VectorMath.add(s.blockOut, into: s.x, n)
    }
}

import LMKernels
