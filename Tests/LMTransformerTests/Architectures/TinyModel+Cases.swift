import LMGGUF

/// The generated models the architecture suite checks against llama.cpp: each architecture, and
/// the variants that change what is computed (tied/untied heads, BOS, biases, RoPE scaling and
/// factors, sliding windows and their patterns, soft-caps, scales). Adding a case needs new
/// llama.cpp figures (`Reference/make_reference.py`).
extension TinyModel {
    static let all: [TinyModel] = llama + qwen + gemma + phi3 + granite + olmo + starcoder2 + stablelm + smollm3

    private static func make(_ name: String, _ architecture: String, seed: UInt64, _ configure: (inout TinyModel) -> Void) -> TinyModel {
        var m = TinyModel(name: name, architecture: architecture, seed: seed)
        configure(&m)
        return m
    }

    /// Llama's layer: pre-norms, attention, SwiGLU.
    private func preNormLayer(qkvBias: Bool = false, outputBias: Bool = false, ffnBias: Bool = false) -> [Tensor] {
        Self.norm("attn_norm", nEmbd) + attention(qkvBias: qkvBias, outputBias: outputBias)
            + Self.norm("ffn_norm", nEmbd) + gatedFFN(bias: ffnBias)
    }

    static let llama: [TinyModel] = [
        make("llama-untied-bos", "llama", seed: 1) {
            $0.globalTensors = $0.outputHead
            $0.layerTensors = $0.preNormLayer()
        },
        make("llama-tied", "llama", seed: 2) {
            $0.matrixType = .q8_0
            $0.addBOS = false
            $0.layerTensors = $0.preNormLayer()
        },
        make("llama-biases", "llama", seed: 3) {
            $0.layerTensors = $0.preNormLayer(qkvBias: true, outputBias: true, ffnBias: true)
        },
        make("llama3-rope-freqs", "llama", seed: 4) {
            $0.matrixType = .q8_0
            $0.keys = [("rope.freq_base", .float32(500_000))]
            $0.globalTensors = [Tensor(name: "rope_freqs.weight", shape: [$0.headDim / 2], values: .ropeFactors)]
            $0.layerTensors = $0.preNormLayer()
        },
        make("llama-rope-linear", "llama", seed: 5) {
            $0.keys = [("rope.scaling.type", .string("linear")), ("rope.scaling.factor", .float32(4))]
            $0.layerTensors = $0.preNormLayer()
        },
    ]

    static let qwen: [TinyModel] = [
        make("qwen2", "qwen2", seed: 11) {
            $0.matrixType = .q8_0
            $0.addBOS = false
            $0.keys = [("rope.freq_base", .float32(1_000_000))]
            $0.layerTensors = $0.preNormLayer(qkvBias: true)
        },
        make("qwen2-yarn-output-bias", "qwen2", seed: 12) {
            $0.keys = [("rope.freq_base", .float32(1_000_000)), ("rope.scaling.type", .string("yarn")),
                       ("rope.scaling.factor", .float32(4)), ("rope.scaling.original_context_length", .uint32(64))]
            $0.globalTensors = $0.outputHead + [Tensor(name: "output.bias", shape: [TinyModel.vocabulary.count], values: .bias)]
            $0.layerTensors = $0.preNormLayer(qkvBias: true)
        },
        make("qwen3", "qwen3", seed: 13) {
            $0.matrixType = .q8_0
            $0.addBOS = false
            $0.layerTensors = Self.norm("attn_norm", $0.nEmbd) + $0.attention()
                + Self.norm("attn_q_norm", $0.headDim) + Self.norm("attn_k_norm", $0.headDim)
                + Self.norm("ffn_norm", $0.nEmbd) + $0.gatedFFN()
        },
    ]

    /// Gemma's sandwich layer, with per-head query/key norms for Gemma 3.
    private func gemmaLayer(headNorms: Bool) -> [Tensor] {
        Self.norm("attn_norm", nEmbd) + attention()
            + (headNorms ? Self.norm("attn_q_norm", headDim) + Self.norm("attn_k_norm", headDim) : [])
            + Self.norm("post_attention_norm", nEmbd) + Self.norm("ffn_norm", nEmbd) + gatedFFN() + Self.norm("post_ffw_norm", nEmbd)
    }

