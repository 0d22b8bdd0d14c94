import LMGGUF
import LMKernelsCore
import TestSupport

/// A small decoder of one architecture with seeded random weights, written as a GGUF in memory:
/// the files the architecture suite runs through LMSession and through llama.cpp
/// (`Reference/make_reference.py`). The bytes depend only on the description and the seed
/// (SplitMix64), so the llama.cpp figures recorded for them stay valid; the suite checks each
/// file's SHA-256 against the recorded one.
///
/// Shapes are outermost-first here; GGUF stores them innermost-first.
struct TinyModel: Sendable, CustomStringConvertible {
    /// How a tensor's values are drawn.
    enum Values: Sendable {
        /// Uniform with standard deviation `sigma`; stored as the model's matrix type.
        case matrix(sigma: Float)
        /// `1 ± 0.25` (norm weights) times `scale`, F32.
        case norm(scale: Float)
        /// `± 0.2`, F32.
        case bias
        /// RoPE frequency divisors in `[1, 8]`, F32.
        case ropeFactors
    }

    struct Tensor: Sendable {
        /// Full name (`rope_freqs.weight`), or for layer tensors the name after `blk.N.`.
        let name: String
        let shape: [Int]
        let values: Values
    }

    let name: String
    let architecture: String
    let seed: UInt64
    var nLayer = 4, nEmbd = 64, nHead = 4, nKVHead = 2, headDim = 16, nFF = 96, contextLength = 256
    /// Type of the 2-D weights: F32 or Q8_0.
    var matrixType = GGMLType.f32
    var addBOS = true
    /// The norm epsilon key (`attention.layer_norm_epsilon` for LayerNorm architectures).
    var epsilonKey = "attention.layer_norm_rms_epsilon"
    /// Architecture keys beyond the standard hyperparameters, without the `{arch}.` prefix.
    var keys: [(String, GGUFValue)] = []
    /// Tensors besides `token_embd` and `output_norm`, and the tensors of every layer.
    var globalTensors: [Tensor] = []
    var layerTensors: [Tensor] = []

    var description: String { name }
    var qSize: Int { nHead * headDim }
    var kvSize: Int { nKVHead * headDim }

    // MARK: Vocabulary

    /// 256 byte tokens (GPT-2's byte-to-unicode spelling) then `<s>` (BOS) and `</s>` (EOS): with
    /// no merges every byte of a text is one token, in llama.cpp and here.
    static let vocabulary: [String] = byteLevelTokens + ["<s>", "</s>"]
    static let bos = 256, eos = 257

    /// Token ids of `text`: BOS when the model adds it, then one token per UTF-8 byte.
    func tokens(_ text: String) -> [Int] {
        (addBOS ? [Self.bos] : []) + text.utf8.map(Int.init)
    }

    // MARK: File

    /// The GGUF bytes. Deterministic: the same description gives the same bytes on every run.
    func gguf() -> [UInt8] {
        var b = GGUFBuilder()
        b.add("general.architecture", .string(architecture))
        // Not the case name: llama.cpp gives vocabularies of models named like "phi3" special tokens ours lacks.
        b.add("general.name", .string("tiny model"))
        func key(_ k: String, _ v: GGUFValue) { b.add("\(architecture).\(k)", v) }
        key("context_length", .uint32(UInt32(contextLength)))
        key("embedding_length", .uint32(UInt32(nEmbd)))
        key("block_count", .uint32(UInt32(nLayer)))
        key("feed_forward_length", .uint32(UInt32(nFF)))
        key("attention.head_count", .uint32(UInt32(nHead)))
        key("attention.head_count_kv", .uint32(UInt32(nKVHead)))
        if headDim != nEmbd / nHead {
            key("attention.key_length", .uint32(UInt32(headDim)))
            key("attention.value_length", .uint32(UInt32(headDim)))
        }
        key(epsilonKey, .float32(1e-5))
        for (k, v) in keys { key(k, v) }
        b.add("tokenizer.ggml.model", .string("gpt2"))
        b.add("tokenizer.ggml.pre", .string("gpt-2"))
        b.add("tokenizer.ggml.tokens", .array(.string(Self.vocabulary)))
        b.add("tokenizer.ggml.token_type", .array(.int32(Array(repeating: 1, count: 256) + [3, 3])))
        b.add("tokenizer.ggml.merges", .array(.string([])))
        b.add("tokenizer.ggml.bos_token_id", .uint32(UInt32(Self.bos)))
        b.add("tokenizer.ggml.eos_token_id", .uint32(UInt32(Self.eos)))
        b.add("tokenizer.ggml.add_bos_token", .bool(addBOS))

        var random = SplitMix64(seed: seed)
        let vocab = Self.vocabulary.count
        // A tied head would mostly copy the last token (its own embedding dominates the residual
        // stream) and greedy decoding would repeat it: tied models get small embeddings, and a
        // larger output norm keeps their logits as spread as the untied ones'.
        let tied = !globalTensors.contains { $0.name == "output.weight" }
        var all = [Tensor(name: "token_embd.weight", shape: [vocab, nEmbd], values: .matrix(sigma: tied ? 0.05 : 0.3)),
                   Tensor(name: "output_norm.weight", shape: [nEmbd], values: .norm(scale: tied ? 2.5 : 1))]
        all += globalTensors
        for l in 0..<nLayer {
            all += layerTensors.map { Tensor(name: "blk.\(l).\($0.name)", shape: $0.shape, values: $0.values) }
        }
        for t in all {
            let (type, data) = Self.data(t, matrixType: matrixType, &random)
            b.tensors.append(GGUFBuilder.Tensor(name: t.name, dims: t.shape.reversed().map(UInt64.init), typeID: type.rawValue, data: data))
        }
        return b.build()
    }

