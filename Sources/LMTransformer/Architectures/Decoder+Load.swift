import LMKernels

/// Loading: which tensors a layer has, and their shapes, follow from the ``Architecture``'s facts
/// (llama.cpp's `load_arch_tensors`). Every tensor of the file must be read by some layer.
extension Decoder {
    /// - Throws: ``ModelLoadError/missingTensor(_:)``, ``ModelLoadError/badShape(tensor:expected:found:)``,
    ///   or ``ModelLoadError/unsupported(_:)`` listing the tensors nothing reads.
    init(config c: ModelConfig, tensors t: TensorLookup) throws(ModelLoadError) {
        let arch = c.architecture
        config = c
        embedding = try t.matrix("\(TensorName.tokenEmbedding).weight", rows: c.vocabSize, cols: c.nEmbd, prepared: false)
        outputNorm = try Self.norm(TensorName.outputNorm, arch.norm, count: c.nEmbd, eps: c.normEps, t)
        let head: WeightMatrix = switch arch.outputHead {
        case .tied: t.prepared(embedding)
        case .tiedUnlessPresent:
            try t.optionalMatrix("\(TensorName.output).weight", rows: c.vocabSize, cols: c.nEmbd) ?? t.prepared(embedding)
        case .separate: try t.matrix("\(TensorName.output).weight", rows: c.vocabSize, cols: c.nEmbd)
        }
        output = Linear(weight: head, bias: try Self.bias("\(TensorName.output).bias", c.vocabSize, arch.biases.outputHead, t))
        ropeFactors = try Self.ropeFactors(c, t)
        var layers: [Layer] = []
        for l in 0..<c.nLayer { layers.append(try Self.layer(l, c, t)) }
        self.layers = layers
        let unused = t.unused
        if !unused.isEmpty { throw .unsupported(unused.map(Unsupported.tensor)) }
    }

    private static func layer(_ l: Int, _ c: ModelConfig, _ t: TensorLookup) throws(ModelLoadError) -> Layer {
        let arch = c.architecture
        func name(_ n: String) -> String { TensorName.layer(l, n) }
        func blockNorm(_ n: String, required: Bool) throws(ModelLoadError) -> Norm? {
            guard required || t.has(name(n) + ".weight") else { return nil }
            return try Self.norm(name(n), arch.norm, count: c.nEmbd, eps: c.normEps, t, biasRequired: required)
        }
        let preNorm = arch.blockNorms != .postNorm
        let postNorms = arch.blockNorms == .sandwich || arch.blockNorms == .postNorm
        let ffnNorm = try blockNorm(TensorName.ffnNorm, required: arch.blockNorms != .preNormOrParallel && preNorm)
        return Layer(
            attnNorm: preNorm ? try blockNorm(TensorName.attnNorm, required: true) : nil,
            attention: try attention(l, c, t),
            postAttnNorm: postNorms ? try blockNorm(TensorName.postAttentionNorm, required: true) : nil,
            ffnNorm: ffnNorm,
            parallel: arch.blockNorms == .preNormOrParallel && ffnNorm == nil,
            feedForward: try feedForward(l, c, t),
            postFFNorm: postNorms ? try blockNorm(TensorName.postFFNNorm, required: true) : nil)
    }

    private static func attention(_ l: Int, _ c: ModelConfig, _ t: TensorLookup) throws(ModelLoadError) -> AttentionBlock {
        let arch = c.architecture
        let qSize = c.nHead * c.headDim, kvSize = c.nKVHead * c.headDim
        func name(_ n: String) -> String { TensorName.layer(l, n) }
        var q, k, v: WeightMatrix
        var qkvBias: [Float]?
        let fused = name(TensorName.attnQKV)
        if t.has(fused + ".weight") {
            // One stacked projection, Q rows first (llama.cpp's `build_qkv`): three views of it.
            let qkv = try t.matrix(fused + ".weight", rows: qSize + 2 * kvSize, cols: c.nEmbd)
            q = qkv.slice(rows: 0..<qSize)
            k = qkv.slice(rows: qSize..<qSize + kvSize)
            v = qkv.slice(rows: qSize + kvSize..<qSize + 2 * kvSize)
            qkvBias = try t.optionalVector(fused + ".bias", count: qSize + 2 * kvSize)
        } else {
            q = try t.matrix(name(TensorName.attnQ) + ".weight", rows: qSize, cols: c.nEmbd)
            k = try t.matrix(name(TensorName.attnK) + ".weight", rows: kvSize, cols: c.nEmbd)
            v = try t.matrix(name(TensorName.attnV) + ".weight", rows: kvSize, cols: c.nEmbd)
        }
        func projectionBias(_ n: String, _ rows: Int, _ range: Range<Int>) throws(ModelLoadError) -> [Float]? {
            if let qkvBias { return Array(qkvBias[range]) }
            return try t.optionalVector(name(n) + ".bias", count: rows)
        }
        let wq = Linear(weight: q, bias: try projectionBias(TensorName.attnQ, qSize, 0..<qSize))
        let wk = Linear(weight: k, bias: try projectionBias(TensorName.attnK, kvSize, qSize..<qSize + kvSize))
        let wv = Linear(weight: v, bias: try projectionBias(TensorName.attnV, kvSize, qSize + kvSize..<qSize + 2 * kvSize))
        let wo = Linear(weight: try t.matrix(name(TensorName.attnOutput) + ".weight", rows: c.nEmbd, cols: qSize),
                        bias: try bias(name(TensorName.attnOutput) + ".bias", c.nEmbd, arch.biases.attentionOutput, t))

        func headNorm(_ n: String, heads: Int) throws(ModelLoadError) -> AttentionBlock.HeadNorm? {
            let tensor = name(n) + ".weight"
            switch arch.queryKeyNorm {
            case .none:
                return nil
            case .perHead:
                let w = try t.vector(tensor, count: c.headDim)
                return .init(norm: Norm(arch.norm, weight: w, n: c.headDim, eps: c.normEps), rowsPerToken: heads)
            case .whole:
                let w = try t.vector(tensor, count: heads * c.headDim)
                return .init(norm: Norm(arch.norm, weight: w, n: heads * c.headDim, eps: c.normEps), rowsPerToken: 1)
            case .perHeadOwnWeightsIfPresent:
                guard let w = try t.optionalVector(tensor, count: heads * c.headDim, shape: [heads, c.headDim]) else { return nil }
                return .init(norm: Norm(arch.norm, weight: w, n: c.headDim, eps: c.normEps), rowsPerToken: heads)
            }
        }
        let rope: AttentionBlock.RoPETable = !c.ropeLayers[l] ? .none : c.localLayers[l] ? .local : .global
        return AttentionBlock(
            wq: wq, wk: wk, wv: wv, wo: wo,
            qNorm: try headNorm(TensorName.attnQNorm, heads: c.nHead), kNorm: try headNorm(TensorName.attnKNorm, heads: c.nKVHead),
            rope: rope, pairing: arch.rope.pairing, ropeDim: c.ropeDim,
            attention: Attention(nHead: c.nHead, nKVHead: c.nKVHead, headDim: c.headDim, scale: c.attentionScale,
                                 window: c.localLayers[l] ? c.slidingWindow : nil, softcap: c.attentionSoftcap ?? 0))
    }