    static let gemma: [TinyModel] = [
        make("gemma2-caps", "gemma2", seed: 21) {
            $0.keys = [("attention.sliding_window", .uint32(16)), ("attn_logit_softcapping", .float32(5)),
                       ("final_logit_softcapping", .float32(4))]
            $0.layerTensors = $0.gemmaLayer(headNorms: false)
        },
        make("gemma2-defaults", "gemma2", seed: 22) {
            $0.matrixType = .q8_0
            $0.layerTensors = $0.gemmaLayer(headNorms: false)
        },
        make("gemma3-window-linear8", "gemma3", seed: 23) {
            $0.nLayer = 6
            $0.keys = [("rope.freq_base", .float32(1_000_000)), ("attention.sliding_window", .uint32(16)),
                       ("rope.scaling.type", .string("linear")), ("rope.scaling.factor", .float32(8))]
            $0.layerTensors = $0.gemmaLayer(headNorms: true)
        },
        make("gemma3-pattern-softcap", "gemma3", seed: 24) {
            $0.matrixType = .q8_0
            $0.keys = [("attention.sliding_window", .uint32(16)), ("attention.sliding_window_pattern", .uint32(2)),
                       ("rope.freq_base_swa", .float32(5_000)), ("final_logit_softcapping", .float32(4))]
            $0.layerTensors = $0.gemmaLayer(headNorms: true)
        },
        make("gemma3-no-window", "gemma3", seed: 25) {
            $0.matrixType = .q8_0
            $0.nLayer = 3
            $0.keys = [("rope.freq_base_swa", .float32(5_000))]
            $0.globalTensors = $0.outputHead
            $0.layerTensors = $0.gemmaLayer(headNorms: true)
        },
        // 62 layers is how llama.cpp recognises the 27B model: queries scaled by 1/sqrt(nEmbd / nHead).
        make("gemma3-27b-query-scale", "gemma3", seed: 26) {
            $0.matrixType = .q8_0
            $0.nLayer = 62
            $0.nHead = 2
            $0.nKVHead = 1
            $0.nFF = 32
            $0.layerTensors = $0.gemmaLayer(headNorms: true)
        },
    ]

    static let phi3: [TinyModel] = [
        make("phi3-longrope-fused", "phi3", seed: 31) {
            $0.keys = [("rope.scaling.original_context_length", .uint32(64)), ("rope.scaling.attn_factor", .float32(1.19)),
                       ("attention.sliding_window", .uint32(8))]
            $0.globalTensors = [Tensor(name: "rope_factors_long.weight", shape: [$0.headDim / 2], values: .ropeFactors),
                                Tensor(name: "rope_factors_short.weight", shape: [$0.headDim / 2], values: .ropeFactors)]
            $0.layerTensors = Self.norm("attn_norm", $0.nEmbd) + $0.attention(fused: true) + Self.norm("ffn_norm", $0.nEmbd)
                + Self.linear("ffn_up", rows: 2 * $0.nFF, cols: $0.nEmbd) + Self.linear("ffn_down", rows: $0.nEmbd, cols: $0.nFF)
        },
        make("phi3-split", "phi3", seed: 32) {
            $0.matrixType = .q8_0
            $0.keys = [("attention.sliding_window", .uint32(8))]
            $0.layerTensors = Self.norm("attn_norm", $0.nEmbd) + $0.attention() + Self.norm("ffn_norm", $0.nEmbd)
                + Self.linear("ffn_up", rows: 2 * $0.nFF, cols: $0.nEmbd) + Self.linear("ffn_down", rows: $0.nEmbd, cols: $0.nFF)
        },
    ]

