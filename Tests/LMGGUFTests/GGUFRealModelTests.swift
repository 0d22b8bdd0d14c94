import LMGGUF
import Testing
import TestSupport

/// The two real models read with the numbers an independent reader (gguf-py's `GGUFReader`) gives.
struct GGUFRealModelTests {
    struct Tensor: Sendable {
        let name: String
        let info: TensorFacts
        /// First 8 bytes of the tensor's data.
        let head: [UInt8]
    }

    struct Model: Sendable, CustomTestStringConvertible {
        let model: (name: String, file: String)
        let fileSize: Int
        let architecture: String
        let keyCount: Int
        let dataSectionOffset: Int
        let typeCounts: [GGMLType: Int]
        /// `ARCH.` keys and their integer values.
        let hyperparameters: [String: Int]
        let vocabSize: Int
        let firstTokens: [String]
        let tensors: [Tensor]
        var testDescription: String { model.name }
    }

    static let models: [Model] = [
        Model(
            model: TestModels.smolLM2, fileSize: 98_362_432, architecture: "llama", keyCount: 33,
            dataSectionOffset: 1_785_664,
            typeCounts: [.q4_1: 210, .f32: 61, .q8_0: 1],
            hyperparameters: [
                "block_count": 30, "embedding_length": 576, "feed_forward_length": 1536,
                "attention.head_count": 9, "attention.head_count_kv": 3, "context_length": 8192,
                "vocab_size": 49152, "rope.dimension_count": 64,
            ],
            vocabSize: 49152, firstTokens: ["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
            tensors: [
                Tensor(name: "token_embd.weight",
                       info: TensorFacts(name: "token_embd.weight", dims: [576, 49152], type: .q8_0, dataOffset: 0, byteCount: 30_081_024),
                       head: [0x32, 0x19, 0xD6, 0x0D, 0x13, 0xF7, 0xE5, 0xEE]),
                Tensor(name: "blk.0.attn_q.weight",
                       info: TensorFacts(name: "blk.0.attn_q.weight", dims: [576, 576], type: .q4_1, dataOffset: 32_020_992, byteCount: 207_360),
                       head: [0x0F, 0x30, 0xD8, 0xB9, 0x45, 0x87, 0x65, 0x40]),
                Tensor(name: "blk.29.ffn_down.weight",
                       info: TensorFacts(name: "blk.29.ffn_down.weight", dims: [1536, 576], type: .q4_1, dataOffset: 78_845_184, byteCount: 552_960),
                       head: [0xE2, 0x29, 0xD8, 0xB5, 0xF2, 0x9C, 0x4C, 0xD9]),
                Tensor(name: "output_norm.weight",
                       info: TensorFacts(name: "output_norm.weight", dims: [576], type: .f32, dataOffset: 96_574_464, byteCount: 2304),
                       head: [0x00, 0x00, 0xE1, 0x3F, 0x00, 0x00, 0xE9, 0x3F]),
            ]),
        Model(
            model: TestModels.gemma3, fileSize: 253_113_024, architecture: "gemma3", keyCount: 33,
            dataSectionOffset: 6_525_120,
            typeCounts: [.f32: 109, .q8_0: 10, .q5_0: 81, .q4_K: 27, .q6_K: 9],
            hyperparameters: [
                "block_count": 18, "embedding_length": 640, "feed_forward_length": 2048,
                "attention.head_count": 4, "attention.head_count_kv": 1, "context_length": 32768,
                "attention.key_length": 256, "attention.value_length": 256, "attention.sliding_window": 512,
            ],
            vocabSize: 262_144, firstTokens: ["<pad>", "<eos>", "<bos>"],
            tensors: [
                Tensor(name: "output_norm.weight",
                       info: TensorFacts(name: "output_norm.weight", dims: [640], type: .f32, dataOffset: 0, byteCount: 2560),
                       head: [0x00, 0x00, 0xE4, 0x40, 0x00, 0x00, 0x19, 0x41]),
                Tensor(name: "token_embd.weight",
                       info: TensorFacts(name: "token_embd.weight", dims: [640, 262_144], type: .q8_0, dataOffset: 2560, byteCount: 178_257_920),
                       head: [0xF2, 0x10, 0xF4, 0x47, 0xC7, 0xDD, 0xEC, 0x30]),
                Tensor(name: "blk.0.attn_q.weight",
                       info: TensorFacts(name: "blk.0.attn_q.weight", dims: [640, 1024], type: .q5_0, dataOffset: 178_745_344, byteCount: 450_560),
                       head: [0xC0, 0x17, 0x72, 0x0B, 0x47, 0xDD, 0x3E, 0x64]),
                Tensor(name: "blk.17.ffn_down.weight",
                       info: TensorFacts(name: "blk.17.ffn_down.weight", dims: [2048, 640], type: .q6_K, dataOffset: 243_702_784, byteCount: 1_075_200),
                       head: [0x39, 0xD3, 0x5E, 0xEB, 0xA8, 0x38, 0x83, 0xB2]),
                Tensor(name: "blk.17.post_ffw_norm.weight",
                       info: TensorFacts(name: "blk.17.post_ffw_norm.weight", dims: [640], type: .f32, dataOffset: 246_585_344, byteCount: 2560),
                       head: [0x00, 0x80, 0xBC, 0x43, 0x00, 0x80, 0xA9, 0x43]),
            ]),
    ]

    @Test("a real model's header, hyperparameters, tensor types and tensor data match gguf-py", arguments: models)
    func realModel(m: Model) throws {
        let file = try GGUFFile(path: try TestModels.path(m.model))
        #expect(file.version == 3)
        #expect(file.bytes.count == m.fileSize)
        #expect(file.keys.count == m.keyCount)
        #expect(file.architecture == m.architecture)
        #expect(file.alignment == 32)
        #expect(file.dataSectionOffset == m.dataSectionOffset)
        #expect(file.tensors.count == m.typeCounts.values.reduce(0, +))
        #expect(Dictionary(grouping: file.tensors, by: \.type).mapValues(\.count) == m.typeCounts)
        for (key, value) in m.hyperparameters {
            #expect(file["\(m.architecture).\(key)"]?.int == value, "\(m.architecture).\(key)")
        }
        let tokens = try #require(file["tokenizer.ggml.tokens"]?.array?.strings)
        #expect(tokens.count == m.vocabSize)
        #expect(Array(tokens.prefix(3)) == m.firstTokens)
        for t in m.tensors {
            let info = try #require(file.tensor(named: t.name))
            #expect(TensorFacts(info) == t.info)
            #expect(Array(UnsafeRawBufferPointer(start: file.data(for: info), count: 8)) == t.head, "\(t.name)")
        }
        // The tensors tile the data section: the last one ends exactly at the end of the file.
        let end = file.tensors.map { $0.dataOffset + $0.byteCount }.max() ?? 0
        #expect(file.dataSectionOffset + end == m.fileSize)
    }

    @Test("SmolLM2's float and string metadata read as written")
    func smolLM2Metadata() throws {
        let file = try GGUFFile(path: try TestModels.path(TestModels.smolLM2))
        #expect(file["llama.rope.freq_base"] == .float32(100_000))
        #expect(file["llama.attention.layer_norm_rms_epsilon"] == .float32(1e-5))
        #expect(file["tokenizer.ggml.model"]?.string == "gpt2")
        #expect(file["tokenizer.ggml.pre"]?.string == "smollm")
        #expect(file["tokenizer.ggml.add_bos_token"] == .bool(false))
        #expect(file["tokenizer.ggml.eos_token_id"]?.int == 2)
        let merges = try #require(file["tokenizer.ggml.merges"]?.array?.strings)
        #expect(merges.count == 48900)
        #expect(merges.first == "Ġ t")
        #expect(merges.last == "ect able")
        #expect(file["tokenizer.ggml.token_type"]?.array?.ints?.prefix(3) == [3, 3, 3])
        #expect(file.keys.first == "general.architecture")
    }

    @Test("Gemma 3's float and token-score metadata read as written")
    func gemma3Metadata() throws {
        let file = try GGUFFile(path: try TestModels.path(TestModels.gemma3))
        #expect(file["gemma3.rope.freq_base"] == .float32(1_000_000))
        #expect(file["gemma3.attention.layer_norm_rms_epsilon"] == .float32(1e-6))
        #expect(file["tokenizer.ggml.model"]?.string == "llama")
        #expect(file["tokenizer.ggml.add_bos_token"] == .bool(true))
        #expect(file["tokenizer.ggml.bos_token_id"]?.int == 2)
        let scores = try #require(file["tokenizer.ggml.scores"]?.array?.floats)
        #expect(scores.count == 262_144)
        #expect(scores[1000] == -506)
        #expect(file["tokenizer.ggml.tokens"]?.array?.strings?.last == "<unused6241>")
    }
}
