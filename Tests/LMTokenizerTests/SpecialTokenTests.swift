import LMTokenizer
import Testing

@Suite("Special tokens")
struct SpecialTokenTests {
    @Test func smolLM2EndsGenerationOnEndOfTextImEndAndRepoName() throws {
        let t = try RealModels.smolLM2.get()
        #expect(t.eogIDs == [0, 2, 4])
        #expect(t.tokenText(0) == "<|endoftext|>")
        #expect(t.tokenText(2) == "<|im_end|>")
        #expect(t.tokenText(4) == "<reponame>")
        #expect(t.bosID == 1)
        #expect(t.eosID == 2)
        #expect(!t.addsBOS)
        #expect(t.model == "gpt2")
        #expect(t.preTokenizer == "smollm")
        #expect(t.vocabularySize == 49152)
    }

    @Test func gemma3EndsGenerationOnEosEndOfTurnAndClosingS() throws {
        let t = try RealModels.gemma3.get()
        // llama.cpp lists `</s>` (212, user-defined in Gemma 3) among end-of-generation texts and
        // marks it control; only vocabularies with `<|tool_response>` (Gemma 4) are exempt.
        #expect(t.eogIDs == [1, 106, 212])
        #expect(t.tokenText(106) == "<end_of_turn>")
        #expect(t.tokenText(212) == "</s>")
        #expect(t.isControl(212))
        #expect(t.bosID == 2)
        #expect(t.eosID == 1)
        #expect(t.addsBOS)
        #expect(!t.addsEOS)
        #expect(t.model == "llama")
        #expect(t.vocabularySize == 262_144)
    }

    @Test func chatMarkersAreFoundByExactText() throws {
        let smol = try RealModels.smolLM2.get()
        #expect(smol.tokenID(forText: "<|im_start|>") == 1)
        #expect(smol.tokenID(forText: "<|im_end|>") == 2)
        #expect(smol.tokenID(forText: "<|im_end|> ") == nil)
        let gemma = try RealModels.gemma3.get()
        #expect(gemma.tokenID(forText: "<start_of_turn>") == 105)
        #expect(gemma.tokenID(forText: "<|im_start|>") == nil)
    }

    @Test func controlTokensAreControlAndTextTokensAreNot() throws {
        let smol = try RealModels.smolLM2.get()
        #expect((0...16).allSatisfy { smol.isControl($0) })
        #expect(!smol.isControl(17))
        let gemma = try RealModels.gemma3.get()
        #expect(gemma.isControl(2) && gemma.isControl(105) && gemma.isControl(262_143))
        // Gemma's "\n" (107) and "  " (138) are user-defined: text, matched whole.
        #expect(!gemma.isControl(107) && gemma.isUserDefined(107))
        #expect(!gemma.isControl(138) && gemma.isUserDefined(138))
        #expect(!gemma.isControl(-1) && !gemma.isControl(262_144))
    }

    @Test func controlTokensDecodeToNothingUnlessAskedFor() throws {
        let smol = try RealModels.smolLM2.get()
        let ids = smol.encode("<|im_start|>user\nHi<|im_end|>\n", parseSpecial: true)
        #expect(smol.decode(ids) == "user\nHi\n")
        #expect(smol.decode(ids, includeSpecial: true) == "<|im_start|>user\nHi<|im_end|>\n")
        #expect(smol.tokenBytes(2) == [])
        #expect(Array(smol.tokenBytes(2, includeSpecial: true)) == Array("<|im_end|>".utf8))
    }

    @Test func gemmaStartOfTurnIsOneTokenOnlyWhenSpecialTokensAreParsed() throws {
        let gemma = try RealModels.gemma3.get()
        #expect(gemma.encode("<start_of_turn>user\n", addBOS: false, parseSpecial: true).first == 105)
        #expect(gemma.encode("<start_of_turn>user\n", addBOS: false, parseSpecial: false).first != 105)
    }

    @Test func chatTemplatesAreReadFromMetadata() throws {
        #expect(try RealModels.smolLM2.get().chatTemplate?.contains("<|im_start|>") == true)
    }

    @Test func addBOSOverridesTheModelDefault() throws {
        let smol = try RealModels.smolLM2.get()
        #expect(smol.encode("Hi", addBOS: true) == [1, 26843])
        #expect(smol.encode("Hi") == [26843])
        let gemma = try RealModels.gemma3.get()
        #expect(gemma.encode("") == [2])
        #expect(gemma.encode("", addBOS: false) == [])
    }
}