    private static func data(_ t: Tensor, matrixType: GGMLType, _ random: inout SplitMix64) -> (GGMLType, [UInt8]) {
        let count = t.shape.reduce(1, *)
        func uniform(_ lo: Float, _ hi: Float) -> Float { lo + (hi - lo) * Float(random.nextUnit()) }
        func f32(_ values: [Float]) -> [UInt8] { values.flatMap { GGUFBuilder.le($0.bitPattern) } }
        switch t.values {
        case let .norm(scale): return (.f32, f32((0..<count).map { _ in scale * uniform(0.75, 1.25) }))
        case .bias: return (.f32, f32((0..<count).map { _ in uniform(-0.2, 0.2) }))
        case .ropeFactors: return (.f32, f32((0..<count).map { _ in uniform(1, 8) }))
        case let .matrix(sigma):
            let half = sigma * Float(3).squareRoot() // uniform on ±half has standard deviation sigma
            if matrixType == .f32 { return (.f32, f32((0..<count).map { _ in uniform(-half, half) })) }
            // Q8_0 blocks drawn directly: an f16 scale, then 32 signed bytes in -127...127.
            let d = floatToHalf(half / 127)
            var out: [UInt8] = []
            out.reserveCapacity(count / 32 * 34)
            for _ in 0..<count / 32 {
                out += GGUFBuilder.le(d)
                for _ in 0..<32 { out.append(UInt8(bitPattern: Int8(Int(random.next() % 255) - 127))) }
            }
            return (.q8_0, out)
        }
    }
}

/// Tensor lists of the common layer parts, llama.cpp's names and shapes (outermost-first).
extension TinyModel {
    static func norm(_ name: String, _ n: Int, bias: Bool = false) -> [Tensor] {
        [Tensor(name: name + ".weight", shape: [n], values: .norm(scale: 1))] + (bias ? [Tensor(name: name + ".bias", shape: [n], values: .bias)] : [])
    }

    static func linear(_ name: String, rows: Int, cols: Int, bias: Bool = false, sigma: Float = 1) -> [Tensor] {
        [Tensor(name: name + ".weight", shape: [rows, cols], values: .matrix(sigma: sigma / Float(cols).squareRoot()))]
            + (bias ? [Tensor(name: name + ".bias", shape: [rows], values: .bias)] : [])
    }

    /// Q/K/V and output projections.
    func attention(qkvBias: Bool = false, outputBias: Bool = false, fused: Bool = false) -> [Tensor] {
        let projections = fused
            ? Self.linear("attn_qkv", rows: qSize + 2 * kvSize, cols: nEmbd, bias: qkvBias)
            : Self.linear("attn_q", rows: qSize, cols: nEmbd, bias: qkvBias)
                + Self.linear("attn_k", rows: kvSize, cols: nEmbd, bias: qkvBias)
                + Self.linear("attn_v", rows: kvSize, cols: nEmbd, bias: qkvBias)
        return projections + Self.linear("attn_output", rows: nEmbd, cols: qSize, bias: outputBias)
    }

    func gatedFFN(bias: Bool = false) -> [Tensor] {
        Self.linear("ffn_gate", rows: nFF, cols: nEmbd, bias: bias) + Self.linear("ffn_up", rows: nFF, cols: nEmbd, bias: bias)
            + Self.linear("ffn_down", rows: nEmbd, cols: nFF, bias: bias)
    }

    /// The output head `[vocab, nEmbd]`: logits of standard deviation about 1. (Larger logits
    /// make a random model chaotic: llama.cpp's own perplexity then moves by 0.1-1% between its
    /// attention kernels, and no agreement tighter than that could be checked.)
    var outputHead: [Tensor] {
        [Tensor(name: "output.weight", shape: [Self.vocabulary.count, nEmbd], values: .matrix(sigma: 0.125))]
    }
}
