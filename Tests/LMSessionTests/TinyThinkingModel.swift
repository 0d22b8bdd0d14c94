import Foundation
import LMGGUF
import TestSupport

/// A one-layer Qwen3 GGUF, written in code, whose output is fixed by its weights: every attention and
/// feed-forward matrix is zero, so the residual stream after any token is that token's embedding, and the
/// embeddings are one-hot. The output head then maps each "state" token to a chosen successor (logit 10)
/// and, for `"\n"`, a runner-up (logit 5). Greedy decoding from the generation prompt (which ends in `"\n"`)
/// therefore writes, whatever the prompt says:
///
///     <think>Hm</think>OK<|im_end|>     (the model thinks, then answers)
///     No<|im_end|>                      (when <think> is refused: the runner-up)
///
/// A real forward pass through the real loader, tokenizer and chat template, with Qwen3's vocabulary
/// conventions: `<think>`/`</think>` are user-defined tokens, `<|im_start|>`/`<|im_end|>` control tokens.
enum TinyThinkingModel {
    static let endOfText = 256, imStart = 257, imEnd = 258, think = 259, thinkEnd = 260
    static let nEmbd = 16, headDim = 8, nHead = 2, nKVHead = 1, nFF = 16

    /// Each state token's successor: the chain above. `"\n"` (10) also has the runner-up `"N"`.
    static let successors: [(Int, Int)] = [
        (10, think), (think, byte("H")), (byte("H"), byte("m")), (byte("m"), thinkEnd),
        (thinkEnd, byte("O")), (byte("O"), byte("K")), (byte("K"), imEnd),
        (byte("N"), byte("o")), (byte("o"), imEnd),
    ]
    static let runnerUp = (10, byte("N"))

    static func byte(_ c: Character) -> Int { Int(c.asciiValue ?? 0) }

    /// A Qwen3-style template: ChatML with the `enable_thinking` switch (an empty block when it is false).
    static let chatTemplate = """
        {%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}{%- endfor %}\
        {%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}\
        {%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}{%- endif %}
        """

    /// A template that opens the block itself, as DeepSeek-R1's and Qwen3-Thinking's do (here without the line break
    /// after `<think>`, so that this model's chain goes on with "Hm"), with the same empty block when the switch is off.
    static let openingTemplate = """
        {%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}{%- endfor %}\
        {%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}\
        {%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- else %}{{- '<think>' }}{%- endif %}{%- endif %}
        """

    /// 256 byte tokens (GPT-2's byte-to-unicode spelling, so byte `b` is token `b`), then the specials.
    static let vocabulary: [String] = byteLevelTokens + ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>"]

    static func gguf(chatTemplate: String = chatTemplate) -> [UInt8] {
        var b = GGUFBuilder()
        b.add("general.architecture", .string("qwen3"))
        b.add("general.name", .string("tiny thinking model"))
        func key(_ k: String, _ v: GGUFValue) { b.add("qwen3.\(k)", v) }
        key("context_length", .uint32(512))
        key("embedding_length", .uint32(UInt32(nEmbd)))
        key("block_count", .uint32(1))
        key("feed_forward_length", .uint32(UInt32(nFF)))
        key("attention.head_count", .uint32(UInt32(nHead)))
        key("attention.head_count_kv", .uint32(UInt32(nKVHead)))
        key("attention.layer_norm_rms_epsilon", .float32(1e-6))
        b.add("tokenizer.ggml.model", .string("gpt2"))
        b.add("tokenizer.ggml.pre", .string("gpt-2"))
        b.add("tokenizer.ggml.tokens", .array(.string(vocabulary)))
        b.add("tokenizer.ggml.token_type", .array(.int32(Array(repeating: 1, count: 256) + [3, 3, 3, 4, 4])))
        b.add("tokenizer.ggml.merges", .array(.string([])))
        b.add("tokenizer.ggml.eos_token_id", .uint32(UInt32(imEnd)))
        b.add("tokenizer.ggml.padding_token_id", .uint32(UInt32(endOfText)))
        b.add("tokenizer.ggml.add_bos_token", .bool(false))
        b.add("tokenizer.chat_template", .string(chatTemplate))

        let vocab = vocabulary.count
        let states = Array(Set(successors.map(\.0))).sorted()
        var embedding = [Float](repeating: 0, count: vocab * nEmbd)   // [vocab, nEmbd]
        var output = [Float](repeating: 0, count: vocab * nEmbd)      // [vocab, nEmbd]
        for (slot, token) in states.enumerated() { embedding[token * nEmbd + slot] = 1 }
        // RMSNorm turns the one-hot e_slot into sqrt(nEmbd) * e_slot = 4 * e_slot: 2.5 gives logit 10.
        for (from, to) in successors { output[to * nEmbd + (states.firstIndex(of: from) ?? 0)] = 2.5 }
        output[runnerUp.1 * nEmbd + (states.firstIndex(of: runnerUp.0) ?? 0)] = 1.25

        func tensor(_ name: String, _ shape: [Int], _ values: [Float]) {
            b.tensors.append(GGUFBuilder.Tensor(name: name, dims: shape.reversed().map(UInt64.init), typeID: GGMLType.f32.rawValue,
                                                data: values.flatMap { GGUFBuilder.le($0.bitPattern) }))
        }
        func zeros(_ name: String, _ shape: [Int]) { tensor(name, shape, [Float](repeating: 0, count: shape.reduce(1, *))) }
        func ones(_ name: String, _ n: Int) { tensor(name, [n], [Float](repeating: 1, count: n)) }
        tensor("token_embd.weight", [vocab, nEmbd], embedding)
        ones("output_norm.weight", nEmbd)
        tensor("output.weight", [vocab, nEmbd], output)
        ones("blk.0.attn_norm.weight", nEmbd)
        zeros("blk.0.attn_q.weight", [nHead * headDim, nEmbd])
        zeros("blk.0.attn_k.weight", [nKVHead * headDim, nEmbd])
        zeros("blk.0.attn_v.weight", [nKVHead * headDim, nEmbd])
        zeros("blk.0.attn_output.weight", [nEmbd, nHead * headDim])
        ones("blk.0.attn_q_norm.weight", headDim)
        ones("blk.0.attn_k_norm.weight", headDim)
        ones("blk.0.ffn_norm.weight", nEmbd)
        zeros("blk.0.ffn_gate.weight", [nFF, nEmbd])
        zeros("blk.0.ffn_up.weight", [nFF, nEmbd])
        zeros("blk.0.ffn_down.weight", [nEmbd, nFF])
        return b.build()
    }

    /// The GGUF (with `chatTemplate`) written to a file kept by content (``TestFiles``).
    static func write(chatTemplate: String = chatTemplate) throws -> URL {
        try TestFiles.write(Data(gguf(chatTemplate: chatTemplate)), named: "thinking.gguf")
    }
}
