import LMGGUF
import LMTokenizer
import Testing

@Suite("Tokenizers built from small vocabularies")
struct FixtureTokenizerTests {
    @Test func sentencePieceMergesTheBestScoringPairFirst() throws {
        let t = try Tokenizer(metadata: Fixtures.spm())
        // "▁a▁ab": "ab" (-0.5) beats "▁a" (-1), so the second word is "▁" + "ab".
        #expect(t.encode("a ab") == [1, Fixtures.spmID("▁a"), Fixtures.spmID("▁"), Fixtures.spmID("ab")])
        #expect(t.decode(t.encode("a ab", addBOS: false)) == "a ab")
        // As llama.cpp (remove_special false): only the first piece loses its space, and BOS is
        // that first piece here.
        #expect(t.decode(t.encode("a ab")) == " a ab")
    }

    @Test func sentencePieceSpellsUnknownCharactersInByteTokens() throws {
        let t = try Tokenizer(metadata: Fixtures.spm(addSpacePrefix: false))
        #expect(t.encode("é", addBOS: false) == [Fixtures.byteID(0xC3), Fixtures.byteID(0xA9)])
        #expect(t.tokenBytes(Fixtures.byteID(0xC3)) == [0xC3])
        #expect(t.decode(t.encode("aé b")) == "aé b")
    }

    @Test func sentencePieceDropsOneLeadingSpaceWhenItAddsAPrefix() throws {
        #expect(try Tokenizer(metadata: Fixtures.spm(addSpacePrefix: true)).decode([Fixtures.spmID("▁a")]) == "a")
        #expect(try Tokenizer(metadata: Fixtures.spm(addSpacePrefix: false)).decode([Fixtures.spmID("▁a")]) == " a")
    }

    @Test func bpeMergesByRank() throws {
        let t = try Tokenizer(metadata: Fixtures.bpe())
        // "abc" -> a b (rank 0) then ab c; " ab" -> a b (rank 0) first, so "Ġ a" never applies.
        #expect(t.encode("abc ab") == [5, 3, 4])
        #expect(t.decode([5, 3, 4]) == "abc ab")
        #expect(t.eogIDs == [7])
        #expect(t.bosID == nil)
    }

    @Test func bpeDropsBytesWithNoToken() throws {
        // As llama.cpp: a symbol missing from the vocabulary is looked up byte by byte.
        #expect(try Tokenizer(metadata: Fixtures.bpe()).encode("azb") == [0, 1])
    }

    @Test func specialTextIsOneTokenOnlyWhenParsed() throws {
        let t = try Tokenizer(metadata: Fixtures.bpe())
        #expect(t.encode("a<|end|>", parseSpecial: true) == [0, 7])
        #expect(t.encode("a<|end|>", parseSpecial: false) == [0])
    }

    static let invalid: [(String, [String: GGUFValue], TokenizerError)] = {
        var noModel = Fixtures.bpe(); noModel["tokenizer.ggml.model"] = nil
        var badModel = Fixtures.bpe(); badModel["tokenizer.ggml.model"] = .string("bert")
        var noTokens = Fixtures.bpe(); noTokens["tokenizer.ggml.tokens"] = nil
        var numericTokens = Fixtures.bpe(); numericTokens["tokenizer.ggml.tokens"] = .array(.int32([1, 2]))
        var noMerges = Fixtures.bpe(); noMerges["tokenizer.ggml.merges"] = nil
        var shortTypes = Fixtures.bpe(); shortTypes["tokenizer.ggml.token_type"] = .array(.int32([1]))
        var duplicate = Fixtures.bpe(); duplicate["tokenizer.ggml.tokens"] = .array(.string(["a", "b", "a"]))
        duplicate["tokenizer.ggml.token_type"] = nil
        var bosWithoutID = Fixtures.bpe(); bosWithoutID["tokenizer.ggml.add_bos_token"] = .bool(true)
        var shortScores = Fixtures.spm(); shortScores["tokenizer.ggml.scores"] = .array(.float32([0]))
        var empty = Fixtures.spm(); empty["tokenizer.ggml.tokens"] = .array(.string([]))
        var stringBool = Fixtures.spm(); stringBool["tokenizer.ggml.add_bos_token"] = .string("yes")
        return [
            ("no model", noModel, .missingKey("tokenizer.ggml.model")),
            ("unknown model", badModel, .unknownModel("bert")),
            ("unknown pre-tokenizer", Fixtures.bpe(pre: "default"), .unknownPreTokenizer("default")),
            ("no tokens", noTokens, .missingKey("tokenizer.ggml.tokens")),
            ("numeric tokens", numericTokens, .wrongType(key: "tokenizer.ggml.tokens", expected: "an array of strings")),
            ("no merges", noMerges, .missingKey("tokenizer.ggml.merges")),
            ("short token types", shortTypes, .arrayTooShort(key: "tokenizer.ggml.token_type", count: 1, needed: 8)),
            ("duplicate token", duplicate, .duplicateToken(text: "a", firstID: 0, secondID: 2)),
            ("BOS without id", bosWithoutID, .missingSpecialToken(flagKey: "tokenizer.ggml.add_bos_token", idKey: "tokenizer.ggml.bos_token_id")),
            ("short scores", shortScores, .arrayTooShort(key: "tokenizer.ggml.scores", count: 1, needed: 264)),
            ("empty vocabulary", empty, .emptyVocabulary),
            ("string bool", stringBool, .wrongType(key: "tokenizer.ggml.add_bos_token", expected: "a bool")),
        ]
    }()

    @Test("Bad metadata throws an error naming the key", arguments: invalid)
    func rejectsBadMetadata(_ name: String, _ metadata: [String: GGUFValue], _ expected: TokenizerError) {
        #expect(throws: expected) { try Tokenizer(metadata: metadata) }
    }
}
