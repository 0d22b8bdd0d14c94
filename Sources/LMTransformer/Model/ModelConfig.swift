import LMGGUF

/// Hyperparameters of a decoder-only transformer, read from GGUF metadata (`{arch}.*` keys, names
/// as in llama.cpp's `llm_kv`) as its ``Architecture`` says, with llama.cpp b11312's defaults.
public struct ModelConfig: Sendable, Equatable {
    /// What the model is, from `general.architecture`.
    public let architecture: Architecture
    /// Trained context length in tokens (`{arch}.context_length`).
    public let contextLength: Int
    public let vocabSize: Int
    public let nLayer: Int
    public let nEmbd: Int
    public let nFF: Int
    public let nHead: Int
    public let nKVHead: Int
    /// Per-head dimension of queries, keys and values (`attention.key_length`, default nEmbd / nHead).
    public let headDim: Int
    /// Epsilon of every norm (`attention.layer_norm_rms_epsilon` or `attention.layer_norm_epsilon`).
    public let normEps: Float
    /// `rope.scaling.type` and factor (`rope.scaling.factor`, 1 when unscaled).
    public let ropeScaling: RoPEScalingType
    public let ropeScalingFactor: Float
    /// RoPE of global layers and of local (sliding-window) layers.
    public let ropeGlobal: RoPEParameters
    public let ropeLocal: RoPEParameters
    /// Sliding-window size in tokens of local layers, `nil` when every layer is global.
    public let slidingWindow: Int?
    /// Per layer: attends only to the last `slidingWindow` positions.
    public let localLayers: [Bool]
    /// Per layer: rotates queries and keys (false in SmolLM3's NoPE layers, or with Granite's switch off).
    public let ropeLayers: [Bool]
    /// Multiplies attention scores `q·k`.
    public let attentionScale: Float
    /// `cap · tanh(x / cap)` on attention scores and on logits, when set.
    public let attentionSoftcap: Float?
    public let finalSoftcap: Float?
    /// Multiplies token embeddings after lookup.
    public let embeddingScale: Float
    /// Multiplies each half's output before the residual add (Granite; else 1).
    public let residualScale: Float
    /// Divides the logits (Granite; else 1).
    public let logitScale: Float
    /// Keys read and deliberately not applied, as llama.cpp does (Phi-3's sliding window), with why.
    public let notApplied: [String]

    /// RoPE dimensions per head.
    public var ropeDim: Int { ropeGlobal.dimensions }
    /// RoPE frequency base of global layers (`rope.freq_base`).
    public var ropeBase: Float { ropeGlobal.base }
    /// RoPE base of local layers.
    public var ropeBaseLocal: Float { ropeLocal.base }

    /// Whether layer `l` attends only to the last `slidingWindow` tokens.
    public func isLocalLayer(_ l: Int) -> Bool { localLayers[l] }
}

extension ModelConfig {
    /// Reads the hyperparameters of `file`, whose tokenizer has `vocabSize` tokens.
    /// - Throws: ``ModelLoadError/unsupportedArchitecture(_:)`` for an unknown `general.architecture`,
    ///   ``ModelLoadError/missingKey(_:)`` for a required key that is absent or mistyped,
    ///   ``ModelLoadError/invalidHyperparameters(_:)`` for values that cannot describe a model, and
    ///   ``ModelLoadError/unsupported(_:)`` listing every key or value the runtime does not implement.
    init(file: GGUFFile, vocabSize: Int) throws(ModelLoadError) {
        guard let name = file.architecture else { throw .missingKey("general.architecture") }
        guard let arch = Architecture(named: name) else { throw .unsupportedArchitecture(name) }
        var reader = ArchitectureMetadata(file: file, architecture: name)
        var c = try Self.read(arch, &reader, vocabSize: vocabSize)
        Self.checkNeutralKeys(arch, &reader)
        let problems = reader.unsupported + reader.unconsultedKeys.map(Unsupported.key)
        if !problems.isEmpty { throw .unsupported(problems) }
        c.architecture = arch
        self = c.build()
    }

