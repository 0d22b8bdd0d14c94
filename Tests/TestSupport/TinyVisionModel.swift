import Foundation
import LMGGUF

/// The text half of a tiny vision model pair: a two-layer decoder with seeded random F32 weights whose
/// embeddings are as wide as the LMVision tests' `mmproj` files make (24), a byte-level vocabulary with the
/// tokens images are framed with (Idefics3's `<fake_token_around_image>`, `<global-img>`, `<row_R_col_C>`, a
/// `\n\n` token; Gemma 3's `<start_of_image>`, `<end_of_image>`) and ChatML's, and a ChatML template: `llama`
/// for the Idefics3 `mmproj` (``build(seed:)``), `gemma3` with a sliding window on its first layer for Gemma 3's
/// (``buildGemma3(seed:)``). The sessions' vision suites run them with `Tests/LMVisionTests/Fixtures/*.mmproj.gguf`,
/// and `Tests/LMSessionTests/Reference/make_vision_reference.py` runs the same pairs through llama.cpp's
/// `llama-mtmd-cli`. The bytes depend only on the seed (SplitMix64): the
/// suite checks their SHA-256 against the recorded one, so a changed generator fails instead of comparing stale
/// figures.
///
/// Shapes are outermost-first here; GGUF stores them innermost-first.
public enum TinyVisionModel {
    public static let nEmbd = 24, nHead = 2, nKVHead = 1, nFF = 48, nLayer = 2, contextLength = 2048
    static var headDim: Int { nEmbd / nHead }

    /// Tokens after the 256 byte tokens, with their GGUF token types (3 control, 4 user-defined, 1 normal).
    public static let added: [(text: String, type: Int32)] = [
        ("<s>", 3), ("</s>", 3), ("<|im_start|>", 3), ("<|im_end|>", 3),
        ("<fake_token_around_image>", 4), ("<global-img>", 4),
        ("<row_1_col_1>", 4), ("<row_1_col_2>", 4), ("<row_2_col_1>", 4), ("<row_2_col_2>", 4),
        ("ĊĊ", 1), // "\n\n" in GPT-2's byte spelling: never produced without merges, found by mtmd's lookup
    ]
    /// Gemma 3's image framing, after ``added`` in the `gemma3` model's vocabulary.
    public static let gemmaAdded: [(text: String, type: Int32)] = [("<start_of_image>", 4), ("<end_of_image>", 4)]
    public static let bos = 256, eos = 257
    /// The `gemma3` model's sliding window (on layer 0; layer 1 is global), in positions.
    public static let gemmaWindow = 16

    public static let template = """
    {% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}
    """

    /// The `llama` file's bytes (for the Idefics3 `mmproj`).
    public static func build(seed: UInt64 = 2727) -> [UInt8] { build(gemma: false, seed: seed) }

    /// The `gemma3` file's bytes (for the Gemma 3 `mmproj`): per-head query and key norms, norms after attention
    /// and feed-forward, embeddings scaled by √nEmbd, layer 0 windowed to ``gemmaWindow`` positions.
    public static func buildGemma3(seed: UInt64 = 3737) -> [UInt8] { build(gemma: true, seed: seed) }