    static let granite: [TinyModel] = [
        make("granite-scales", "granite", seed: 41) {
            $0.matrixType = .q8_0
            $0.keys = [("embedding_scale", .float32(12)), ("residual_scale", .float32(0.22)),
                       ("attention.scale", .float32(0.1)), ("logit_scale", .float32(4))]
            $0.layerTensors = $0.preNormLayer()
        },
        make("granite-no-rope", "granite", seed: 42) {
            $0.keys = [("logit_scale", .float32(2)), ("rope.scaling.finetuned", .bool(false))]
            $0.layerTensors = $0.preNormLayer()
        },
    ]

    /// OLMo 2's layer: no pre-norms, whole-projection query/key norms, post norms.
    private var olmoLayer: [Tensor] {
        attention() + Self.norm("attn_q_norm", qSize) + Self.norm("attn_k_norm", kvSize) + Self.norm("post_attention_norm", nEmbd)
            + gatedFFN() + Self.norm("post_ffw_norm", nEmbd)
    }

    static let olmo: [TinyModel] = [
        make("olmo2", "olmo2", seed: 51) {
            $0.globalTensors = $0.outputHead
            $0.layerTensors = $0.olmoLayer
        },
        make("olmo3-window-yarn", "olmo2", seed: 52) {
            $0.matrixType = .q8_0
            $0.keys = [("attention.sliding_window", .uint32(16)),
                       ("attention.sliding_window_pattern", .array(.bool([true, true, true, false]))),
                       ("rope.scaling.type", .string("yarn")), ("rope.scaling.factor", .float32(2)),
                       ("rope.scaling.original_context_length", .uint32(64))]
            $0.globalTensors = $0.outputHead
            $0.layerTensors = $0.olmoLayer
        },
    ]

    static let starcoder2: [TinyModel] = [
        make("starcoder2", "starcoder2", seed: 61) {
            $0.epsilonKey = "attention.layer_norm_epsilon"
            $0.globalTensors = [Tensor(name: "output_norm.bias", shape: [$0.nEmbd], values: .bias)]
            $0.layerTensors = Self.norm("attn_norm", $0.nEmbd, bias: true) + $0.attention(qkvBias: true, outputBias: true)
                + Self.norm("ffn_norm", $0.nEmbd, bias: true)
                + Self.linear("ffn_up", rows: $0.nFF, cols: $0.nEmbd, bias: true) + Self.linear("ffn_down", rows: $0.nEmbd, cols: $0.nFF, bias: true)
        },
    ]

    static let stablelm: [TinyModel] = [
        make("stablelm-partial-rope", "stablelm", seed: 71) {
            $0.matrixType = .q8_0
            $0.epsilonKey = "attention.layer_norm_epsilon"
            $0.keys = [("rope.dimension_count", .uint32(4))]
            $0.globalTensors = [Tensor(name: "output_norm.bias", shape: [$0.nEmbd], values: .bias)] + $0.outputHead
            $0.layerTensors = Self.norm("attn_norm", $0.nEmbd, bias: true) + $0.attention(qkvBias: true)
                + Self.norm("ffn_norm", $0.nEmbd, bias: true) + $0.gatedFFN()
        },
        make("stablelm-parallel-head-norms", "stablelm", seed: 72) {
            $0.epsilonKey = "attention.layer_norm_epsilon"
            $0.keys = [("rope.dimension_count", .uint32(8))]
            $0.globalTensors = [Tensor(name: "output_norm.bias", shape: [$0.nEmbd], values: .bias)] + $0.outputHead
            $0.layerTensors = Self.norm("attn_norm", $0.nEmbd, bias: true) + $0.attention()
                + [Tensor(name: "attn_q_norm.weight", shape: [$0.nHead, $0.headDim], values: .norm(scale: 1)),
                   Tensor(name: "attn_k_norm.weight", shape: [$0.nKVHead, $0.headDim], values: .norm(scale: 1))]
                + $0.gatedFFN()
        },
    ]

    static let smollm3: [TinyModel] = [
        make("smollm3-nope", "smollm3", seed: 81) {
            $0.matrixType = .q8_0
            $0.layerTensors = $0.preNormLayer()
        },
    ]
}
