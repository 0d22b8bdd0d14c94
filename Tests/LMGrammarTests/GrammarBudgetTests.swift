import LMGrammar
import Testing

/// Closing a value within a token budget (`GrammarMatcher+Budget`), on the synthetic vocabulary,
/// where every printable ASCII character is a token of its own.
@Suite("Grammar token budget")
struct GrammarBudgetTests {
    static let note = #"{"type":"object","properties":{"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"},"minItems":2},"n":{"type":"integer","minimum":10,"maximum":99}},"required":["title","tags","n"]}"#

    @Test("the tokens needed to close the value are the shortest completion's bytes", arguments: [
        ("", #"{"title":"","tags":["",""],"n":10}"#.utf8.count),
        (#"{"title":"ab"#, #"","tags":["",""],"n":10}"#.utf8.count),
        (#"{"title":"ab","tags":["x"#, #"",""],"n":10}"#.utf8.count),
        (#"{"title":"ab","tags":["x","y"#, #""],"n":10}"#.utf8.count),
        (#"{"title":"ab","tags":["x","y","z","#, "\"\"],\"n\":10}".utf8.count),
        (#"{"title":"ab","tags":["x","y"],"n":1"#, 2),
        (#"{"title":"ab","tags":["x","y"],"n":12"#, 1),
        (#"{"title":"ab","tags":["x","y"],"n":12}"#, 0),
    ])
    func completionCountIsShortestCompletion(prefix: String, expected: Int) throws {
        let probe = try GrammarProbe(schema: Self.note)
        #expect(probe.feed(prefix))
        #expect(probe.matcher.completionTokenCount == expected)
        #expect(probe.matcher.shortestCompletion()?.count == expected)
    }

    @Test("the count after a token is the count once it is accepted, nil when it is refused, 0 after a closing end of generation")
    func countAfterToken() throws {
        let probe = try GrammarProbe(schema: Self.note)
        #expect(probe.feed(#"{"title":"ab","tags":["x"#))
        let comma = try #require(SyntheticVocabulary.id(","))
        let quote = try #require(SyntheticVocabulary.id("\""))
        let closing = try #require(SyntheticVocabulary.id("\"]"))
        let nextItem = try #require(SyntheticVocabulary.id("\", \""))
        #expect(probe.matcher.completionTokenCount(after: comma) == #"",""],"n":10}"#.utf8.count)
        #expect(probe.matcher.completionTokenCount(after: quote) == #",""],"n":10}"#.utf8.count)
        #expect(probe.matcher.completionTokenCount(after: closing) == nil)  // minItems 2
        #expect(probe.matcher.completionTokenCount(after: nextItem) == #""],"n":10}"#.utf8.count)
        #expect(probe.matcher.completionTokenCount(after: SyntheticVocabulary.eos) == nil)
        #expect(probe.feed(#"","y"],"n":12}"#))
        #expect(probe.matcher.completionTokenCount(after: SyntheticVocabulary.eos) == 0)
        #expect(probe.matcher.accept(token: SyntheticVocabulary.eos))
        #expect(probe.matcher.completionTokenCount == 0)
    }

    @Test("the restricted mask keeps exactly the allowed tokens whose completion fits, checked token by token",
          arguments: [("", 32, true), (#"{"title":"ab"#, 23, true), (#"{"title":"ab","tags":["x"#, 12, true),
                      (#"{"title":"ab","tags":["x""#, 10, false), (#"{"title":"ab","tags":["x","y"],"n":"#, 1, false)])
    func restrictedMaskMatchesReference(prefix: String, budget: Int, narrows: Bool) throws {
        let probe = try GrammarProbe(schema: Self.note)
        #expect(probe.feed(prefix))
        let allowed = probe.allowed()
        var mask = [UInt64](repeating: 0, count: probe.index.wordCount)
        mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
        let kept = mask.withUnsafeMutableBufferPointer { probe.matcher.restrictMask($0, closingWithin: budget) }
        let restricted = Set((0..<probe.index.tokenCount).filter { mask[$0 >> 6] >> UInt64($0 & 63) & 1 == 1 })
        // Reference: a fresh matcher per token, the completion measured in bytes.
        var expected = Set<Int>()
        for token in allowed {
            let fresh = try GrammarProbe(schema: Self.note)
            _ = fresh.feed(prefix)
            if fresh.matcher.accept(token: token), let rest = fresh.matcher.shortestCompletion(), rest.count <= budget {
                expected.insert(token)
            }
        }
        #expect(restricted == expected)
        #expect(kept == expected.count)
        // Either some but not all allowed tokens fit, or none does.
        #expect(narrows ? !expected.isEmpty && expected.count < allowed.count : expected.isEmpty)
    }

    /// Picks the allowed token that keeps the value open longest: string characters, then a new array item,
    /// then digits; otherwise the lowest id.
    static func neverEnding(_ mask: [UInt64]) -> Int? {
        let preferred = ["ab", "a", "\", \"", ",", "9"].compactMap { SyntheticVocabulary.id($0) }
        let isSet = { (id: Int) in mask[id >> 6] >> UInt64(id & 63) & 1 == 1 }
        return preferred.first(where: isSet) ?? (0..<SyntheticVocabulary.index.tokenCount).first(where: isSet)
    }

    @Test("a chooser that never ends still closes a complete value within the budget when the mask is restricted",
          arguments: [33, 34, 40, 64, 200])
    func restrictedLoopCloses(budget: Int) throws {
        let probe = try GrammarProbe(schema: Self.note)
        var mask = [UInt64](repeating: 0, count: probe.index.wordCount)
        var text: [UInt8] = []
        var generated = 0
        while generated < budget {
            mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
            _ = mask.withUnsafeMutableBufferPointer { probe.matcher.restrictMask($0, closingWithin: budget - generated - 1) }
            let token = try #require(Self.neverEnding(mask), "step \(generated): nothing fits")
            #expect(probe.matcher.accept(token: token))
            if token == SyntheticVocabulary.eos { break }
            text += SyntheticVocabulary.vocabulary.tokens[token]
            generated += 1
        }
        #expect(probe.matcher.isComplete, "\(String(decoding: text, as: UTF8.self))")
        #expect(try GrammarProbe.accepts(try Grammar(jsonSchema: Self.note), String(decoding: text, as: UTF8.self)))
        // The chooser fills the budget (unrestricted it would never stop); multi-byte closing tokens such as
        // `"]` may save a token or two at the end.
        #expect((budget - 2)...budget ~= generated)
    }

    @Test("below the shortest completion nothing fits", arguments: [0, 1, 20, 32])
    func tooSmallBudget(budget: Int) throws {
        let probe = try GrammarProbe(schema: Self.note)
        var mask = [UInt64](repeating: 0, count: probe.index.wordCount)
        mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
        // A first token and then at most `budget - 1`: 34 bytes, but `{"` is one token, so 33 fit and 32 do not.
        let kept = mask.withUnsafeMutableBufferPointer { probe.matcher.restrictMask($0, closingWithin: budget - 1) }
        #expect(kept == 0)
    }

    @Test("SmolLM2 and Gemma 3 have a token for every printable ASCII byte, so the count is the completion's bytes",
          arguments: ["smollm2", "gemma3"])
    func realVocabulariesSpellEveryByte(vocabularyName: String) throws {
        let index = try (vocabularyName == "gemma3" ? Gemma3Vocabulary.sharedIndex : SmolLM2Vocabulary.sharedIndex).get()
        let probe = try GrammarProbe(schema: Self.note, index: index)
        #expect(probe.matcher.completionTokenCount == 34)
        #expect(probe.feed(#"{"title":"ab","tags":["x"#))
        #expect(probe.matcher.completionTokenCount == 13)
        #expect(probe.matcher.completionTokenCount == probe.matcher.shortestCompletion()?.count)
    }
}
