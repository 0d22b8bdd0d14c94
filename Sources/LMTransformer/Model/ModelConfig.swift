import LMGGUF

/// Hyperparameters of a decoder-only transformer, read from GGUF metadata (`{arch}.*` keys, names
/// as in llama.cpp's `llm_kv`).
public struct ModelConfig: Sendable, Equatable {
    /// `general.architecture`: `llama`, `qwen2`, `qwen3`, `mistral`, `gemma3`.
    public let architecture: String
    /// Trained context length in tokens (`{arch}.context_length`).
    public let contextLength: Int
    public let vocabSize: Int
    public let nLayer: Int
    public let nEmbd: Int
    public let nFF: Int
    public let nHead: Int
    public let nKVHead: Int
    /// Per-head dimension of queries and keys (`{arch}.attention.key_length`, default nEmbd / nHead).
    public let headDim: Int
    public let normEps: Float
    /// RoPE frequency base (`{arch}.rope.freq_base`).
    public let ropeBase: Float
    /// RoPE base for sliding-window (local) layers; Gemma 3 uses 10,000 there.
    public let ropeBaseLocal: Float
    /// Dimensions rotated by RoPE per head (`{arch}.rope.dimension_count`, default headDim).
    public let ropeDim: Int
    /// Sliding-window size in tokens for local attention layers, `nil` when every layer is global.
    public let slidingWindow: Int?
    /// Every `slidingWindowPattern`-th layer is global (Gemma 3: 6), the others local.
    public let slidingWindowPattern: Int

    init(file: GGUFFile, vocabSize: Int) throws(ModelLoadError) {
        guard let arch = file.architecture else { throw .missingKey("general.architecture") }
        architecture = arch
        func int(_ key: String, _ fallback: Int? = nil) throws(ModelLoadError) -> Int {
            if let v = file["\(arch).\(key)"]?.int { return v }
            if let fallback { return fallback }
            throw .missingKey("\(arch).\(key)")
        }
        func float(_ key: String, _ fallback: Float) -> Float {
            file["\(arch).\(key)"]?.double.map(Float.init) ?? fallback
        }
        self.vocabSize = vocabSize
        contextLength = try int("context_length")
        nLayer = try int("block_count")
        nEmbd = try int("embedding_length")
        nFF = try int("feed_forward_length")
        nHead = try int("attention.head_count")
        nKVHead = try int("attention.head_count_kv", nHead)
        let defaultHeadDim = nHead > 0 ? nEmbd / nHead : 0
        headDim = try int("attention.key_length", defaultHeadDim)
        normEps = float("attention.layer_norm_rms_epsilon", 1e-5)
        ropeBase = float("rope.freq_base", 10_000)
        ropeDim = try int("rope.dimension_count", headDim)
        if arch == "gemma3" {
            slidingWindow = try int("attention.sliding_window", 512)
            slidingWindowPattern = 6
            ropeBaseLocal = 10_000
        } else {
            slidingWindow = nil
            slidingWindowPattern = 1
            ropeBaseLocal = ropeBase
        }
        let valid = nLayer > 0 && nEmbd > 0 && nHead > 0 && nKVHead > 0 && nHead % nKVHead == 0
            && headDim > 0 && headDim % 2 == 0 && ropeDim <= headDim && nFF > 0 && contextLength > 0
            && nLayer <= 1024 && nEmbd <= 1 << 16 && headDim <= 1024 && nHead <= 1024
        guard valid else { throw .invalidHyperparameters("\(arch): layers \(nLayer), n_embd \(nEmbd), n_ff \(nFF), heads \(nHead)/\(nKVHead), head_dim \(headDim), rope dims \(ropeDim), context \(contextLength)") }
        // NaN or non-positive constants would load but only ever produce NaN logits.
        guard ropeBase.isFinite, ropeBase > 0 else { throw .invalidHyperparameters("\(arch).rope.freq_base = \(ropeBase)") }
        guard normEps.isFinite, normEps > 0 else { throw .invalidHyperparameters("\(arch).attention.layer_norm_rms_epsilon = \(normEps)") }
        guard ropeDim > 0, ropeDim % 2 == 0 else { throw .invalidHyperparameters("\(arch).rope.dimension_count = \(ropeDim) (must be even and positive)") }
        guard vocabSize > 0 else { throw .invalidHyperparameters("empty vocabulary") }
    }

    /// Whether layer `l` attends only to the last `slidingWindow` tokens.
    public func isLocalLayer(_ l: Int) -> Bool {
        slidingWindow != nil && (l + 1) % slidingWindowPattern != 0
    }
}