    private static func build(gemma: Bool, seed: UInt64) -> [UInt8] {
        let tokens = added + (gemma ? gemmaAdded : [])
        let vocabulary = byteLevelTokens + tokens.map(\.text)
        let architecture = gemma ? "gemma3" : "llama"
        var b = GGUFBuilder()
        b.add("general.architecture", .string(architecture))
        b.add("general.name", .string("tiny vision text model"))
        func key(_ k: String, _ v: GGUFValue) { b.add("\(architecture).\(k)", v) }
        key("context_length", .uint32(UInt32(contextLength)))
        key("embedding_length", .uint32(UInt32(nEmbd)))
        key("block_count", .uint32(UInt32(nLayer)))
        key("feed_forward_length", .uint32(UInt32(nFF)))
        key("attention.head_count", .uint32(UInt32(nHead)))
        key("attention.head_count_kv", .uint32(UInt32(nKVHead)))
        key("rope.dimension_count", .uint32(UInt32(headDim)))
        key("attention.layer_norm_rms_epsilon", .float32(1e-5))
        if gemma {
            key("attention.key_length", .uint32(UInt32(headDim)))
            key("attention.value_length", .uint32(UInt32(headDim)))
            key("attention.sliding_window", .uint32(UInt32(gemmaWindow)))
            key("attention.sliding_window_pattern", .uint32(2))
            key("rope.freq_base", .float32(10_000))
        }
        b.add("tokenizer.ggml.model", .string("gpt2"))
        b.add("tokenizer.ggml.pre", .string("gpt-2"))
        b.add("tokenizer.ggml.tokens", .array(.string(vocabulary)))
        b.add("tokenizer.ggml.token_type", .array(.int32(Array(repeating: 1, count: 256) + tokens.map(\.type))))
        b.add("tokenizer.ggml.merges", .array(.string([])))
        b.add("tokenizer.ggml.bos_token_id", .uint32(UInt32(bos)))
        b.add("tokenizer.ggml.eos_token_id", .uint32(UInt32(eos)))
        b.add("tokenizer.ggml.add_bos_token", .bool(true))
        b.add("tokenizer.chat_template", .string(template))
        var random = SplitMix64(seed: seed)
        // Uniform on ±half: standard deviation half/√3. Matrices are scaled by 1/√cols, so activations stay O(1)
        // and greedy choices are not near-ties.
        func tensor(_ name: String, _ shape: [Int], norm: Bool = false, sigma: Float = 1) {
            let count = shape.reduce(1, *)
            let half = sigma * Float(3).squareRoot() / Float(shape.last ?? 1).squareRoot()
            let values: [Float] = (0..<count).map { _ in
                let u = Float(random.nextUnit())
                return norm ? 0.75 + 0.5 * u : (2 * u - 1) * half
            }
            b.tensors.append(GGUFBuilder.Tensor(name: name, dims: shape.reversed().map { UInt64($0) }, typeID: GGMLType.f32.rawValue,
                                                data: values.flatMap { GGUFBuilder.le($0.bitPattern) }))
        }
        let nVocab = vocabulary.count, q = nHead * headDim, kv = nKVHead * headDim
        // Gemma scales looked-up rows by √nEmbd: rows of about unit size either way.
        tensor("token_embd.weight", [nVocab, nEmbd], sigma: gemma ? 1 : Float(nEmbd).squareRoot())
        tensor("output_norm.weight", [nEmbd], norm: true)
        tensor("output.weight", [nVocab, nEmbd], sigma: 2)
        for l in 0..<nLayer {
            tensor("blk.\(l).attn_norm.weight", [nEmbd], norm: true)
            // Sharp attention (scores of a few units), so the answer depends on the image rows it reads.
            tensor("blk.\(l).attn_q.weight", [q, nEmbd], sigma: 3)
            tensor("blk.\(l).attn_k.weight", [kv, nEmbd], sigma: 3)
            tensor("blk.\(l).attn_v.weight", [kv, nEmbd], sigma: 2)
            tensor("blk.\(l).attn_output.weight", [nEmbd, q], sigma: 2)
            if gemma {
                tensor("blk.\(l).attn_q_norm.weight", [headDim], norm: true)
                tensor("blk.\(l).attn_k_norm.weight", [headDim], norm: true)
                tensor("blk.\(l).post_attention_norm.weight", [nEmbd], norm: true)
            }
            tensor("blk.\(l).ffn_norm.weight", [nEmbd], norm: true)
            tensor("blk.\(l).ffn_gate.weight", [nFF, nEmbd])
            tensor("blk.\(l).ffn_up.weight", [nFF, nEmbd])
            tensor("blk.\(l).ffn_down.weight", [nEmbd, nFF])
            if gemma { tensor("blk.\(l).post_ffw_norm.weight", [nEmbd], norm: true) }
        }
        return b.build()
    }

    /// Writes ``build(seed:)`` (or ``buildGemma3()``) to a file kept by content (``TestFiles``) and returns its path.
    public static func write(gemma: Bool = false) throws -> String {
        try TestFiles.write(Data(gemma ? buildGemma3() : build()), named: gemma ? "tiny-vision-gemma3.gguf" : "tiny-vision.gguf").path
    }
}
