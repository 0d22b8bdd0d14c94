import LMGGUF

/// Small vocabularies built in code, for behaviour the real models do not isolate.
enum Fixtures {
    /// SentencePiece: 0 `<unk>`, 1 `<s>`, 2 `</s>`, 3...258 `<0x00>`...`<0xFF>`, then pieces.
    static let spmPieces: [(text: String, score: Float)] = [("▁", -3), ("a", -3), ("▁a", -1), ("ab", -0.5), ("b", -3)]
    static func spmID(_ text: String) -> Int { 259 + (spmPieces.firstIndex { $0.text == text } ?? -1000) }
    static func byteID(_ b: UInt8) -> Int { 3 + Int(b) }

    static func spm(addSpacePrefix: Bool = true) -> [String: GGUFValue] {
        var tokens = ["<unk>", "<s>", "</s>"]
        var types: [Int32] = [2, 3, 3]
        var scores: [Float] = [0, 0, 0]
        for b in 0..<256 {
            tokens.append("<0x" + String(b, radix: 16, uppercase: true).leftPadded(2) + ">")
            types.append(6)
            scores.append(0)
        }
        for p in spmPieces {
            tokens.append(p.text)
            types.append(1)
            scores.append(p.score)
        }
        return [
            "tokenizer.ggml.model": .string("llama"),
            "tokenizer.ggml.tokens": .array(.string(tokens)),
            "tokenizer.ggml.token_type": .array(.int32(types)),
            "tokenizer.ggml.scores": .array(.float32(scores)),
            "tokenizer.ggml.add_space_prefix": .bool(addSpacePrefix),
        ]
    }

    /// Byte-level BPE over `a b c Ġ` with merges `a b` (rank 0), `ab c` (1), `Ġ a` (2).
    static let bpeTokens = ["a", "b", "c", "Ġ", "ab", "abc", "Ġa", "<|end|>"]

    static func bpe(pre: String = "gpt2") -> [String: GGUFValue] {
        [
            "tokenizer.ggml.model": .string("gpt2"),
            "tokenizer.ggml.pre": .string(pre),
            "tokenizer.ggml.tokens": .array(.string(bpeTokens)),
            "tokenizer.ggml.token_type": .array(.int32([1, 1, 1, 1, 1, 1, 1, 3])),
            "tokenizer.ggml.merges": .array(.string(["a b", "ab c", "Ġ a"])),
            "tokenizer.ggml.eos_token_id": .uint32(7),
        ]
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
