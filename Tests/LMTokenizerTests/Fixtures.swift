import LMGGUF

/// Small vocabularies built in code, for behaviour the real models do not isolate.
enum Fixtures {
    /// SentencePiece: 0 `<unk>`, 1 `<s>`, 2 `</s>`, 3...258 `<0x00>`...`<0xFF>`, then pieces.
    static let spmPieces: [(text: String, score: Float)] = [("▁", -3), ("a", -3), ("▁a", -1), ("ab", -0.5), ("b", -3)]
    static func spmID(_ text: String) -> Int { 259 + (spmPieces.firstIndex { $0.text == text } ?? -1000) }
    static func byteID(_ b: UInt8) -> Int { 3 + Int(b) }

    /// `userDefined` tokens follow the pieces (ids 264...).
    static func spm(addSpacePrefix: Bool = true, userDefined: [String] = []) -> [String: GGUFValue] {
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
        for u in userDefined {
            tokens.append(u)
            types.append(4)
            scores.append(0)
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

    static func bpe(pre: String = "gpt-2") -> [String: GGUFValue] {
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

extension Fixtures {
    /// WordPiece (BERT): 0 `[PAD]`, 1 `[UNK]`, 2 `[CLS]`, 3 `[SEP]`, then word starts `▁...` and
    /// continuations.
    static let wordPieceTokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "▁hello", "▁un", "aff", "able", "▁!", "▁,", "▁cafe", "▁中"]

    static func wordPiece() -> [String: GGUFValue] {
        [
            "tokenizer.ggml.model": .string("bert"),
            "tokenizer.ggml.tokens": .array(.string(wordPieceTokens)),
            "tokenizer.ggml.token_type": .array(.int32([3, 3, 3, 3] + Array(repeating: 1, count: 8))),
            "tokenizer.ggml.bos_token_id": .uint32(2),
            "tokenizer.ggml.unknown_token_id": .uint32(1),
            "tokenizer.ggml.seperator_token_id": .uint32(3),
        ]
    }

    /// Gemma 4 style BPE over raw UTF-8: 0 `<pad>`, 1 `<eos>`, 2 `<bos>`, 3 `<unk>`, 4...259 byte
    /// tokens `<0x00>`...`<0xFF>`, then the pieces below; merges `a b` (rank 0), `▁ ab` (1).
    static let rawBPEPieces = ["a", "b", "▁", "ab", "▁ab", "\n", "\n\n"]
    static func rawBPEID(_ text: String) -> Int { 260 + (rawBPEPieces.firstIndex(of: text) ?? -1000) }

    static func rawBPE() -> [String: GGUFValue] {
        var tokens = ["<pad>", "<eos>", "<bos>", "<unk>"]
        var types: [Int32] = [3, 3, 3, 2]
        for b in 0..<256 {
            tokens.append("<0x" + String(b, radix: 16, uppercase: true).leftPadded(2) + ">")
            types.append(6)
        }
        tokens += rawBPEPieces
        types += Array(repeating: 1, count: rawBPEPieces.count)
        return [
            "tokenizer.ggml.model": .string("gemma4"),
            "tokenizer.ggml.tokens": .array(.string(tokens)),
            "tokenizer.ggml.token_type": .array(.int32(types)),
            "tokenizer.ggml.merges": .array(.string(["a b", "▁ ab"])),
            "tokenizer.ggml.bos_token_id": .uint32(2),
            "tokenizer.ggml.eos_token_id": .uint32(1),
            "tokenizer.ggml.add_space_prefix": .bool(false),
        ]
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