    private static func feedForward(_ l: Int, _ c: ModelConfig, _ t: TensorLookup) throws(ModelLoadError) -> FeedForward {
        let arch = c.architecture, presence = arch.biases.feedForward
        func name(_ n: String) -> String { TensorName.layer(l, n) }
        func linear(_ n: String, _ rows: Int, _ cols: Int) throws(ModelLoadError) -> Linear {
            Linear(weight: try t.matrix(name(n) + ".weight", rows: rows, cols: cols), bias: try bias(name(n) + ".bias", rows, presence, t))
        }
        let down = try linear(TensorName.ffnDown, c.nEmbd, c.nFF)
        switch arch.feedForward {
        case let .gated(activation):
            return FeedForward(gate: try linear(TensorName.ffnGate, c.nFF, c.nEmbd), up: try linear(TensorName.ffnUp, c.nFF, c.nEmbd),
                               down: down, activation: activation)
        case let .gatedStacked(activation):
            // `ffn_up` holds the gate's rows then the up rows (ggml's `swiglu` of one tensor).
            let stacked = try t.matrix(name(TensorName.ffnUp) + ".weight", rows: 2 * c.nFF, cols: c.nEmbd)
            return FeedForward(gate: Linear(weight: stacked.slice(rows: 0..<c.nFF), bias: nil),
                               up: Linear(weight: stacked.slice(rows: c.nFF..<2 * c.nFF), bias: nil), down: down, activation: activation)
        case let .plain(activation):
            return FeedForward(gate: nil, up: try linear(TensorName.ffnUp, c.nFF, c.nEmbd), down: down, activation: activation)
        }
    }

    private static func ropeFactors(_ c: ModelConfig, _ t: TensorLookup) throws(ModelLoadError) -> RoPEFactors {
        let half = c.ropeDim / 2
        func factors(_ n: String) throws(ModelLoadError) -> [Float]? { try t.optionalVector(n + ".weight", count: half) }
        switch c.architecture.rope.frequencyFactors {
        case .none:
            return .none
        case .ropeFreqsOrLongRoPE where c.ropeScaling != .longrope:
            return try factors(TensorName.ropeFreqs).map(RoPEFactors.ropeFreqs) ?? .none
        case .ropeFreqsOrLongRoPE, .longRoPE:
            return .longRoPE(short: try factors(TensorName.ropeFactorsShort), long: try factors(TensorName.ropeFactorsLong))
        }
    }

    /// The norm named `<name>.weight` of `count` elements, with `<name>.bias` for LayerNorm
    /// (required unless `biasRequired` is false, as StableLM's optional `ffn_norm`).
    private static func norm(_ name: String, _ kind: Architecture.Normalization, count: Int, eps: Float, _ t: TensorLookup,
                             biasRequired: Bool = true) throws(ModelLoadError) -> Norm {
        let weight = try t.vector(name + ".weight", count: count)
        let bias: [Float]? = switch kind {
        case .rms: nil
        case .layer: biasRequired ? try t.vector(name + ".bias", count: count) : try t.optionalVector(name + ".bias", count: count)
        }
        return Norm(kind, weight: weight, bias: bias, n: count, eps: eps)
    }

    private static func bias(_ name: String, _ count: Int, _ presence: Architecture.Presence, _ t: TensorLookup) throws(ModelLoadError) -> [Float]? {
        switch presence {
        case .absent: nil
        case .optional: try t.optionalVector(name, count: count)
        case .required: try t.vector(name, count: count)
        }
    }
}