    /// Keys that change nothing with these values and are refused otherwise.
    private static func checkNeutralKeys(_ arch: Architecture, _ r: inout ArchitectureMetadata) {
        _ = try? r.optionalInt("vocab_size") // read by llama.cpp only to name the model size
        if arch.slidingWindow == .none {
            r.requireNeutral("attention.sliding_window", { $0.int == 0 }, "\(arch.family) has no sliding-window attention in llama.cpp b11312")
        }
        r.requireNeutral("expert_count", { $0.int == 0 }, "mixture-of-experts layers are not implemented")
        r.requireNeutral("expert_used_count", { $0.int == 0 }, "mixture-of-experts layers are not implemented")
        r.requireNeutral("attention.causal", { $0.bool == true }, "non-causal (embedding) attention is not implemented")
        r.requireNeutral("pooling_type", { $0.int == 0 }, "embedding pooling is not implemented")
        // Read by llama.cpp for these architectures only to be stored back; Granite's reading is in `read`.
        r.requireNeutral("rope.scaling.finetuned", { $0.bool != nil }, "must be a boolean")
        r.requireNeutral("rope.scaling.yarn_beta_fast", { $0.double == 32 }, "llama.cpp b11312 does not read it for this architecture (uses 32)")
        r.requireNeutral("rope.scaling.yarn_beta_slow", { $0.double == 1 }, "llama.cpp b11312 does not read it for this architecture (uses 1)")
    }
}

/// The fields of ``ModelConfig`` while they are being read.
private struct Draft {
    var architecture: Architecture
    var contextLength = 0, vocabSize = 0, nLayer = 0, nEmbd = 0, nFF = 0, nHead = 0, nKVHead = 0, headDim = 0
    var normEps: Float = 0
    var ropeScaling = RoPEScalingType.linear, ropeScalingFactor: Float = 1
    var ropeGlobal = RoPEParameters(base: 10_000, dimensions: 0, originalContext: 0)
    var ropeLocal = RoPEParameters(base: 10_000, dimensions: 0, originalContext: 0)
    var slidingWindow: Int?
    var localLayers: [Bool] = [], ropeLayers: [Bool] = []
    var attentionScale: Float = 1, attentionSoftcap: Float?, finalSoftcap: Float?
    var embeddingScale: Float = 1, residualScale: Float = 1, logitScale: Float = 1
    var notApplied: [String] = []

    func build() -> ModelConfig {
        ModelConfig(architecture: architecture, contextLength: contextLength, vocabSize: vocabSize, nLayer: nLayer,
                    nEmbd: nEmbd, nFF: nFF, nHead: nHead, nKVHead: nKVHead, headDim: headDim, normEps: normEps,
                    ropeScaling: ropeScaling, ropeScalingFactor: ropeScalingFactor, ropeGlobal: ropeGlobal,
                    ropeLocal: ropeLocal, slidingWindow: slidingWindow, localLayers: localLayers, ropeLayers: ropeLayers,
                    attentionScale: attentionScale, attentionSoftcap: attentionSoftcap, finalSoftcap: finalSoftcap,
                    embeddingScale: embeddingScale, residualScale: residualScale, logitScale: logitScale,
                    notApplied: notApplied)
    }
}

extension ModelConfig {
    fileprivate static func read(_ arch: Architecture, _ r: inout ArchitectureMetadata, vocabSize: Int) throws(ModelLoadError) -> Draft {
        var d = Draft(architecture: arch)
        let name = arch.name
        d.vocabSize = vocabSize
        d.contextLength = try r.int("context_length")
        d.nLayer = try r.int("block_count")
        d.nEmbd = try r.int("embedding_length")
        d.nFF = try r.int("feed_forward_length")
        d.nHead = try r.int("attention.head_count")
        d.nKVHead = try r.int("attention.head_count_kv", d.nHead)
        d.headDim = try r.int("attention.key_length", d.nHead > 0 ? d.nEmbd / d.nHead : 0)
        let valueLength = try r.int("attention.value_length", d.nHead > 0 ? d.nEmbd / d.nHead : 0)
        if valueLength != d.headDim {
            r.report(.value(key: r.fullName("attention.value_length"), value: "\(valueLength)",
                            reason: "value heads of another size than key heads (\(d.headDim)) are not implemented"))
        }
        d.normEps = try r.float(arch.norm == .rms ? "attention.layer_norm_rms_epsilon" : "attention.layer_norm_epsilon")
        // The first rule broken is named, with the values it read.
        let rules: [(holds: Bool, rule: String)] = [
            (d.nLayer > 0 && d.nLayer <= 1024, "block_count must be 1...1024"),
            (d.nEmbd > 0 && d.nEmbd <= 1 << 16, "embedding_length must be 1...65536"),
            (d.nHead > 0 && d.nHead <= 1024, "attention.head_count must be 1...1024"),
            (d.nKVHead > 0, "attention.head_count_kv must be positive"),
            (d.nKVHead > 0 && d.nHead % d.nKVHead == 0, "\(d.nHead) query heads are not a multiple of \(d.nKVHead) KV heads (attention.head_count_kv)"),
            (d.headDim > 0 && d.headDim % 2 == 0 && d.headDim <= 1024,
             "the head size (attention.key_length, or embedding_length / head_count) must be even and 2...1024"),
            (d.nFF > 0 && d.nFF <= 1 << 20, "feed_forward_length must be 1...1048576"),
            (d.contextLength > 0, "context_length must be positive"),
        ]
        if let broken = rules.first(where: { !$0.holds }) {
            throw .invalidHyperparameters("\(name): \(broken.rule) (layers \(d.nLayer), n_embd \(d.nEmbd), n_ff \(d.nFF), heads \(d.nHead)/\(d.nKVHead), head_dim \(d.headDim), context \(d.contextLength))")
        }
        // NaN or non-positive constants would load but only ever produce NaN logits.
        guard d.normEps.isFinite, d.normEps > 0 else { throw .invalidHyperparameters("\(name) norm epsilon = \(d.normEps)") }
        guard vocabSize > 0 else { throw .invalidHyperparameters("empty vocabulary") }

        try readRoPE(arch, &r, &d)
        try readSlidingWindow(arch, &r, &d)
        try readScales(arch, &r, &d)
        return d
    }

