import LMGrammar
import Testing

/// Definitions compiled once and called (`GrammarCompiler`), with the recursion bound and the
/// pruning of runs that could not close kept per call stack (`CallContexts`).
@Suite("Shared and recursive definitions")
struct GrammarSharingTests {
    /// An object of `count` string fields named `prefix0`, `prefix1`...
    static func wide(_ prefix: String, _ count: Int) -> GrammarNode {
        .object((0..<count).map { GrammarField(name: "\(prefix)\($0)", value: .string(pattern: nil), isOptional: true) })
    }

    @Test("a definition or a large node used in many places is compiled once: the automaton grows by a call per use, not a copy")
    func sharedDefinitionCompilesOnce() throws {
        let uses = (0..<40).map { GrammarField(name: "u\($0)", value: .reference("Big"), isOptional: true) }
        let shared = try CompiledGrammar(Grammar(root: .object(uses), definitions: ["Big": Self.wide("field", 30)]))
        let copied = try CompiledGrammar(Grammar(root: .object((0..<40).map {
            GrammarField(name: "u\($0)", value: Self.wide("field", 30), isOptional: true)
        })))
        let one = try CompiledGrammar(Grammar(root: Self.wide("field", 30)))
        #expect(shared.stateCount < one.stateCount + 40 * 20)
        // The same node written out 40 times: in place once, then one procedure called 39 times.
        #expect(copied.stateCount < 2 * one.stateCount + 40 * 20)
        #expect(try GrammarProbe.accepts(Grammar(root: .object((0..<40).map {
            GrammarField(name: "u\($0)", value: Self.wide("field", 30), isOptional: true)
        })), #"{"u0":{"field3":"a"},"u39":{"field29":"b"}}"#))
        let g = Grammar(root: .object(uses), definitions: ["Big": Self.wide("field", 30)])
        #expect(try GrammarProbe.accepts(g, #"{"u0":{"field3":"a"},"u39":{}}"#))
        #expect(try !GrammarProbe.accepts(g, #"{"u0":{"field30":"a"}}"#))
        #expect(try !GrammarProbe.accepts(g, #"{"u0":{"field3":"a"}"#))
    }

    @Test("definitions with equal bodies share one procedure")
    func equalBodiesShare() throws {
        let fields = (0..<10).map { GrammarField(name: "m\($0)", value: .reference("D\($0)"), isOptional: true) }
        var definitions: [String: GrammarNode] = [:]
        for i in 0..<10 { definitions["D\(i)"] = Self.wide("x", 20) }
        let ten = try CompiledGrammar(Grammar(root: .object(fields), definitions: definitions))
        let single = try CompiledGrammar(Grammar(root: .object(fields.map { GrammarField(name: $0.name, value: .reference("D0"), isOptional: true) }),
                                                 definitions: ["D0": Self.wide("x", 20)]))
        #expect(ten.stateCount == single.stateCount)
    }

    /// `A` is null or a non-empty array of `A`: every `[` needs one more level of `A` inside.
    static let nested = Grammar(root: .reference("A"), definitions: [
        "A": .anyOf([.null, .array(item: .reference("A"), minCount: 1, maxCount: nil)]),
    ])

    @Test("recursion stops at maxRecursionDepth: a definition is entered at most 1 + 3 times inside itself", arguments: [
        ("null", true), ("[null]", true), ("[[null]]", true), ("[[[null]]]", true), ("[[[[null]]]]", false), ("[[[null],[null]]]", true),
    ])
    func recursionBound(text: String, accepted: Bool) throws {
        #expect(try GrammarProbe.accepts(Self.nested, text) == accepted)
    }

    @Test("at the depth bound a token that would need one more level is masked, and masks match the reference")
    func depthBoundMasks() throws {
        let probe = try GrammarProbe(Self.nested)
        for prefix in ["", "[", "[[", "[[[", "[[[null", "[[[null]", "[[[null],"] {
            let p = try GrammarProbe(Self.nested)
            #expect(p.feed(prefix), "\(prefix)")
            var fast = [UInt64](repeating: 0, count: p.index.wordCount)
            var slow = fast
            fast.withUnsafeMutableBufferPointer { p.matcher.computeMask(into: $0) }
            slow.withUnsafeMutableBufferPointer { p.matcher.computeReferenceMask(into: $0) }
            #expect(fast == slow, "\(prefix)")
        }
        #expect(probe.feed("[[["))
        #expect(!probe.allows("["))
        #expect(probe.allows("n"))
        // The value can still be closed from every state reached.
        #expect(probe.matcher.shortestCompletion().map { String(decoding: $0, as: UTF8.self) } == "null]]]")
    }

    @Test("left recursion (a definition that may start with itself) terminates and keeps its other choices")
    func leftRecursion() throws {
        let g = Grammar(root: .reference("L"), definitions: ["L": .anyOf([.reference("L"), .null, .boolean])])
        #expect(try GrammarProbe.accepts(g, "null"))
        #expect(try GrammarProbe.accepts(g, "false"))
        #expect(try !GrammarProbe.accepts(g, "1"))
    }

    @Test("mutual recursion through required members closes at the bound, and a chain that cannot close is empty")
    func mutualRecursion() throws {
        let g = Grammar(root: .reference("P"), definitions: [
            "P": .object([GrammarField(name: "q", value: .reference("Q"))]),
            "Q": .anyOf([.null, .object([GrammarField(name: "p", value: .reference("P"))])]),
        ])
        #expect(try GrammarProbe.accepts(g, #"{"q":{"p":{"q":null}}}"#))
        // P entered four times (the root's and three inside itself), then Q must be null.
        #expect(try GrammarProbe.accepts(g, #"{"q":{"p":{"q":{"p":{"q":{"p":{"q":null}}}}}}}"#))
        #expect(try !GrammarProbe.accepts(g, #"{"q":{"p":{"q":{"p":{"q":{"p":{"q":{"p":{"q":null}}}}}}}}}"#))
        let endless = Grammar(root: .reference("E"), definitions: ["E": .object([GrammarField(name: "e", value: .reference("E"))])])
        #expect(throws: GrammarError.self) { try CompiledGrammar(endless) }
    }

    @Test("two matchers of one grammar reach equal signatures by the same text, inside calls too")
    func signaturesAcrossMatchers() throws {
        let compiled = try CompiledGrammar(Self.nested)
        let a = GrammarMatcher(grammar: compiled, index: SyntheticVocabulary.index)
        let b = GrammarMatcher(grammar: compiled, index: SyntheticVocabulary.index)
        // Different paths first, so frames are numbered differently in the two matchers.
        _ = b.accept(bytes: Array("[[[null]]]".utf8))
        b.reset()
        #expect(a.accept(bytes: Array("[[".utf8)) && b.accept(bytes: Array("[[".utf8)))
        #expect(a.stateSignature == b.stateSignature)
        #expect(!a.stateSignature.isEmpty)
    }
}
