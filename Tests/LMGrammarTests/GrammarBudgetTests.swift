import LMGrammar
import Testing

/// Closing a value within a token budget (`GrammarMatcher+Budget`), on the synthetic vocabulary
/// (every printable ASCII character a token, plus tokens such as `{"`, `",` and `", "`), against
/// a reference that searches token sequences the slow way.
@Suite("Grammar token budget")
struct GrammarBudgetTests {
    static let note = #"{"type":"object","properties":{"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"},"minItems":2},"n":{"type":"integer","minimum":10,"maximum":99}},"required":["title","tags","n"]}"#

    /// Fewest tokens after `prefix` (itself fed as bytes) that complete a value: breadth-first over
    /// token sequences, each replayed on a fresh matcher and expanded with the token-by-token
    /// reference mask, sequences reaching the same automaton states counted once.
    static func referenceCount(_ schema: String, prefix: String, index: TokenIndex = SyntheticVocabulary.index, limit: Int = 40) throws -> Int? {
        let grammar = try CompiledGrammar(try Grammar(jsonSchema: schema))
        func replay(_ tokens: [Int]) -> GrammarMatcher {
            let m = GrammarMatcher(grammar: grammar, index: index)
            _ = m.accept(bytes: Array(prefix.utf8))
            for t in tokens { _ = m.accept(token: t) }
            return m
        }
        var frontier: [[Int]] = [[]]
        var seen: Set<[Int32]> = [replay([]).stateSignature]
        var mask = [UInt64](repeating: 0, count: index.wordCount)
        for level in 0...limit {
            var next: [[Int]] = []
            for path in frontier {
                let m = replay(path)
                if m.isComplete { return level }
                mask.withUnsafeMutableBufferPointer { m.computeReferenceMask(into: $0) }
                for t in 0..<index.tokenCount where mask[t >> 6] >> UInt64(t & 63) & 1 == 1 && !index.endOfGenerationTokens.contains(t) {
                    let after = replay(path + [t])
                    if seen.insert(after.stateSignature).inserted { next.append(path + [t]) }
                }
            }
            frontier = next
        }
        return nil
    }

    @Test("the tokens needed to close the value are the fewest tokens of any completion", arguments: [
        "", #"{"title":"ab","tags":["x"#, #"{"title":"ab","tags":["x","y","z","#,
        #"{"title":"ab","tags":["x","y"],"n":1"#, #"{"title":"ab","tags":["x","y"],"n":12}"#,
    ])
    func completionCountIsFewestTokens(prefix: String) throws {
        let probe = try GrammarProbe(schema: Self.note)
        #expect(probe.feed(prefix))
        #expect(probe.matcher.completionTokenCount == (try Self.referenceCount(Self.note, prefix: prefix)))
        // Never more than the shortest completion spelt byte by byte.
        #expect((probe.matcher.completionTokenCount ?? .max) <= (probe.matcher.shortestCompletion()?.count ?? 0))
    }