    private static func readRoPE(_ arch: Architecture, _ r: inout ArchitectureMetadata, _ d: inout Draft) throws(ModelLoadError) {
        let dims = try r.int("rope.dimension_count", d.headDim)
        guard dims > 0, dims % 2 == 0, dims <= d.headDim else {
            throw .invalidHyperparameters("\(r.fullName("rope.dimension_count")) = \(dims) (must be even, positive, at most head_dim \(d.headDim))")
        }
        if arch.rope.rotatesWholeHead && dims != d.headDim {
            r.report(.value(key: r.fullName("rope.dimension_count"), value: "\(dims)",
                            reason: "\(arch.name) rotates whole heads of \(d.headDim) (llama.cpp refuses partial rotation here)"))
        }
        let base = try r.optionalFloat("rope.freq_base") ?? 10_000
        guard base.isFinite, base > 0 else { throw .invalidHyperparameters("\(r.fullName("rope.freq_base")) = \(base)") }
        let typeName = try r.optionalString("rope.scaling.type") ?? "linear"
        guard let scaling = RoPEScalingType(rawValue: typeName) else {
            throw .unsupported([.value(key: r.fullName("rope.scaling.type"), value: "\"\(typeName)\"", reason: "unknown RoPE scaling type")])
        }
        var factor = try r.optionalFloat("rope.scaling.factor") ?? 0
        if factor == 0 { factor = try r.optionalFloat("rope.scale_linear") ?? 0 }
        guard factor.isFinite, factor >= 0 else { throw .invalidHyperparameters("\(r.fullName("rope.scaling.factor")) = \(factor)") }
        let attnFactor = try r.optionalFloat("rope.scaling.attn_factor") ?? 1
        guard attnFactor.isFinite, attnFactor > 0 else { throw .invalidHyperparameters("\(r.fullName("rope.scaling.attn_factor")) = \(attnFactor)") }
        let originalContext = try r.int("rope.scaling.original_context_length", d.contextLength)
        guard originalContext > 0 else { throw .invalidHyperparameters("\(r.fullName("rope.scaling.original_context_length")) = \(originalContext)") }
        if scaling == .longrope && arch.rope.frequencyFactors == .none {
            r.report(.value(key: r.fullName("rope.scaling.type"), value: "\"longrope\"", reason: "\(arch.name) reads no LongRoPE factors"))
        }
        let scale: Float = scaling == .none ? 1 : (factor == 0 ? 1 : 1 / factor)
        d.ropeScaling = scaling
        d.ropeScalingFactor = factor == 0 ? 1 : factor
        d.ropeGlobal = RoPEParameters(
            base: base, dimensions: dims, frequencyScale: scale, extrapolation: scaling == .yarn ? 1 : 0,
            magnitude: RoPEParameters.magnitude(scaling: scaling, frequencyScale: scale, attnFactor: attnFactor),
            originalContext: originalContext)
        d.ropeLocal = d.ropeGlobal
        var ropeOn = true
        if arch.rope.finetunedKeySwitchesRoPE { ropeOn = try r.optionalBool("rope.scaling.finetuned") ?? true }
        d.ropeLayers = (0..<d.nLayer).map { l in ropeOn && arch.rope.noRoPEEvery.map { (l + 1) % $0 != 0 } ?? ropeOn }
    }

