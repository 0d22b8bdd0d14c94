/// Every architecture LMSession runs, as llama.cpp b11312 defines it (`src/models/<name>.cpp`).
/// Each entry's comment is its layer in math; ``Decoder`` evaluates all of them. Checked against
/// llama.cpp on generated models by `Tests/LMTransformerTests/Architectures`.
///
/// Chat and tool calls: an entry's `chatFallback` and `toolCalls` apply only to a GGUF whose template does
/// not say (no `tokenizer.chat_template`; a template that renders no tool calls). Otherwise the template is
/// the truth: it is rendered as is, and the tool-call syntax is read from what it renders
/// (``JinjaChatTemplate/toolCalls``), so a family's template-defined syntax needs no entry here.
extension Architecture {
    /// All supported architectures, looked up by `general.architecture`.
    public static let all: [Architecture] = [
        .llama, .qwen2, .qwen3, .gemma2, .gemma3, .phi3, .granite, .olmo2, .starcoder2, .stablelm, .smollm3,
    ]

    /// The architecture a GGUF names in `general.architecture`, or `nil` when LMSession does not run it.
    public init?(named name: String) {
        guard let found = Self.all.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// Llama 1-3 (and Mistral/SmolLM2 GGUFs, which llama.cpp's converter writes as `llama`):
    ///
    ///     h = x + wo(attn(rope(wq·norm(x)), rope(wk·norm(x)), wv·norm(x)))
    ///     y = h + down(silu(gate·norm(h)) * up·norm(h))
    ///
    /// Optional biases on every projection; `rope_freqs` carries Llama 3.1's frequency factors.
    public static let llama = Architecture(
        name: "llama", family: "Llama", norm: .rms, blockNorms: .preNorm, queryKeyNorm: .none,
        feedForward: .gated(.silu),
        rope: RoPEFacts(pairing: .adjacent, frequencyFactors: .ropeFreqsOrLongRoPE, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: true),
        biases: Biases(attentionOutput: .optional, feedForward: .optional, outputHead: .absent),
        outputHead: .tiedUnlessPresent, slidingWindow: .none, embeddingScale: .none,
        attentionScale: .inverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .jsonList)

    /// Qwen 2 / 2.5: llama's layer with NeoX RoPE, Q/K/V biases and an optional output bias.
    public static let qwen2 = Architecture(
        name: "qwen2", family: "Qwen 2", norm: .rms, blockNorms: .preNorm, queryKeyNorm: .none,
        feedForward: .gated(.silu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .none, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: true),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .optional),
        outputHead: .tiedUnlessPresent, slidingWindow: .none, embeddingScale: .none,
        attentionScale: .inverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .hermes)

