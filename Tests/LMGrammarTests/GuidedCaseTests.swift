import LMGrammar
import Testing

@Suite("The SmolLM2 cases of refs/guided")
struct GuidedCaseTests {
    @Test("every driver token is allowed by the mask and accepted, and only then may generation end",
          arguments: ["a_flat_recipe/spaced", "a_flat_recipe/compact", "b_nested_enum_optional/spaced",
                      "b_nested_enum_optional/compact", "c_regex_pattern/spaced", "c_regex_pattern/compact"])
    func driverTokensFollowTheGrammar(id: String) throws {
        let index = try SmolLM2Vocabulary.index()
        let guided = try #require(try GuidedCase.all.get().first { $0.id == id })
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(guided.schema), index: index)
        var mask = [UInt64](repeating: 0, count: index.wordCount)
        for (step, token) in (guided.tokens + [2]).enumerated() {
            mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
            let allowed = mask[token >> 6] >> UInt64(token & 63) & 1 == 1
            #expect(allowed, "step \(step): token \(token) not in the mask")
            // End of generation is allowed only at the very end.
            #expect((mask[0] & 0b100 != 0) == (step == guided.tokens.count), "step \(step): EOS bit")
            #expect(matcher.accept(token: token), "step \(step): token \(token) rejected")
        }
        #expect(matcher.isTerminated)
    }

    @Test("the trie-and-slices mask equals the token-by-token reference at every step, and holds no control token",
          arguments: ["a_flat_recipe/spaced", "b_nested_enum_optional/spaced", "b_nested_enum_optional/compact", "c_regex_pattern/compact"])
    func fastMaskMatchesReference(id: String) throws {
        let vocabulary = try SmolLM2Vocabulary.vocabulary()
        let index = try SmolLM2Vocabulary.index()
        let guided = try #require(try GuidedCase.all.get().first { $0.id == id })
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(guided.schema), index: index)
        var fast = [UInt64](repeating: 0, count: index.wordCount)
        var reference = fast
        let control = vocabulary.special.subtracting(vocabulary.endOfGeneration)
        for (step, token) in guided.tokens.enumerated() {
            fast.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
            reference.withUnsafeMutableBufferPointer { matcher.computeReferenceMask(into: $0) }
            #expect(fast == reference, "step \(step)")
            #expect(control.allSatisfy { fast[$0 >> 6] >> UInt64($0 & 63) & 1 == 0 }, "step \(step)")
            #expect(matcher.accept(token: token))
        }
    }

    @Test("a longest-match (non-canonical) tokenization of each instance follows the grammar, on SmolLM2 and Gemma 3",
          arguments: ["smollm2", "gemma3"])
    func nonCanonicalTokens(vocabularyName: String) throws {
        let vocabulary = try (vocabularyName == "gemma3" ? Gemma3Vocabulary.shared : SmolLM2Vocabulary.shared).get()
        let index = try (vocabularyName == "gemma3" ? Gemma3Vocabulary.sharedIndex : SmolLM2Vocabulary.sharedIndex).get()
        let tokenizer = LongestMatchTokenizer(vocabulary)
        let eos = try #require(vocabulary.endOfGeneration.min())
        var mask = [UInt64](repeating: 0, count: index.wordCount)
        for guided in try GuidedCase.all.get() {
            let tokens = try #require(tokenizer.tokenize(guided.text))
            let matcher = GrammarMatcher(grammar: try CompiledGrammar(guided.schema), index: index)
            for (step, token) in (tokens + [eos]).enumerated() {
                mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
                #expect(mask[token >> 6] >> UInt64(token & 63) & 1 == 1, "\(guided.id) step \(step)")
                #expect(matcher.accept(token: token), "\(guided.id) step \(step)")
            }
            #expect(matcher.isTerminated)
        }
    }
}
