import Testing
import LMGGUF
import LMTransformer

/// What the runtime does not implement is refused at load with a typed error naming it, never run
/// differently from what the file says.
@Suite("Unsupported architectures, keys, values and tensors are refused at load")
struct ArchitectureRejectionTests {
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let model: TinyModel
        let expected: [Unsupported]
    }

    static func variant(_ base: TinyModel, keys: [(String, GGUFValue)] = [], tensors: [TinyModel.Tensor] = []) -> TinyModel {
        var m = base
        m.keys += keys
        m.globalTensors += tensors
        return m
    }

    static let llama = TinyModel.llama[0], qwen2 = TinyModel.qwen[0], gemma3 = TinyModel.gemma[2], olmo3 = TinyModel.olmo[1]

    static let cases: [Case] = [
        Case(description: "mixture of experts", model: variant(llama, keys: [("expert_count", .uint32(8))]),
             expected: [.value(key: "llama.expert_count", value: "8.0", reason: "mixture-of-experts layers are not implemented")]),
        Case(description: "a key nothing reads", model: variant(llama, keys: [("attention.clamp_kqv", .float32(8))]),
             expected: [.key("llama.attention.clamp_kqv")]),
        Case(description: "an expert router tensor",
             model: variant(llama, tensors: [.init(name: "blk.0.ffn_gate_inp.weight", shape: [8, 64], values: .matrix(sigma: 1))]),
             expected: [.tensor("blk.0.ffn_gate_inp.weight")]),
        Case(description: "RoPE factors where the architecture reads none",
             model: variant(qwen2, tensors: [.init(name: "rope_freqs.weight", shape: [8], values: .ropeFactors)]),
             expected: [.tensor("rope_freqs.weight")]),
        Case(description: "an unknown RoPE scaling type", model: variant(llama, keys: [("rope.scaling.type", .string("dynamic"))]),
             expected: [.value(key: "llama.rope.scaling.type", value: "\"dynamic\"", reason: "unknown RoPE scaling type")]),
        Case(description: "partial rotation in llama", model: variant(llama, keys: [("rope.dimension_count", .uint32(8))]),
             expected: [.value(key: "llama.rope.dimension_count", value: "8",
                               reason: "llama rotates whole heads of 16 (llama.cpp refuses partial rotation here)")]),
        Case(description: "a sliding window in llama", model: variant(llama, keys: [("attention.sliding_window", .uint32(4096))]),
             expected: [.value(key: "llama.attention.sliding_window", value: "4096.0",
                               reason: "Llama has no sliding-window attention in llama.cpp b11312")]),
        Case(description: "value heads of another size", model: variant(llama, keys: [("attention.value_length", .uint32(32))]),
             expected: [.value(key: "llama.attention.value_length", value: "32",
                               reason: "value heads of another size than key heads (16) are not implemented")]),
        Case(description: "attention soft-capping in Gemma 3", model: variant(gemma3, keys: [("attn_logit_softcapping", .float32(50))]),
             expected: [.key("gemma3.attn_logit_softcapping")]),
        Case(description: "a local RoPE base llama.cpp does not apply",
             model: variant(olmo3, keys: [("rope.freq_base_swa", .float32(5_000))]),
             expected: [.value(key: "olmo2.rope.freq_base_swa", value: "5000.0",
                               reason: "llama.cpp b11312 rotates OLMo 2's local layers with rope.freq_base")]),
        Case(description: "non-causal attention", model: variant(llama, keys: [("attention.causal", .bool(false))]),
             expected: [.value(key: "llama.attention.causal", value: "false", reason: "non-causal (embedding) attention is not implemented")]),
        Case(description: "YaRN parameters llama.cpp ignores here",
             model: variant(qwen2, keys: [("rope.scaling.yarn_beta_fast", .float32(16))]),
             expected: [.value(key: "qwen2.rope.scaling.yarn_beta_fast", value: "16.0",
                               reason: "llama.cpp b11312 does not read it for this architecture (uses 32)")]),
    ]

    @Test("the load fails naming what is not implemented", arguments: cases)
    func refused(_ c: Case) {
        do {
            _ = try c.model.load()
            Issue.record("loaded")
        } catch let error as ModelLoadError {
            guard case let .unsupported(items) = error else { Issue.record("\(error)"); return }
            #expect(items == c.expected)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("hyperparameters that cannot describe a model are refused naming the rule broken", arguments: [
        ("kv", "4 query heads are not a multiple of 3 KV heads (attention.head_count_kv)"),
        ("layers", "block_count must be 1...1024"),
    ])
    func invalidHyperparameters(change: String, rule: String) {
        var m = Self.llama
        if change == "kv" { m.nKVHead = 3 } else { m.nLayer = 0 }
        do {
            _ = try m.load()
            Issue.record("loaded")
        } catch let error as ModelLoadError {
            guard case let .invalidHyperparameters(text) = error else { Issue.record("\(error)"); return }
            #expect(text.contains(rule), "\(text)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("an architecture LMSession does not run is named")
    func unknownArchitecture() throws {
        var m = TinyModel(name: "mamba", architecture: "mamba", seed: 1)
        m.layerTensors = TinyModel.norm("attn_norm", 64)
        do {
            _ = try m.load()
            Issue.record("loaded")
        } catch let error as ModelLoadError {
            guard case let .unsupportedArchitecture(name) = error else { Issue.record("\(error)"); return }
            #expect(name == "mamba")
            #expect(error.description.contains("gemma2, gemma3, phi3"))
        }
    }

    @Test("Granite without logit_scale is refused, as llama.cpp requires it")
    func graniteNeedsLogitScale() throws {
        var m = TinyModel.granite[1]
        m.keys.removeAll { $0.0 == "logit_scale" }
        do {
            _ = try m.load()
            Issue.record("loaded")
        } catch let error as ModelLoadError {
            guard case let .missingKey(key) = error else { Issue.record("\(error)"); return }
            #expect(key == "granite.logit_scale")
        }
    }

    @Test("keys that change nothing load: a zero sliding window, no experts, causal attention")
    func neutralKeysLoad() throws {
        let m = Self.variant(Self.llama, keys: [("attention.sliding_window", .uint32(0)), ("expert_count", .uint32(0)),
                                                ("attention.causal", .bool(true)), ("vocab_size", .uint32(258))])
        #expect(try m.load().config.nLayer == 4)
    }

    @Test("Phi-3's sliding window is read and reported as not applied, as llama.cpp")
    func phi3WindowNotApplied() throws {
        let config = try TinyModel.phi3[1].load().config
        #expect(config.slidingWindow == nil)
        #expect(config.notApplied.count == 1)
        #expect(config.notApplied.first?.hasPrefix("phi3.attention.sliding_window = 8: not applied") == true)
    }
}
