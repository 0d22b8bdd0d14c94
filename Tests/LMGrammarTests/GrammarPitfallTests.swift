import LMGrammar
import Testing

/// One test per pitfall of guided-generation.md, on a synthetic vocabulary.
@Suite("Grammar pitfalls")
struct GrammarPitfallTests {
    static let point = Grammar(root: .object([
        GrammarField(name: "x", value: .integer(minimum: nil, maximum: nil)),
        GrammarField(name: "y", value: .string(pattern: nil)),
    ]))

    @Test("whitespace is bounded to one space after colons and commas, never newlines", arguments: [
        (#"{"x":1,"y":"a"}"#, true),
        (#"{"x": 1, "y": "a"}"#, true),
        (#"{"x":  1,"y":"a"}"#, false),
        (#"{ "x":1,"y":"a"}"#, false),
        ("{\"x\":\n1,\"y\":\"a\"}", false),
        (#"{"x":1 ,"y":"a"}"#, false),
    ])
    func whitespaceIsBounded(text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Self.point, text) == valid)
    }

    @Test("a space loop is impossible: after one space only the value may follow")
    func noSpaceLoop() throws {
        let probe = try GrammarProbe(Self.point)
        #expect(probe.feed(#"{"x": "#))
        #expect(!probe.allows(" "))
        #expect(!probe.allows("  "))
        #expect(!probe.allows("\n"))
        #expect(probe.allows("1"))
    }

    @Test("tokens that straddle structure are allowed where their bytes fit, and split forms parse too")
    func straddlingTokens() throws {
        let probe = try GrammarProbe(Grammar(root: .object([GrammarField(name: "t", value: .array(item: .string(pattern: nil), minCount: 0, maxCount: nil))])))
        #expect(probe.allows("{\""))
        #expect(probe.feed(#"{"t"#))
        #expect(probe.allows("\":"))
        #expect(probe.allows("\": "))
        #expect(!probe.allows("\","))
        #expect(probe.feed(#"": ["a"#))
        #expect(!probe.allows("\"],"))  // `"` then `]` fit; no field follows, so `,` does not
        #expect(probe.allows("\"]"))
        #expect(probe.allows("\", \""))
        #expect(probe.feed(#"", "b"]}"#))
        #expect(probe.matcher.isComplete)
    }

    @Test("a character split across tokens is carried: continuation bytes only complete a character")
    func splitUTF8() throws {
        let probe = try GrammarProbe(Grammar(root: .string(pattern: nil)))
        #expect(probe.feed("\""))
        #expect(probe.allows(bytes: [0xF0]))
        #expect(probe.allows(bytes: [0xF0, 0x9F]))
        #expect(!probe.allows(bytes: [0x9F]))
        #expect(!probe.allows(bytes: [0xA2]))
        #expect(!probe.allows(bytes: [0xFF]))
        #expect(probe.matcher.accept(token: try #require(SyntheticVocabulary.id(bytes: [0xF0, 0x9F]))))
        // Mid-character: only continuation bytes; a quote would cut the character.
        #expect(probe.allows(bytes: [0x90, 0xA2]))
        #expect(!probe.allows(bytes: [0xF0]))
        #expect(!probe.allows("\""))
        #expect(!probe.allows("a"))
        #expect(probe.matcher.accept(token: try #require(SyntheticVocabulary.id(bytes: [0x90]))))
        #expect(!probe.allows(bytes: [0x90, 0xA2]))
        #expect(probe.matcher.accept(token: try #require(SyntheticVocabulary.id(bytes: [0xA2]))))
        #expect(probe.allows("\""))
        #expect(probe.feed("\""))
        #expect(probe.matcher.isComplete)
    }

    @Test("control tokens never appear inside a value and end of generation waits for completion")
    func specialTokens() throws {
        let probe = try GrammarProbe(Self.point)
        let eos = SyntheticVocabulary.eos
        #expect(!probe.allowed().contains(eos))
        #expect(probe.feed(#"{"x":12,"y":"ab"#))
        let inString = probe.allowed()
        #expect(!inString.contains(0) && !inString.contains(1) && !inString.contains(eos))
        #expect(!probe.matcher.accept(token: eos))
        #expect(!probe.matcher.accept(token: 1))
        #expect(probe.feed("\"}"))
        #expect(probe.allowed() == [eos])
        #expect(probe.matcher.canEnd)
        #expect(probe.matcher.accept(token: eos))
        #expect(probe.matcher.isTerminated && !probe.matcher.canEnd)
        #expect(probe.allowed().isEmpty)
    }

    @Test("string escapes follow RFC 8259 exactly", arguments: [
        (#""a\"b""#, true), (#""a\\b""#, true), (#""a\/b""#, true), (#""\b\f\n\r\t""#, true),
        (#""\u00e9\u00E9""#, true), (#""\uD83D\uDC22""#, true),
        (#""\x41""#, false), (#""\u12""#, false), (#""\uDC22""#, false), (#""\uD83Dx""#, false),
        ("\"a\tb\"", false), ("\"a\nb\"", false), (#""a\""#, false),
    ])
    func escapes(text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Grammar(root: .string(pattern: nil)), text) == valid)
    }

    @Test("numbers: no leading zeros, -0 and exponents valid where unbounded", arguments: [
        ("0", true), ("-0", true), ("01", false), ("-", false), ("12.5", true), ("1.", false), (".5", false),
        ("1e5", true), ("1E+05", true), ("-2.5e-3", true), ("1e", false), ("+1", false),
    ])
    func unboundedNumbers(text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Grammar(root: .number(minimum: nil, maximum: nil)), text) == valid)
    }

    @Test("integer bounds are enforced digit by digit", arguments: [
        ("5", true), ("240", true), ("25", true), ("99", true), ("100", true), ("4", false), ("241", false),
        ("2400", false), ("0", false), ("-5", false), ("005", false), ("5.0", false),
    ])
    func integerBounds(text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Grammar(root: .integer(minimum: 5, maximum: 240)), text) == valid)
    }

    @Test("a digit that could only lead out of the range is masked")
    func integerDigitsMasked() throws {
        let probe = try GrammarProbe(Grammar(root: .object([GrammarField(name: "m", value: .integer(minimum: 5, maximum: 240))])))
        #expect(probe.feed(#"{"m":"#))
        #expect(!probe.allows("0"))
        #expect(probe.allows("3"))  // 30...39
        #expect(probe.feed("24"))
        #expect(probe.allows("0"))
        #expect(!probe.allows("1"))
        #expect(probe.allows("}"))
        #expect(probe.feed("0"))
        #expect(!probe.allows("0"))  // 2400
        #expect(probe.allows("}"))
    }

    @Test("negative and mixed-sign integer ranges", arguments: [
        (-10, 10, "-10", true), (-10, 10, "-11", false), (-10, 10, "-0", true), (-10, 10, "10", true),
        (-20, -5, "-5", true), (-20, -5, "-4", false), (-20, -5, "5", false), (-20, -5, "-21", false),
    ])
    func signedIntegers(lo: Int, hi: Int, text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Grammar(root: .integer(minimum: lo, maximum: hi)), text) == valid)
    }

    @Test("bounded numbers stay inside their range, fractions included", arguments: [
        (0.0, 5.0, "4.5", true), (0.0, 5.0, "5", true), (0.0, 5.0, "5.00", true), (0.0, 5.0, "5.01", false),
        (0.0, 5.0, "0", true), (0.0, 5.0, "-0.1", false), (0.0, 5.0, "6", false), (0.5, 2.25, "0.5", true),
        (0.5, 2.25, "0.49", false), (0.5, 2.25, "2.25", true), (0.5, 2.25, "2.251", false), (0.5, 2.25, "1.999", true),
        (-1.5, 1.5, "-1.5", true), (-1.5, 1.5, "-1.6", false), (-1.5, 1.5, "-0.75", true), (0.0, 5.0, "1e1", false),
    ])
    func numberBounds(lo: Double, hi: Double, text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Grammar(root: .number(minimum: lo, maximum: hi)), text) == valid)
    }

    @Test("a regex pattern constrains the string content", arguments: [
        (#"^[A-Z]{3}-[0-9]{4}$"#, "ABC-1234", true), (#"^[A-Z]{3}-[0-9]{4}$"#, "AB-1234", false),
        (#"^[A-Z]{3}-[0-9]{4}$"#, "ABC-12345", false), (#"[A-Z]{3}\-\d{4}"#, "XYZ-0000", true),
        (#"(ab|cd)+x?"#, "abcdab", true), (#"(ab|cd)+x?"#, "abx", true), (#"(ab|cd)+x?"#, "", false),
        (#"a.c"#, "a\u{e9}c", true), (#"[^a-c]+"#, "xyz", true), (#"[^a-c]+"#, "xaz", false),
        (#"say "[a-z]+""#, "say \\\"hi\\\"", true), (#"\w+@\w+\.com"#, "ada@example.com", true),
        (#"\d+\Q-(x)\E[ab]"#, "12-(x)a", true), (#"\d+\Q-(x)\E[ab]"#, "12-xa", false),
        (#"(?i:ab[c-d])x"#, "ABdx", true), (#"(?i:ab[c-d])x"#, "abcX", false), (#"(?i)yes"#, "YeS", true),
    ])
    func patterns(pattern: String, content: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Grammar(root: .string(pattern: pattern)), "\"\(content)\"") == valid)
    }

    @Test("patterns the matcher cannot enforce are rejected with unsupportedPattern", arguments: [
        #"(a)\1"#, #"a(?=b)"#, #"a(?!b)"#, #"(?<=a)b"#, #"\bword"#, #"a^b"#, #"a$b"#, #"\p{L}"#, #"a++"#, #"[[:alpha:]]"#,
    ])
    func unsupportedPatterns(pattern: String) throws {
        #expect(throws: GrammarError.self) { try CompiledGrammar(Grammar(root: .string(pattern: pattern))) }
        do {
            _ = try CompiledGrammar(Grammar(root: .string(pattern: pattern)))
        } catch {
            guard case let .unsupportedPattern(p, _) = error else { Issue.record("got \(error)"); return }
            #expect(p.contains(pattern))
        }
    }

    @Test("a pattern that does not parse says why", arguments: [
        ("^(ab$", "unbalanced parenthesis"), ("^(ab", "unbalanced parenthesis"), ("(a$|b)", "anchor $ inside a group"),
    ])
    func syntaxErrorsAreNamed(pattern: String, reason: String) {
        do {
            _ = try Grammar(jsonSchema: #"{"type":"string","pattern":"\#(pattern)"}"#)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
    }

    static let ordered = Grammar(root: .object([
        GrammarField(name: "a", value: .integer(minimum: nil, maximum: nil), isOptional: true),
        GrammarField(name: "b", value: .integer(minimum: nil, maximum: nil)),
        GrammarField(name: "c", value: .integer(minimum: nil, maximum: nil), isOptional: true),
    ]))

    @Test("keys follow declaration order, every optional combination is reachable, nothing else", arguments: [
        (#"{"b":1}"#, true), (#"{"a":1,"b":2}"#, true), (#"{"b":1,"c":3}"#, true), (#"{"a":1,"b":2,"c":3}"#, true),
        (#"{"b":1,"a":2}"#, false), (#"{"a":1}"#, false), (#"{}"#, false), (#"{"b":1,"b":2}"#, false),
        (#"{"b":1,"d":2}"#, false), (#"{"c":1,"b":2}"#, false), (#"{"b":1,}"#, false), (#"{,"b":1}"#, false),
    ])
    func keyOrder(text: String, valid: Bool) throws {
        #expect(try GrammarProbe.accepts(Self.ordered, text) == valid)
    }

    @Test("an object of only optional keys may be empty")
    func allOptional() throws {
        let g = Grammar(root: .object([GrammarField(name: "a", value: .boolean, isOptional: true)]))
        #expect(try GrammarProbe.accepts(g, "{}"))
        #expect(try GrammarProbe.accepts(g, #"{"a":true}"#))
    }

    @Test("enum values that are prefixes of each other or hold escapes", arguments: [
        (#""low""#, true), (#""lower""#, true), (#""lowe""#, false), (#""lo""#, false), (#""say \"hi\"""#, true),
        (#""say "hi"""#, false), (#""high""#, true), (#""LOW""#, false),
    ])
    func enumChoices(text: String, valid: Bool) throws {
        let g = Grammar(root: .choices(["low", "lower", "high", #"say "hi""#]))
        #expect(try GrammarProbe.accepts(g, text) == valid)
    }

    @Test("after a shorter enum value, both closing and continuing are allowed")
    func enumPrefixMask() throws {
        let probe = try GrammarProbe(Grammar(root: .choices(["low", "lower"])))
        #expect(probe.feed("\"low"))
        #expect(probe.allows("\""))
        #expect(probe.allows("e"))
        #expect(!probe.allows("a"))
    }

    @Test("array count bounds are enforced", arguments: [
        (3, 3, #"["a","b","c"]"#, true), (3, 3, #"["a","b"]"#, false), (3, 3, #"["a","b","c","d"]"#, false),
        (1, 8, "[]", false), (1, 8, #"["a"]"#, true), (1, 8, #"["1","2","3","4","5","6","7","8"]"#, true),
        (1, 8, #"["1","2","3","4","5","6","7","8","9"]"#, false), (0, 0, "[]", true), (2, nil, #"["a","b","c","d","e"]"#, true),
        (2, nil, #"["a"]"#, false),
    ] as [(Int, Int?, String, Bool)])
    func arrayCounts(lo: Int, hi: Int?, text: String, valid: Bool) throws {
        let g = Grammar(root: .array(item: .string(pattern: nil), minCount: lo, maxCount: hi))
        #expect(try GrammarProbe.accepts(g, text) == valid)
    }

    @Test("count bounds grow the automaton linearly, not exponentially")
    func countsAreLinear() throws {
        let item = GrammarNode.object([GrammarField(name: "k", value: .array(item: .integer(minimum: 0, maximum: 9), minCount: 1, maxCount: 4))])
        let ten = try CompiledGrammar(Grammar(root: .array(item: item, minCount: 1, maxCount: 10))).stateCount
        let forty = try CompiledGrammar(Grammar(root: .array(item: item, minCount: 1, maxCount: 40))).stateCount
        #expect(Double(forty) / Double(ten) < 4.5)
        #expect(throws: GrammarError.self) { try CompiledGrammar(Grammar(root: .array(item: .boolean, minCount: 3, maxCount: 2))) }
    }

    @Test("a value cut off is never complete: end of generation stays masked mid-value")
    func truncation() throws {
        let probe = try GrammarProbe(Self.point)
        for piece in ["{", "\"x\"", ":", "1", ",", "\"y\":\"a"] {
            #expect(probe.feed(piece))
            #expect(!probe.matcher.isComplete)
            #expect(!probe.allowed().contains(SyntheticVocabulary.eos))
        }
    }

    @Test("a rejected token leaves the matcher where it was")
    func rejectionKeepsState() throws {
        let probe = try GrammarProbe(Self.point)
        #expect(probe.feed(#"{"x":"#))
        #expect(!probe.matcher.accept(token: try #require(SyntheticVocabulary.id("a"))))
        #expect(!probe.matcher.accept(token: 99_999))
        #expect(probe.feed("7"))
    }

    @Test("masks use bit i % 64 of word i / 64 for token i")
    func maskLayout() throws {
        let probe = try GrammarProbe(Grammar(root: .choices(["a"])))
        let quote = try #require(SyntheticVocabulary.id("\""))
        #expect(probe.allowed() == [quote])
        var mask = [UInt64](repeating: 0, count: SyntheticVocabulary.index.wordCount)
        mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
        #expect(mask[quote / 64] == 1 << UInt64(quote % 64))
        #expect(mask.reduce(0) { $0 + $1.nonzeroBitCount } == 1)
    }

    @Test("when the budget runs out, the shortest completion closes the value", arguments: [
        (#"{"x":12,"y":"ab"#, #""}"#),
        (#"{"x":"#, #"0,"y":""}"#),
        (#"{"#, #""x":0,"y":""}"#),
        (#"{"x":1,"y":"a\"#, #"""}"#),
        (#"{"x":1,"y":"ok"}"#, ""),
    ])
    func shortestCompletion(prefix: String, completion: String) throws {
        let probe = try GrammarProbe(Self.point)
        #expect(probe.feed(prefix))
        let bytes = try #require(probe.matcher.shortestCompletion())
        #expect(String(decoding: bytes, as: UTF8.self) == completion)
        #expect(probe.matcher.accept(bytes: bytes))
        #expect(probe.matcher.isComplete)
    }

    @Test("the shortest completion respects counts and ranges")
    func completionRespectsGuides() throws {
        let g = Grammar(root: .object([
            GrammarField(name: "n", value: .integer(minimum: 5, maximum: 240)),
            GrammarField(name: "k", value: .array(item: .choices(["low", "x"]), minCount: 2, maxCount: 3)),
        ]))
        let probe = try GrammarProbe(g)
        #expect(probe.feed(#"{"n":"#))
        #expect(String(decoding: try #require(probe.matcher.shortestCompletion()), as: UTF8.self) == #"5,"k":["x","x"]}"#)
    }

    @Test("a lazily determinized pattern keeps a bounded cache and still matches exactly")
    func boundedCache() throws {
        // The DFA of "an a twelve characters from the end" has thousands of states.
        let g = Grammar(root: .string(pattern: "[ab]*a[ab]{12}"))
        let probe = try GrammarProbe(g, options: GrammarOptions(maxCachedStates: 64))
        var generator = SystemRandomNumberGenerator()
        var text = ""
        #expect(probe.feed("\""))
        for _ in 0..<400 {
            let c = Bool.random(using: &generator) ? "a" : "b"
            #expect(probe.feed(c))
            text += c
            _ = probe.allowed()
            #expect(probe.matcher.cachedStateCount <= 64 + 300)
        }
        #expect(probe.feed("a" + String(repeating: "b", count: 12) + "\""))
        #expect(probe.matcher.isComplete)
        let wrong = try GrammarProbe(g, options: GrammarOptions(maxCachedStates: 64))
        #expect(wrong.feed("\"" + text + String(repeating: "b", count: 13)))
        #expect(!wrong.allows("\""))
    }

    /// Every string over {a, b} of 1 to 12 letters, then `"`: a vocabulary whose token trie walks
    /// thousands of states of a pattern that blows up when determinized.
    static let abIndex: TokenIndex = {
        var tokens: [[UInt8]] = []
        var layer: [[UInt8]] = [[]]
        for _ in 1...12 {
            layer = layer.flatMap { [$0 + [UInt8(ascii: "a")], $0 + [UInt8(ascii: "b")]] }
            tokens += layer
        }
        return TokenIndex(ArrayVocabulary(tokens: tokens + [[UInt8(ascii: "\"")]]))
    }()

    @Test("a pattern whose DFA blows up within one mask fails that step with stepTooLarge, in bounded memory")
    func stepLimit() throws {
        // "an a twenty letters from the end": 2^21 DFA states; one mask from here walks 8,190 tokens.
        let g = Grammar(root: .string(pattern: "[ab]*a[ab]{20}"))
        let probe = try GrammarProbe(g, index: Self.abIndex, options: GrammarOptions(maxCachedStates: 64, maxStatesPerStep: 1_000))
        #expect(probe.feed("\"ab"))
        #expect(probe.matcher.failure == nil)
        var mask = [UInt64](repeating: .max, count: Self.abIndex.wordCount)
        mask.withUnsafeMutableBufferPointer { probe.matcher.computeMask(into: $0) }
        #expect(probe.matcher.failure == .stepTooLarge(states: 1_064))
        #expect(mask.allSatisfy { $0 == 0 })
        #expect(probe.matcher.cachedStateCount <= 1_064)
        #expect(!probe.matcher.accept(token: 0))

        // The same pattern with room for the step: the mask holds every a/b token (the pattern can
        // still be completed after any of them) and not the quote (no a twenty from the end yet).
        let roomy = try GrammarProbe(g, index: Self.abIndex, options: GrammarOptions(maxCachedStates: 64, maxStatesPerStep: 20_000))
        #expect(roomy.feed("\"ab"))
        var full = [UInt64](repeating: 0, count: Self.abIndex.wordCount)
        full.withUnsafeMutableBufferPointer { roomy.matcher.computeMask(into: $0) }
        #expect(roomy.matcher.failure == nil)
        let allowed = (0..<Self.abIndex.tokenCount).filter { full[$0 >> 6] >> UInt64($0 & 63) & 1 == 1 }
        #expect(allowed.count == Self.abIndex.tokenCount - 1)
    }
}
