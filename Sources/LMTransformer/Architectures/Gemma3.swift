import LMKernels

/// Gemma 3 (Gemma Team 2025), tensor names and constants as llama.cpp's `LLM_ARCH_GEMMA3`:
///
///     x = embed(token) * sqrt(nEmbd)
///     h = x + postAttnNorm(wo(attention(rope(qNorm(wq(norm(x)))), rope(kNorm(wk(norm(x)))), wv(norm(x)))))
///     y = h + postFFNorm(down(gelu_tanh(gate(norm(h))) * up(norm(h))))
///
/// Five local layers (sliding window, RoPE base 10,000) alternate with one global layer (RoPE base
/// from the metadata); RoPE pairs are NeoX-style; the output head is tied to the embedding.
struct Gemma3: DecoderArchitecture {
    struct Layer: Sendable {
        let attnNorm: RMSNorm
        let attention: AttentionBlock
        let postAttnNorm: RMSNorm
        let ffnNorm: RMSNorm
        let feedForward: GatedFeedForward
        let postFFNorm: RMSNorm
    }

    let config: ModelConfig
    let embedding: WeightMatrix
    let embeddingScale: Float
    let outputNorm: RMSNorm
    let output: Linear
    let ropeGlobal: RoPE
    let ropeLocal: RoPE
    let layers: [Layer]

    init(config c: ModelConfig, tensors: TensorLookup) throws(ModelLoadError) {
        config = c
        let qSize = c.nHead * c.headDim, kvSize = c.nKVHead * c.headDim
        embedding = try tensors.matrix("token_embd.weight", rows: c.vocabSize, cols: c.nEmbd)
        embeddingScale = Float(c.nEmbd).squareRoot()
        outputNorm = RMSNorm(weight: try tensors.vector("output_norm.weight", count: c.nEmbd), eps: c.normEps)
        output = Linear(weight: try tensors.optionalMatrix("output.weight", rows: c.vocabSize, cols: c.nEmbd) ?? embedding, bias: nil)
        ropeGlobal = RoPE(pairing: .neox, ropeDim: c.ropeDim, base: c.ropeBase)
        ropeLocal = RoPE(pairing: .neox, ropeDim: c.ropeDim, base: c.ropeBaseLocal)
        var layers: [Layer] = []
        for l in 0..<c.nLayer {
            let p = "blk.\(l)."
            func linear(_ name: String, _ rows: Int, _ cols: Int) throws(ModelLoadError) -> Linear {
                Linear(weight: try tensors.matrix(p + name + ".weight", rows: rows, cols: cols), bias: nil)
            }
            func norm(_ name: String, _ count: Int) throws(ModelLoadError) -> RMSNorm {
                RMSNorm(weight: try tensors.vector(p + name + ".weight", count: count), eps: c.normEps)
            }
            let local = c.isLocalLayer(l)
            let attention = AttentionBlock(
                wq: try linear("attn_q", qSize, c.nEmbd), wk: try linear("attn_k", kvSize, c.nEmbd),
                wv: try linear("attn_v", kvSize, c.nEmbd), wo: try linear("attn_output", c.nEmbd, qSize),
                qNorm: try norm("attn_q_norm", c.headDim), kNorm: try norm("attn_k_norm", c.headDim),
                rope: local ? ropeLocal : ropeGlobal,
                attention: Attention(nHead: c.nHead, nKVHead: c.nKVHead, headDim: c.headDim,
                                     scale: 1 / Float(c.headDim).squareRoot(), window: local ? c.slidingWindow : nil),
                isLocal: local)
            layers.append(Layer(
                attnNorm: try norm("attn_norm", c.nEmbd),
                attention: attention,
                postAttnNorm: try norm("post_attention_norm", c.nEmbd),
                ffnNorm: try norm("ffn_norm", c.nEmbd),
                feedForward: GatedFeedForward(gate: try linear("ffn_gate", c.nFF, c.nEmbd), up: try linear("ffn_up", c.nFF, c.nEmbd),
                                              down: try linear("ffn_down", c.nEmbd, c.nFF), activation: .geluTanh),
                postFFNorm: try norm("post_ffw_norm", c.nEmbd)))
        }
        self.layers = layers
    }

    func layer(_ l: Int, nTokens: Int, firstPosition: Int, _ s: ForwardScratch, _ cache: KVCache, _ compute: ComputeResources) {
        let layer = layers[l]
        let n = nTokens * config.nEmbd
        layer.attnNorm(s.x, nTokens: nTokens, into: s.xn)
        layer.attention(nTokens: nTokens, firstPosition: firstPosition, layer: l, s, cache, compute)
        layer.postAttnNorm(s.blockOut, nTokens: nTokens, into: s.blockOut)
        VectorMath.add(s.blockOut, into: s.x, n)
        layer.ffnNorm(s.x, nTokens: nTokens, into: s.xn)
        layer.feedForward(nTokens: nTokens, s, compute)
        layer.postFFNorm(s.blockOut, nTokens: nTokens, into: s.blockOut)
        VectorMath.add(s.blockOut, into: s.x, n)
    }
}
