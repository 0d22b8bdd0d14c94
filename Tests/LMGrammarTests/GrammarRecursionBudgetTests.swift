import LMGrammar
import Testing

/// Recursive schemas under a token budget (`GrammarOptions.recursionBoundedByInput`): the depth is bounded by
/// the budget, not by a fixed count, and the completion count (`GrammarMatcher+Budget`) keeps every value
/// closable however deep it nests. Left recursion, which reads nothing before it recurses, keeps its count.
@Suite("Recursive values within a token budget")
struct GrammarRecursionBudgetTests {
    /// A tree whose node is `{"c": NODE-or-null}`, referring to itself through `#`.
    static let chain = ##"{"type":"object","properties":{"c":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["c"],"additionalProperties":false}"##
    /// A labelled tree with up to two children, through `$defs`.
    static let tree = ##"{"$ref":"#/$defs/n","$defs":{"n":{"type":"object","properties":{"l":{"type":"string","maxLength":3},"k":{"type":"array","items":{"$ref":"#/$defs/n"},"maxItems":2}},"required":["l","k"],"additionalProperties":false}}}"##

    /// Picks the allowed token that nests deeper: an opening brace, then a key or a value's start; otherwise
    /// the lowest id that is not the end.
    static func deepening(_ mask: [UInt64]) -> Int? {
        let preferred = ["{\"", "{", "[", "\"", "c", "l", "k", "\":", ":", "a"].compactMap { SyntheticVocabulary.id($0) }
        let isSet = { (id: Int) in mask[id >> 6] >> UInt64(id & 63) & 1 == 1 }
        return preferred.first(where: isSet) ?? (0..<SyntheticVocabulary.index.tokenCount).first { isSet($0) && $0 != SyntheticVocabulary.eos }
            ?? (isSet(SyntheticVocabulary.eos) ? SyntheticVocabulary.eos : nil)
    }

    /// The deepest nesting of `{` in `text` (outside strings; the keys and labels here hold no braces).
    static func depth(_ text: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        for byte in text {
            if byte == UInt8(ascii: "{") { depth += 1; deepest = max(deepest, depth) }
            if byte == UInt8(ascii: "}") { depth -= 1 }
        }
        return deepest
    }

    @Test("a chooser that always nests deeper closes a valid value within the budget, as deep as the budget allows",
          arguments: [chain, tree], [12, 60, 300])
    func nestingIsBoundedByTheBudget(schema: String, budget: Int) throws {
        let options = GrammarOptions(recursionBoundedByInput: true)
        let grammar = try Grammar(jsonSchema: schema)
        let probe = try GrammarProbe(grammar, options: options)
        var mask = [UInt64](repeating: 0, count: probe.index.wordCount)
        var text: [UInt8] = []
        var generated = 0
        while generated < budget {
            mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
            let kept = mask.withUnsafeMutableBufferPointer { probe.matcher.restrictMask($0, closingWithin: budget - generated - 1) }
            #expect(kept > 0, "step \(generated): nothing fits after \(String(decoding: text, as: UTF8.self))")
            guard let token = Self.deepening(mask) else { break }
            #expect(probe.matcher.accept(token: token))
            if token == SyntheticVocabulary.eos { break }
            text += SyntheticVocabulary.vocabulary.tokens[token]
            generated += 1
        }
        let written = String(decoding: text, as: UTF8.self)
        #expect(probe.matcher.isComplete, "\(written)")
        let fresh = try GrammarProbe(grammar, options: options)
        #expect(fresh.feed(written) && fresh.matcher.isComplete, "\(written)")
        // Each level takes a few tokens to open and one or two to close: a larger budget nests deeper.
        #expect(Self.depth(text) >= budget / 8, "\(written)")
    }

    @Test("in a deep value the count grows by at most the tokens that close one more level, and stays within the bytes to close")
    func countsStayConsistentInDeepValues() throws {
        let probe = try GrammarProbe(try Grammar(jsonSchema: Self.chain), options: GrammarOptions(recursionBoundedByInput: true))
        let open = try #require(SyntheticVocabulary.id("{\""))
        var previous = try #require(probe.matcher.completionTokenCount)
        for level in 0..<200 {
            #expect(probe.feed(tokens: [open]) && probe.feed("c\":"))
            let now = try #require(probe.matcher.completionTokenCount, "level \(level)")
            // Three tokens in, at most one more level to close (`null` and one `}` more).
            #expect(now <= previous + 2, "level \(level)")
            previous = now
        }
        // The shortest completion by bytes is `null` then 200 braces: never fewer tokens than its bytes allow.
        #expect(previous >= 1 + 200 / 3)
        #expect(previous <= probe.matcher.shortestCompletion().map(\.count) ?? 0)
    }

    /// `A` is null or a non-empty array of `A` (as in GrammarSharingTests).
    static let nested = Grammar(root: .reference("A"), definitions: [
        "A": .anyOf([.null, .array(item: .reference("A"), minCount: 1, maxCount: nil)]),
    ])

    @Test("bounded by the input, recursion that opens a bracket first nests past maxRecursionDepth", arguments: [3, 4, 12, 40])
    func inputBoundedNesting(depth: Int) throws {
        let text = String(repeating: "[", count: depth) + "null" + String(repeating: "]", count: depth)
        let free = try GrammarProbe(Self.nested, options: GrammarOptions(recursionBoundedByInput: true))
        #expect(free.feed(text) && free.matcher.isComplete)
        let counted = try GrammarProbe(Self.nested)
        #expect((counted.feed(text) && counted.matcher.isComplete) == (depth <= 3), "the default still counts")
    }

    @Test("left recursion keeps the count when the input bounds the rest, and still terminates", arguments: [
        ("null", true), ("nullx", true), ("nullxxx", true), ("nullxxxx", false), ("x", false),
    ])
    func leftRecursionKeepsItsCount(text: String, accepted: Bool) throws {
        // L = L "x" | null: every "x" needs one more level of L entered before the first byte (1 + 3 levels).
        let left = Grammar(root: .reference("L"), definitions: [
            "L": .anyOf([.sequence([.reference("L"), .literals(["x"])]), .null]),
        ])
        let probe = try GrammarProbe(left, options: GrammarOptions(maxRecursionDepth: 3, recursionBoundedByInput: true))
        #expect((probe.feed(text) && probe.matcher.isComplete) == accepted)
    }

    @Test("masks of a deep input-bounded value match the reference, and the shortest completion closes every level")
    func deepMasksMatchTheReference() throws {
        let probe = try GrammarProbe(Self.nested, options: GrammarOptions(recursionBoundedByInput: true))
        #expect(probe.feed(String(repeating: "[", count: 30)))
        var fast = [UInt64](repeating: 0, count: probe.index.wordCount)
        var slow = fast
        fast.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
        slow.withUnsafeMutableBufferPointer { probe.matcher.computeReferenceMask(into: $0) }
        #expect(fast == slow)
        #expect(probe.allows("["))
        #expect(probe.matcher.shortestCompletion().map { String(decoding: $0, as: UTF8.self) } == "null" + String(repeating: "]", count: 30))
    }
}
