import Foundation
import LMGGUF

/// A GGUF for trying a vocabulary and a chat template end to end (`lmsession chat`, sessions): the
/// tokenizer of one of llama.cpp's `models/ggml-vocab-<name>.gguf` files (every `tokenizer.*` key), a
/// template from its `models/templates`, and a one-layer `llama` decoder with seeded random F32
/// weights (16 wide, 2 query heads, 1 key/value head). What it says is noise; what the tests check is
/// the rendering and tokenization of the prompts and the tool-call syntax the template defines.
///
/// Shapes are outermost-first here; GGUF stores them innermost-first.
public enum TinyChatModel {
    public static let nEmbd = 16, nHead = 2, nKVHead = 1, nFF = 32, contextLength = 1024
    static var headDim: Int { nEmbd / nHead }

    public enum BuildError: Error, CustomStringConvertible {
        case noVocabulary(String)
        public var description: String {
            switch self { case let .noVocabulary(name): "ggml-vocab-\(name).gguf has no tokenizer.ggml.tokens" }
        }
    }

    /// The file's bytes.
    /// - Parameters:
    ///   - vocabulary: `llama-bpe`, `qwen2`, `phi-3`...
    ///   - template: a template's file name without `.jinja`, or nil for none (the native fallback).
    ///   - extraTemplate: template source to store instead of a file's.
    public static func build(vocabulary: String, template: String?, extraTemplate: String? = nil, seed: UInt64 = 7) throws -> [UInt8] {
        let vocab = try GGUFFile(path: LlamaVocabularySuite.vocabularyPath(vocabulary))
        guard case let .array(tokens)? = vocab["tokenizer.ggml.tokens"] else { throw BuildError.noVocabulary(vocabulary) }
        let nVocab = tokens.count
        var b = GGUFBuilder()
        b.add("general.architecture", .string("llama"))
        b.add("general.name", .string("tiny \(vocabulary)\(template.map { " with \($0)" } ?? "")"))
        func key(_ k: String, _ v: GGUFValue) { b.add("llama.\(k)", v) }
        key("context_length", .uint32(UInt32(contextLength)))
        key("embedding_length", .uint32(UInt32(nEmbd)))
        key("block_count", .uint32(1))
        key("feed_forward_length", .uint32(UInt32(nFF)))
        key("attention.head_count", .uint32(UInt32(nHead)))
        key("attention.head_count_kv", .uint32(UInt32(nKVHead)))
        key("rope.dimension_count", .uint32(UInt32(headDim)))
        key("attention.layer_norm_rms_epsilon", .float32(1e-5))
        for k in vocab.keys where k.hasPrefix("tokenizer.") && k != "tokenizer.chat_template" {
            if let value = vocab[k] { b.add(k, value) }
        }
        if let template {
            let url = try LlamaCppSource.root().appendingPathComponent("models/templates/\(template).jinja")
            b.add("tokenizer.chat_template", .string(try String(contentsOf: url, encoding: .utf8)))
        } else if let extraTemplate {
            b.add("tokenizer.chat_template", .string(extraTemplate))
        }
        var random = SplitMix64(seed: seed)
        func tensor(_ name: String, _ shape: [Int], norm: Bool = false) {
            let count = shape.reduce(1, *)
            let values: [Float] = (0..<count).map { _ in
                let u = Float(random.nextUnit())
                return norm ? 0.75 + 0.5 * u : (u - 0.5) * 0.5
            }
            b.tensors.append(GGUFBuilder.Tensor(name: name, dims: shape.reversed().map { UInt64($0) }, typeID: GGMLType.f32.rawValue,
                                                data: values.flatMap { GGUFBuilder.le($0.bitPattern) }))
        }
        tensor("token_embd.weight", [nVocab, nEmbd])
        tensor("output_norm.weight", [nEmbd], norm: true)
        tensor("blk.0.attn_norm.weight", [nEmbd], norm: true)
        tensor("blk.0.attn_q.weight", [nHead * headDim, nEmbd])
        tensor("blk.0.attn_k.weight", [nKVHead * headDim, nEmbd])
        tensor("blk.0.attn_v.weight", [nKVHead * headDim, nEmbd])
        tensor("blk.0.attn_output.weight", [nEmbd, nHead * headDim])
        tensor("blk.0.ffn_norm.weight", [nEmbd], norm: true)
        tensor("blk.0.ffn_gate.weight", [nFF, nEmbd])
        tensor("blk.0.ffn_up.weight", [nFF, nEmbd])
        tensor("blk.0.ffn_down.weight", [nEmbd, nFF])
        return b.build()
    }

    /// Writes ``build(vocabulary:template:seed:)`` to a file kept by content (``TestFiles``) and returns its path.
    public static func write(vocabulary: String, template: String?) throws -> String {
        try TestFiles.write(Data(try build(vocabulary: vocabulary, template: template)),
                            named: "tiny-\(vocabulary)-\(template ?? "none").gguf").path
    }
}