    private static func readSlidingWindow(_ arch: Architecture, _ r: inout ArchitectureMetadata, _ d: inout Draft) throws(ModelLoadError) {
        d.localLayers = Array(repeating: false, count: d.nLayer)
        let pattern: Int, local: Architecture.LocalRoPE
        switch arch.slidingWindow {
        case .none:
            return
        case .ignored:
            if let w = try r.optionalInt("attention.sliding_window"), w > 0 {
                d.notApplied.append("\(r.fullName("attention.sliding_window")) = \(w): not applied, as llama.cpp b11312 (its \(arch.family) sliding window is disabled)")
            }
            return
        case let .whenKeyPresent(p, l):
            guard let w = try r.optionalInt("attention.sliding_window"), w > 0 else {
                // Without a window llama.cpp reads neither; they change nothing then.
                _ = try r.optionalFloat("rope.freq_base_swa")
                _ = try r.intOrFlags("attention.sliding_window_pattern")
                return
            }
            d.slidingWindow = w
            (pattern, local) = (p, l)
        case let .always(defaultWindow, p, l):
            let w = try r.int("attention.sliding_window", defaultWindow)
            guard w > 0 else { throw .invalidHyperparameters("\(r.fullName("attention.sliding_window")) = \(w)") }
            d.slidingWindow = w
            (pattern, local) = (p, l)
        }
        switch try r.intOrFlags("attention.sliding_window_pattern") {
        case let (_, flags?):
            guard flags.count == d.nLayer else {
                throw .invalidHyperparameters("\(r.fullName("attention.sliding_window_pattern")) has \(flags.count) entries for \(d.nLayer) layers")
            }
            d.localLayers = flags
        case let (n, nil):
            let n = n ?? pattern
            guard n >= 0 else { throw .invalidHyperparameters("\(r.fullName("attention.sliding_window_pattern")) = \(n)") }
            // llama.cpp's `set_swa_pattern`: the last layer of every `n` is global; 0 means all local.
            d.localLayers = (0..<d.nLayer).map { n == 0 || $0 % n < n - 1 }
        }
        let swaBase = try r.optionalFloat("rope.freq_base_swa")
        let base: Float
        switch local.base {
        case .swaKeyOrGlobal: base = swaBase ?? d.ropeGlobal.base
        case let .swaKeyOr(fallback): base = swaBase ?? fallback
        case .global:
            base = d.ropeGlobal.base
            if let swaBase, swaBase != base {
                r.report(.value(key: r.fullName("rope.freq_base_swa"), value: "\(swaBase)",
                                reason: "llama.cpp b11312 rotates \(arch.family)'s local layers with rope.freq_base"))
            }
        }
        guard base.isFinite, base > 0 else { throw .invalidHyperparameters("\(r.fullName("rope.freq_base_swa")) = \(base)") }
        let trained: Float = d.ropeScalingFactor == 1 ? 1 : 1 / d.ropeScalingFactor
        d.ropeLocal = d.ropeGlobal.with(base: base, frequencyScale: local.scaled ? trained : 1, yarn: local.yarn)
    }

    private static func readScales(_ arch: Architecture, _ r: inout ArchitectureMetadata, _ d: inout Draft) throws(ModelLoadError) {
        func positive(_ key: String) throws(ModelLoadError) -> Float? {
            guard let v = try r.optionalFloat(key), v != 0 else { return nil }
            guard v.isFinite, v > 0 else { throw .invalidHyperparameters("\(r.fullName(key)) = \(v)") }
            return v
        }
        let inverseSqrtHead = 1 / Float(d.headDim).squareRoot()
        switch arch.attentionScale {
        case .inverseSqrtHeadDim: d.attentionScale = inverseSqrtHead
        case .metadataOrInverseSqrtHeadDim: d.attentionScale = try positive("attention.scale") ?? inverseSqrtHead
        case let .gemma(largeModelLayers):
            d.attentionScale = d.nLayer == largeModelLayers ? 1 / Float(d.nEmbd / d.nHead).squareRoot() : inverseSqrtHead
        }
        func cap(_ source: Architecture.Softcapping.Source?, _ key: String) throws(ModelLoadError) -> Float? {
            switch source {
            case nil: nil
            case let .keyOr(fallback)?: try positive(key) ?? fallback
            case .key?: try positive(key)
            }
        }
        d.attentionSoftcap = try cap(arch.softcapping.attention, "attn_logit_softcapping")
        d.finalSoftcap = try cap(arch.softcapping.final, "final_logit_softcapping")
        switch arch.embeddingScale {
        case .none: break
        case .sqrtEmbeddingLength: d.embeddingScale = Float(d.nEmbd).squareRoot()
        case .metadata: d.embeddingScale = try positive("embedding_scale") ?? 1
        }
        if arch.graniteScales {
            d.residualScale = try positive("residual_scale") ?? 1
            guard let logit = try positive("logit_scale") else { throw .missingKey(r.fullName("logit_scale")) }
            d.logitScale = logit
        }
    }
}
