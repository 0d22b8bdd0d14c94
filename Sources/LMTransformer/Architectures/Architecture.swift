/// What a decoder-only architecture is: everything that differs between the model families a GGUF
/// names in `general.architecture`, as llama.cpp b11312 builds them (`src/models/<name>.cpp`,
/// `llama_model_rope_type`). ``Decoder`` builds any of them from this description, and
/// ``ModelConfig`` reads the metadata keys it implies; every entry is in
/// `Architecture+Catalog.swift`, so adding an architecture made of known parts touches that file
/// only.
///
/// Tensor names are llama.cpp's, the same for every architecture (``TensorName``); which of them a
/// layer has, and whether they are required, follows from these facts.
public struct Architecture: Sendable, Equatable, CustomStringConvertible {
    /// `general.architecture`, the prefix of the model's metadata keys (`llama.block_count`).
    public let name: String
    /// The model family, for people (`"Gemma 2"`).
    public let family: String
    /// The normalisation every norm of the model uses.
    public let norm: Normalization
    /// Which norms surround a layer's attention and feed-forward halves.
    public let blockNorms: BlockNorms
    /// Normalisation of queries and keys before RoPE.
    public let queryKeyNorm: QueryKeyNorm
    public let feedForward: FeedForward
    public let rope: RoPEFacts
    /// Optional and required bias tensors besides Q/K/V (whose biases are optional everywhere, as
    /// llama.cpp's `create_tensor_qkv` reads them).
    public let biases: Biases
    public let outputHead: OutputHead
    public let slidingWindow: SlidingWindow
    public let embeddingScale: EmbeddingScale
    public let attentionScale: AttentionScale
    /// `tanh` soft-capping of attention scores and of the final logits.
    public let softcapping: Softcapping
    /// Granite's residual and logit scales (`residual_scale`, `logit_scale`).
    public let graniteScales: Bool
    /// The native chat format used when the GGUF has no `tokenizer.chat_template`; a GGUF's own template
    /// always wins (``ChatFormat``).
    public let chatFallback: ChatFallback
    /// The tool-call convention used when the GGUF's template defines none (no template, or one that does not
    /// render tool calls): described to the model in the instructions (``ToolCallSyntax/init(architecture:)``).
    /// A syntax the template defines wins (``JinjaChatTemplate/toolCalls``: Hermes `<tool_call>`, Llama 3 JSON,
    /// Mistral `[TOOL_CALLS]`), and a template that writes calls in a syntax LMSession cannot constrain makes the
    /// model one without tool calling, whatever this says.
    public let toolCalls: ToolCallConvention

    public var description: String { name }

    // MARK: Facts

    /// RMSNorm (`y = x / sqrt(mean(x²) + eps) · w`, eps from `attention.layer_norm_rms_epsilon`)
    /// or LayerNorm (`y = (x - mean) / sqrt(var + eps) · w + b`, eps from
    /// `attention.layer_norm_epsilon`; block and output norms have a bias).
    public enum Normalization: String, Sendable { case rms = "RMSNorm", layer = "LayerNorm" }

    public enum BlockNorms: Sendable, Equatable {
        /// `h = x + attn(norm(x))`, `y = h + ffn(norm(h))` (`attn_norm`, `ffn_norm`).
        case preNorm
        /// Pre-norm plus a norm of each half's output (`post_attention_norm`, `post_ffw_norm`): Gemma.
        case sandwich
        /// Only the output norms: `h = x + norm(attn(x))`, `y = h + norm(ffn(h))`: OLMo 2.
        case postNorm
        /// Pre-norm; without `ffn_norm` the feed-forward reads the attention's normalised input
        /// (parallel residual, `y = x + attn(n) + ffn(n)`): StableLM.
        case preNormOrParallel
    }

    public enum QueryKeyNorm: Sendable, Equatable {
        case none
        /// `attn_q_norm`/`attn_k_norm` of `[headDim]`, applied to each head (Qwen 3, Gemma 3).
        case perHead
        /// Of `[nHead · headDim]` and `[nKVHead · headDim]`, over the whole projection (OLMo 2).
        case whole
        /// Optional, `[nHead, headDim]`: each head its own weights (StableLM 2 12B).
        case perHeadOwnWeightsIfPresent
    }

    public enum FeedForward: Sendable, Equatable {
        /// `down(act(gate(x)) · up(x))` (`ffn_gate`, `ffn_up`, `ffn_down`).
        case gated(Activation)
        /// The same with gate and up stacked in one `ffn_up` of `2 · nFF` rows, gate first (Phi-3).
        case gatedStacked(Activation)
        /// `down(act(up(x)))`, no gate (StarCoder 2).
        case plain(Activation)

        public var activation: Activation {
            switch self { case let .gated(a), let .gatedStacked(a), let .plain(a): a }
        }
    }

    /// SiLU, or GELU with the tanh approximation (ggml's `gelu`).
    public enum Activation: String, Sendable { case silu = "SiLU", gelu = "GELU" }

    public struct RoPEFacts: Sendable, Equatable {
        /// ggml's RoPE mode: pairs `(x[2i], x[2i+1])` (`norm`, llama.cpp's converter permuted the
        /// Q/K rows for it) or `(x[i], x[i + ropeDim/2])` (`neox`).
        public enum Pairing: String, Sendable { case adjacent = "adjacent pairs", neox = "NeoX halves" }
        /// Per-dimension frequency divisors read from tensors.
        public enum FrequencyFactors: Sendable, Equatable {
            case none
            /// `rope_freqs` (Llama 3.1 and later), or with `rope.scaling.type` `longrope` the
            /// LongRoPE pair below.
            case ropeFreqsOrLongRoPE
            /// `rope_factors_short` / `rope_factors_long` (Phi-3 LongRoPE): long when the context
            /// exceeds `rope.scaling.original_context_length`.
            case longRoPE
        }
        public let pairing: Pairing
        public let frequencyFactors: FrequencyFactors
        /// Every `n`-th layer (1-based) has no RoPE (SmolLM3: 4).
        public let noRoPEEvery: Int?
        /// `rope.scaling.finetuned` false turns RoPE off in every layer (Granite reads it so).
        public let finetunedKeySwitchesRoPE: Bool
        /// `rope.dimension_count` must equal the head size (llama.cpp checks it for `llama`).
        public let rotatesWholeHead: Bool
    }