    /// An unanchored pattern is matched anywhere: text before the match keeps the string open, but closing it
    /// takes the match's characters, which the search left out as "free string" characters (it found no
    /// completion, and the session refused the schema as one it cannot enforce).
    @Test("an unanchored pattern closes by writing its match, counted exactly", arguments: [
        (#"{"type":"string","pattern":"abc"}"#, #""Data: 2022-"#),
        (#"{"type":"string","pattern":"[0-9]{4}-[0-9]{2}"}"#, #""Data: 2022-"#),
        (#"{"type":"string","pattern":"a{5}b{5}$"}"#, #""x"#),
    ])
    func unanchoredPatternCloses(schema: String, prefix: String) throws {
        let probe = try GrammarProbe(schema: schema)
        #expect(probe.feed(prefix))
        let count = probe.matcher.completionTokenCount
        #expect(count != nil)
        #expect(count == (try Self.referenceCount(schema, prefix: prefix, limit: 16)))
    }

    @Test("the count after a token is the count once it is accepted, nil when it is refused, 0 after a closing end of generation")
    func countAfterToken() throws {
        let prefix = #"{"title":"ab","tags":["x"#
        let probe = try GrammarProbe(schema: Self.note)
        #expect(probe.feed(prefix))
        for text in [",", "\"", "\"]", "\", \""] {
            let token = try #require(SyntheticVocabulary.id(text))
            let fresh = try GrammarProbe(schema: Self.note)
            _ = fresh.feed(prefix)
            let expected = fresh.matcher.accept(token: token) ? fresh.matcher.completionTokenCount : nil
            #expect(probe.matcher.completionTokenCount(after: token) == expected, "after \(text)")
        }
        #expect(probe.matcher.completionTokenCount(after: try #require(SyntheticVocabulary.id("\"]"))) == nil)  // minItems 2
        #expect(probe.matcher.completionTokenCount(after: SyntheticVocabulary.eos) == nil)
        #expect(probe.feed(#"","y"],"n":12}"#))
        #expect(probe.matcher.completionTokenCount(after: SyntheticVocabulary.eos) == 0)
        #expect(probe.matcher.accept(token: SyntheticVocabulary.eos))
        #expect(probe.matcher.completionTokenCount == 0)
    }

    @Test("the restricted mask keeps exactly the allowed tokens whose count after them fits, the shortest paths' first tokens",
          arguments: ["", #"{"title":"ab"#, #"{"title":"ab","tags":["x"#, #"{"title":"ab","tags":["x","y""#])
    func restrictedMaskKeepsTokensThatFit(prefix: String) throws {
        let probe = try GrammarProbe(schema: Self.note)
        #expect(probe.feed(prefix))
        let budget = try #require(probe.matcher.completionTokenCount) - 1
        let allowed = probe.allowed()
        var mask = [UInt64](repeating: 0, count: probe.index.wordCount)
        mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
        let kept = mask.withUnsafeMutableBufferPointer { probe.matcher.restrictMask($0, closingWithin: budget) }
        let restricted = Set((0..<probe.index.tokenCount).filter { mask[$0 >> 6] >> UInt64($0 & 63) & 1 == 1 })
        let expected = allowed.filter { (probe.matcher.completionTokenCount(after: $0) ?? .max) <= budget }
        #expect(restricted == expected)
        #expect(kept == expected.count)
        #expect(!expected.isEmpty && expected.count < allowed.count)
        // Each kept token really leaves a value that closes in time.
        for token in restricted.sorted().prefix(3) {
            let text = prefix + String(decoding: SyntheticVocabulary.vocabulary.tokens[token], as: UTF8.self)
            #expect(try Self.referenceCount(Self.note, prefix: text, limit: budget) == budget, "after \(text)")
        }
    }

    /// Picks the allowed token that keeps the value open longest: string characters, then a new array item,
    /// then digits; otherwise the lowest id.
    static func neverEnding(_ mask: [UInt64]) -> Int? {
        let preferred = ["ab", "a", "\", \"", ",", "9"].compactMap { SyntheticVocabulary.id($0) }
        let isSet = { (id: Int) in mask[id >> 6] >> UInt64(id & 63) & 1 == 1 }
        return preferred.first(where: isSet) ?? (0..<SyntheticVocabulary.index.tokenCount).first(where: isSet)
    }

    @Test("a chooser that never ends still closes a complete value within the budget when the mask is restricted",
          arguments: [23, 24, 30, 64, 200])
    func restrictedLoopCloses(budget: Int) throws {
        let probe = try GrammarProbe(schema: Self.note)
        #expect(probe.matcher.completionTokenCount == 23)
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
        #expect(generated == budget, "the chooser fills the budget: \(String(decoding: text, as: UTF8.self))")
    }

    @Test("below the fewest tokens of any value nothing fits", arguments: [0, 1, 20, 22])
    func tooSmallBudget(budget: Int) throws {
        let probe = try GrammarProbe(schema: Self.note)
        var mask = [UInt64](repeating: 0, count: probe.index.wordCount)
        mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
        // A first token and then at most `budget - 1`: the shortest value takes 23 tokens.
        let kept = mask.withUnsafeMutableBufferPointer { probe.matcher.restrictMask($0, closingWithin: budget - 1) }
        #expect(kept == 0)
    }

    @Test("on SmolLM2 a value of many multi-byte keys counts its real tokens, far fewer than its bytes")
    func realVocabularyCountsTokens() throws {
        let index = try SmolLM2Vocabulary.index()
        let probe = try GrammarProbe(schema: Self.note, index: index)
        let count = try #require(probe.matcher.completionTokenCount)
        #expect(count < 34)
        let tokens = try #require(LongestMatchTokenizer(try SmolLM2Vocabulary.vocabulary()).tokenize(#"{"title":"","tags":["",""],"n":10}"#))
        #expect(count <= tokens.count)
        #expect(probe.feed(#"{"title":"ab","tags":["x"#))
        #expect((probe.matcher.completionTokenCount ?? .max) <= 13)
    }
}