    /// Qwen 3: Qwen 2 with RMSNorm on each query and key head before RoPE:
    ///
    ///     q = rope(qNorm(wq·norm(x))), k = rope(kNorm(wk·norm(x)))
    public static let qwen3 = Architecture(
        name: "qwen3", family: "Qwen 3", norm: .rms, blockNorms: .preNorm, queryKeyNorm: .perHead,
        feedForward: .gated(.silu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .none, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: true),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .absent),
        outputHead: .tiedUnlessPresent, slidingWindow: .none, embeddingScale: .none,
        attentionScale: .inverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .hermes)

    /// Gemma 2 (Gemma Team 2024):
    ///
    ///     x = embed(token) · sqrt(nEmbd)
    ///     h = x + postNorm(wo(attn(rope(wq·norm(x)), rope(wk·norm(x)), wv·norm(x))))
    ///     y = h + postNorm(down(gelu(gate·norm(h)) * up·norm(h)))
    ///     logits = 30 · tanh(wE·norm(y) / 30)
    ///
    /// Attention scores are capped as `50 · tanh(s / 50)`; every second layer is global, the others
    /// attend to the last 4096 positions. The output head is the embedding.
    public static let gemma2 = Architecture(
        name: "gemma2", family: "Gemma 2", norm: .rms, blockNorms: .sandwich, queryKeyNorm: .none,
        feedForward: .gated(.gelu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .none, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: false),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .absent),
        outputHead: .tied,
        slidingWindow: .always(defaultWindow: 4096, pattern: 2, local: LocalRoPE(base: .swaKeyOrGlobal, scaled: true, yarn: true)),
        embeddingScale: .sqrtEmbeddingLength, attentionScale: .gemma(largeModelLayers: 46),
        softcapping: Softcapping(attention: .keyOr(50), final: .keyOr(30)),
        graniteScales: false, chatFallback: .gemma, toolCalls: .jsonList)

    /// Gemma 3 (Gemma Team 2025): Gemma 2's sandwich with RMSNorm on query and key heads and no
    /// attention cap:
    ///
    ///     q = rope(qNorm(wq·norm(x))), k = rope(kNorm(wk·norm(x)))
    ///
    /// With `attention.sliding_window`, five local layers (RoPE base `rope.freq_base_swa`, else
    /// 10,000, never scaled) alternate with one global layer (the metadata's base and scaling, e.g.
    /// linear ×8 in 4B-27B); without it every layer is global. The final logits are capped only
    /// when `final_logit_softcapping` says so.
    public static let gemma3 = Architecture(
        name: "gemma3", family: "Gemma 3", norm: .rms, blockNorms: .sandwich, queryKeyNorm: .perHead,
        feedForward: .gated(.gelu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .none, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: false),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .absent),
        outputHead: .tiedUnlessPresent,
        slidingWindow: .whenKeyPresent(pattern: 6, local: LocalRoPE(base: .swaKeyOr(10_000), scaled: false, yarn: true)),
        embeddingScale: .sqrtEmbeddingLength, attentionScale: .gemma(largeModelLayers: 62),
        softcapping: Softcapping(attention: nil, final: .key),
        graniteScales: false, chatFallback: .gemma, toolCalls: .jsonList)

    /// Phi-3 / Phi-3.5 / Phi-4: llama's layer with NeoX RoPE, Q/K/V usually stacked in one
    /// `attn_qkv`, gate and up stacked in one `ffn_up`, and LongRoPE factors (`rope_factors_short`/
    /// `_long`, magnitude `rope.scaling.attn_factor`) in the 128K models.
    public static let phi3 = Architecture(
        name: "phi3", family: "Phi-3", norm: .rms, blockNorms: .preNorm, queryKeyNorm: .none,
        feedForward: .gatedStacked(.silu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .longRoPE, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: false),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .absent),
        outputHead: .tiedUnlessPresent, slidingWindow: .ignored, embeddingScale: .none,
        attentionScale: .inverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .jsonList)

    /// IBM Granite 3: llama's layer with four scales from the metadata:
    ///
    ///     x = embed(token) · embedding_scale
    ///     h = x + residual_scale · wo(attn(...))        (scores · attention.scale)
    ///     y = h + residual_scale · ffn(norm(h))
    ///     logits = wout·norm(y) / logit_scale
    ///
    /// `rope.scaling.finetuned` false means no RoPE at all.
    public static let granite = Architecture(
        name: "granite", family: "Granite", norm: .rms, blockNorms: .preNorm, queryKeyNorm: .none,
        feedForward: .gated(.silu),
        rope: RoPEFacts(pairing: .adjacent, frequencyFactors: .ropeFreqsOrLongRoPE, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: true, rotatesWholeHead: true),
        biases: Biases(attentionOutput: .optional, feedForward: .optional, outputHead: .absent),
        outputHead: .tiedUnlessPresent, slidingWindow: .none, embeddingScale: .metadata,
        attentionScale: .metadataOrInverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: true, chatFallback: .chatML, toolCalls: .jsonList)

    /// OLMo 2 (and OLMo 3's sliding-window layers): norms after each half instead of before, and
    /// RMSNorm over the whole query and key projections:
    ///
    ///     h = x + postNorm(wo(attn(rope(qNorm(wq·x)), rope(kNorm(wk·x)), wv·x)))
    ///     y = h + postNorm(down(silu(gate·h) * up·h))
    public static let olmo2 = Architecture(
        name: "olmo2", family: "OLMo 2", norm: .rms, blockNorms: .postNorm, queryKeyNorm: .whole,
        feedForward: .gated(.silu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .none, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: true),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .absent),
        outputHead: .separate,
        slidingWindow: .whenKeyPresent(pattern: 4, local: LocalRoPE(base: .global, scaled: false, yarn: false)),
        embeddingScale: .none, attentionScale: .inverseSqrtHeadDim,
        softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .jsonList)

    /// StarCoder 2: LayerNorm with biases, NeoX RoPE, biases on every projection and a plain GELU MLP:
    ///
    ///     h = x + wo(attn(...)) + bo
    ///     y = h + down(gelu(up·norm(h) + bu)) + bd
    public static let starcoder2 = Architecture(
        name: "starcoder2", family: "StarCoder 2", norm: .layer, blockNorms: .preNorm, queryKeyNorm: .none,
        feedForward: .plain(.gelu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .none, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: true),
        biases: Biases(attentionOutput: .required, feedForward: .required, outputHead: .absent),
        outputHead: .tiedUnlessPresent, slidingWindow: .none, embeddingScale: .none,
        attentionScale: .inverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .jsonList)

    /// StableLM 2: LayerNorm, NeoX RoPE over part of each head (`rope.dimension_count`), SwiGLU.
    /// The 12B model adds a LayerNorm per query/key head and, having no `ffn_norm`, a parallel
    /// residual:
    ///
    ///     n = norm(x);  y = x + wo(attn(...n)) + down(silu(gate·n) * up·n)
    public static let stablelm = Architecture(
        name: "stablelm", family: "StableLM 2", norm: .layer, blockNorms: .preNormOrParallel,
        queryKeyNorm: .perHeadOwnWeightsIfPresent, feedForward: .gated(.silu),
        rope: RoPEFacts(pairing: .neox, frequencyFactors: .none, noRoPEEvery: nil,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: false),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .absent),
        outputHead: .separate, slidingWindow: .none, embeddingScale: .none,
        attentionScale: .inverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .jsonList)

    /// SmolLM3: llama's layer where every fourth layer has no RoPE (NoPE).
    public static let smollm3 = Architecture(
        name: "smollm3", family: "SmolLM3", norm: .rms, blockNorms: .preNorm, queryKeyNorm: .none,
        feedForward: .gated(.silu),
        rope: RoPEFacts(pairing: .adjacent, frequencyFactors: .none, noRoPEEvery: 4,
                        finetunedKeySwitchesRoPE: false, rotatesWholeHead: true),
        biases: Biases(attentionOutput: .absent, feedForward: .absent, outputHead: .absent),
        outputHead: .tiedUnlessPresent, slidingWindow: .none, embeddingScale: .none,
        attentionScale: .inverseSqrtHeadDim, softcapping: Softcapping(attention: nil, final: nil),
        graniteScales: false, chatFallback: .chatML, toolCalls: .jsonList)
}
