import LMGGUF
import LMTokenizer
import Testing

/// WordPiece, Gemma 4's raw BPE and llama.cpp's strip attributes on vocabularies built in code, for
/// behaviour each real vocabulary shows only in passing.
@Suite("WordPiece, raw BPE and special-token stripping on small vocabularies")
struct ModelFixtureTests {
    @Test func wordPieceLowercasesStripsAccentsAndSplitsPunctuation() throws {
        let t = try Tokenizer(metadata: Fixtures.wordPiece())
        // hello , un aff able cafe ! [UNK] 中
        #expect(t.encode("Hello, UNAFFABLE Café! xyz 中", addBOS: false) == [4, 9, 5, 6, 7, 10, 8, 1, 11])
        #expect(t.encode("Hello", addBOS: nil) == [2, 4, 3]) // [CLS] ... [SEP]
        #expect(t.decode([4, 9, 10, 8]) == " hello, cafe!")
    }

    @Test func wordPieceDropsAWordItCannotCoverToTheEnd() throws {
        let t = try Tokenizer(metadata: Fixtures.wordPiece())
        // "▁un" matches, then nothing covers "afx": the word is one [UNK], not "▁un" + [UNK].
        #expect(t.encode("unafx hello", addBOS: false) == [1, 4])
    }

    @Test func rawBPEEscapesSpacesAndMergesWithinLines() throws {
        let t = try Tokenizer(metadata: Fixtures.rawBPE())
        #expect(t.encode(" ab b", addBOS: false) == [Fixtures.rawBPEID("▁ab"), Fixtures.rawBPEID("▁"), Fixtures.rawBPEID("b")])
        #expect(t.decode(t.encode(" ab b", addBOS: false)) == " ab b")
    }

    @Test func rawBPETakesAWholeNewlineRunOnlyWhenItIsAToken() throws {
        let t = try Tokenizer(metadata: Fixtures.rawBPE())
        let ab = Fixtures.rawBPEID("ab"), nl = Fixtures.rawBPEID("\n")
        #expect(t.encode("ab\n\nab", addBOS: false) == [ab, Fixtures.rawBPEID("\n\n"), ab])
        #expect(t.encode("\n\n\n", addBOS: false) == [nl, nl, nl])
    }

    @Test func rawBPESpellsUnknownCharactersInByteTokens() throws {
        let t = try Tokenizer(metadata: Fixtures.rawBPE())
        #expect(t.encode("é", addBOS: false) == [4 + 0xC3, 4 + 0xA9])
        #expect(t.decode([4 + 0xC3, 4 + 0xA9]) == "é")
    }

    @Test func gemma4AlwaysAddsBOS() throws {
        var metadata = Fixtures.rawBPE()
        metadata["tokenizer.ggml.add_bos_token"] = .bool(false)
        let t = try Tokenizer(metadata: metadata)
        #expect(t.addsBOS)
        #expect(t.encode("a") == [2, Fixtures.rawBPEID("a")])
        #expect(t.preTokenizer == "gemma4")
    }

    @Test func phi3SpecialTokensSwallowTheWhitespaceAfterThem() throws {
        let u = 264
        let plain = try Tokenizer(metadata: Fixtures.spm(userDefined: ["<|u|>"]))
        let space = Fixtures.spmID("▁"), a = Fixtures.spmID("▁a"), b = Fixtures.spmID("b")
        #expect(plain.encode("a<|u|>  b", addBOS: false) == [a, u, space, space, space, b])
        var metadata = Fixtures.spm(userDefined: ["<|u|>"])
        metadata["general.name"] = .string("Phi3 mini")
        let phi3 = try Tokenizer(metadata: metadata)
        // rstrip drops "  " after the token; the text after it still gets SentencePiece's space prefix.
        #expect(phi3.encode("a<|u|>  b", addBOS: false) == [a, u, space, b])
        #expect(phi3.encode("a  <|u|>", addBOS: false) == [a, space, space, u]) // no lstrip
    }
}