    public enum Presence: String, Sendable { case absent, optional, required }

    public struct Biases: Sendable, Equatable {
        /// `attn_output.bias`.
        public let attentionOutput: Presence
        /// `ffn_gate.bias`, `ffn_up.bias`, `ffn_down.bias`.
        public let feedForward: Presence
        /// `output.bias` (Qwen 2).
        public let outputHead: Presence
    }

    public enum OutputHead: Sendable, Equatable {
        /// Always the token embedding; an `output.weight` is not read (Gemma 2).
        case tied
        /// `output.weight`, or the token embedding when the file has none.
        case tiedUnlessPresent
        /// `output.weight` is required.
        case separate
    }

    /// How a layer's local (sliding-window) RoPE differs from the global one.
    public struct LocalRoPE: Sendable, Equatable {
        public enum Base: Sendable, Equatable {
            /// `rope.freq_base_swa`, else the global base (Gemma 2).
            case swaKeyOrGlobal
            /// `rope.freq_base_swa`, else this value (Gemma 3: 10,000).
            case swaKeyOr(Float)
            /// The global base; a different `rope.freq_base_swa` is not applied by llama.cpp, so it is refused (OLMo 3).
            case global
        }
        public let base: Base
        /// Local layers use the trained frequency scale (Gemma 2); else none (scale 1).
        public let scaled: Bool
        /// Local layers apply YaRN's extrapolation and magnitude like global ones; else plain RoPE.
        public let yarn: Bool
    }

    public enum SlidingWindow: Sendable, Equatable {
        /// Every layer attends to all earlier positions.
        case none
        /// `attention.sliding_window` is read and not applied, as llama.cpp b11312 (its Phi-3 SWA is disabled).
        case ignored
        /// Local layers only when `attention.sliding_window` is present and positive: every
        /// `pattern`-th layer global unless `attention.sliding_window_pattern` says otherwise (Gemma 3, OLMo 3).
        case whenKeyPresent(pattern: Int, local: LocalRoPE)
        /// Always; the window is `defaultWindow` when the key is absent (Gemma 2).
        case always(defaultWindow: Int, pattern: Int, local: LocalRoPE)
    }

    public enum EmbeddingScale: Sendable, Equatable {
        case none
        /// `sqrt(nEmbd)` (Gemma).
        case sqrtEmbeddingLength
        /// `embedding_scale` when present (Granite).
        case metadata
    }

    public enum AttentionScale: Sendable, Equatable {
        /// `1 / sqrt(headDim)`.
        case inverseSqrtHeadDim
        /// `attention.scale` when present, else `1 / sqrt(headDim)` (Granite).
        case metadataOrInverseSqrtHeadDim
        /// `1 / sqrt(nEmbd / nHead)` for the 27B model (recognised by its layer count, as llama.cpp
        /// does: Gemma's `query_pre_attn_scalar` is not in the GGUF), else `1 / sqrt(headDim)`.
        case gemma(largeModelLayers: Int)
    }

    public struct Softcapping: Sendable, Equatable {
        /// Where a cap comes from.
        public enum Source: Sendable, Equatable {
            /// The metadata key, else this default.
            case keyOr(Float)
            /// The metadata key when present and non-zero; none otherwise.
            case key
        }
        /// `cap · tanh(score / cap)` on attention scores (`attn_logit_softcapping`).
        public let attention: Source?
        /// The same on the output logits (`final_logit_softcapping`).
        public let final: Source?
    }

    public enum ChatFallback: String, Sendable {
        /// ChatML turns (llama.cpp's own fallback for a GGUF without a template).
        case chatML
        /// Gemma turns (`<start_of_turn>user`).
        case gemma
    }

    /// The fallback tool-call conventions (``toolCalls``); ``ToolCallSyntax/init(architecture:)`` spells each out.
    public enum ToolCallConvention: String, Sendable {
        /// One `<tool_call>` envelope holding a JSON list of calls (SmolLM2's training data).
        case jsonList
        /// One `<tool_call>{...}</tool_call>` per call (Hermes, Qwen).
        case hermes
    }
}

/// llama.cpp's tensor names (`LLM_TENSOR_NAMES`), shared by every architecture.
enum TensorName {
    static let tokenEmbedding = "token_embd", outputNorm = "output_norm", output = "output"
    static let ropeFreqs = "rope_freqs", ropeFactorsLong = "rope_factors_long", ropeFactorsShort = "rope_factors_short"
    static let attnNorm = "attn_norm", attnQ = "attn_q", attnK = "attn_k", attnV = "attn_v", attnQKV = "attn_qkv"
    static let attnOutput = "attn_output", attnQNorm = "attn_q_norm", attnKNorm = "attn_k_norm"
    static let postAttentionNorm = "post_attention_norm"
    static let ffnNorm = "ffn_norm", ffnGate = "ffn_gate", ffnUp = "ffn_up", ffnDown = "ffn_down"
    static let postFFNNorm = "post_ffw_norm"

    /// `blk.<layer>.<name>`.
    static func layer(_ l: Int, _ name: String) -> String { "blk.\(l).\(name)" }
}
