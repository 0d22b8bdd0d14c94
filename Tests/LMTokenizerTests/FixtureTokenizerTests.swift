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
        var badModel = Fixtures.bpe(); badModel["tokenizer.ggml.model"] = .string("t5")
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
        var noSeparator = Fixtures.bpe(); noSeparator["tokenizer.ggml.merges"] = .array(.string(["a b", "abc"]))
        var emptyRight = Fixtures.bpe(); emptyRight["tokenizer.ggml.merges"] = .array(.string(["a b", "ab "]))
        var numericMerges = Fixtures.bpe(); numericMerges["tokenizer.ggml.merges"] = .array(.int32([0, 1]))
        var numericPre = Fixtures.bpe(); numericPre["tokenizer.ggml.pre"] = .uint32(2)
        var stringTypes = Fixtures.bpe(); stringTypes["tokenizer.ggml.token_type"] = .string("normal")
        var textScores = Fixtures.spm(); textScores["tokenizer.ggml.scores"] = .array(.string(["0"]))
        var gemma4NoMerges = Fixtures.rawBPE(); gemma4NoMerges["tokenizer.ggml.merges"] = nil
        var gemma4NoBOS = Fixtures.rawBPE(); gemma4NoBOS["tokenizer.ggml.bos_token_id"] = nil
        var bertNoCLS = Fixtures.wordPiece(); bertNoCLS["tokenizer.ggml.tokens"] = .array(.string(["[UNK]", "▁a"]))
        bertNoCLS["tokenizer.ggml.token_type"] = nil
        var bertShortTypes = Fixtures.wordPiece(); bertShortTypes["tokenizer.ggml.token_type"] = .array(.int32([3, 3]))
        var badBOSType = Fixtures.bpe(); badBOSType["tokenizer.ggml.bos_token_id"] = .string("1")
        var bpeShortScores = Fixtures.bpe(); bpeShortScores["tokenizer.ggml.scores"] = .array(.float32([0, 0]))
        var bosOutOfRange = Fixtures.bpe(); bosOutOfRange["tokenizer.ggml.bos_token_id"] = .uint32(8)
        bosOutOfRange["tokenizer.ggml.add_bos_token"] = .bool(true)
        return [
            ("no model", noModel, .missingKey("tokenizer.ggml.model")),
            ("unknown model", badModel, .unknownModel("t5")),
            ("unknown pre-tokenizer", Fixtures.bpe(pre: "tekken"), .unknownPreTokenizer("tekken")),
            ("no tokens", noTokens, .missingKey("tokenizer.ggml.tokens")),
            ("numeric tokens", numericTokens, .wrongType(key: "tokenizer.ggml.tokens", expected: "an array of strings")),
            ("no merges", noMerges, .missingKey("tokenizer.ggml.merges")),
            ("short token types", shortTypes, .arrayTooShort(key: "tokenizer.ggml.token_type", count: 1, needed: 8)),
            ("duplicate token", duplicate, .duplicateToken(text: "a", firstID: 0, secondID: 2)),
            ("BOS without id", bosWithoutID, .missingSpecialToken(flagKey: "tokenizer.ggml.add_bos_token", idKey: "tokenizer.ggml.bos_token_id")),
            ("short scores", shortScores, .arrayTooShort(key: "tokenizer.ggml.scores", count: 1, needed: 264)),
            ("empty vocabulary", empty, .emptyVocabulary),
            ("string bool", stringBool, .wrongType(key: "tokenizer.ggml.add_bos_token", expected: "a bool")),
            ("merge without a space", noSeparator, .malformedMerge(index: 1, text: "abc")),
            ("merge with nothing after the space", emptyRight, .malformedMerge(index: 1, text: "ab ")),
            ("numeric merges", numericMerges, .wrongType(key: "tokenizer.ggml.merges", expected: "an array of strings")),
            ("numeric pre-tokenizer", numericPre, .wrongType(key: "tokenizer.ggml.pre", expected: "a string")),
            ("token types not an array", stringTypes, .wrongType(key: "tokenizer.ggml.token_type", expected: "an array of integers")),
            ("scores of text", textScores, .wrongType(key: "tokenizer.ggml.scores", expected: "an array of numbers")),
            ("Gemma 4 without merges", gemma4NoMerges, .missingKey("tokenizer.ggml.merges")),
            ("Gemma 4 without BOS", gemma4NoBOS, .missingSpecialToken(flagKey: "tokenizer.ggml.add_bos_token", idKey: "tokenizer.ggml.bos_token_id")),
            ("BERT vocabulary without [CLS]", bertNoCLS, .missingSpecialToken(flagKey: "tokenizer.ggml.add_bos_token", idKey: "tokenizer.ggml.bos_token_id")),
            ("BERT short token types", bertShortTypes, .arrayTooShort(key: "tokenizer.ggml.token_type", count: 2, needed: 12)),
            ("BOS id of text", badBOSType, .wrongType(key: "tokenizer.ggml.bos_token_id", expected: "an integer")),
            ("BPE short scores", bpeShortScores, .arrayTooShort(key: "tokenizer.ggml.scores", count: 2, needed: 8)),
            ("BOS id past the vocabulary", bosOutOfRange, .missingSpecialToken(flagKey: "tokenizer.ggml.add_bos_token", idKey: "tokenizer.ggml.bos_token_id")),
        ]
    }()

    @Test("Bad metadata throws an error naming the key", arguments: invalid)
    func rejectsBadMetadata(_ name: String, _ metadata: [String: GGUFValue], _ expected: TokenizerError) {
        #expect(throws: expected) { try Tokenizer(metadata: metadata) }
    }
}
