// Strings (RFC 8259 §7): free content with every escape, or constrained content (patterns,
// lengths, excluded values) built as the intersection of one automaton per constraint.

extension GrammarCompiler {
    /// A quoted string whose content satisfies `constraints`. Keys (`canonical`) and constrained
    /// strings are spelt canonically (no `\u` escape but for control characters, `/` unescaped), so
    /// a value to exclude has a single spelling and characters are counted as written.
    mutating func string(_ constraints: StringGrammar, from s: Int32, canonical: Bool = false) throws(GrammarError) -> Int32 {
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "\""), open)
        let contentEnd: Int32
        if constraints.isFree, !canonical {
            contentEnd = freeStringContent(from: open)
        } else if constraints.minLength == 0, constraints.maxLength == nil, constraints.excluded.isEmpty, constraints.forbidden.isEmpty, constraints.patterns.count == 1 {
            contentEnd = try searchPattern(constraints.patterns[0], canonical: canonical, from: open)
        } else {
            contentEnd = nfa.embed(try constrainedContent(constraints), from: open)
        }
        let end = nfa.newState()
        nfa.edge(contentEnd, UInt8(ascii: "\""), end)
        return end
    }

    /// Content matching one of `alternatives` with JSON Schema's search semantics: an unanchored
    /// side may have any content around the match (free content, so its masks stay fast).
    mutating func searchPattern(_ alternatives: [String], canonical: Bool = false, from s: Int32) throws(GrammarError) -> Int32 {
        let end = nfa.newState()
        for source in alternatives {
            for branch in try RegexParser.parseBranches(source) {
                // Counted before building: nested counts multiply, and building first took seconds and
                // hundreds of megabytes before the size check could refuse it.
                let estimate = RegexCompiler.stateEstimate(branch.node)
                guard estimate <= options.maxStates - nfa.count else {
                    throw .unsupportedPattern(pattern: source, reason: "its repetitions expand to \(estimate == .max ? "too many" : "about \(estimate)") automaton states (counts multiply through nesting), above the limit of \(options.maxStates)")
                }
                var cur = s
                if !branch.anchoredStart { cur = canonical ? canonicalContent(from: cur) : freeStringContent(from: cur) }
                let entry = nfa.newState()
                nfa.epsilon(cur, entry)
                cur = RegexCompiler.add(branch.node, into: &nfa, from: entry)
                if !branch.anchoredEnd { cur = canonical ? canonicalContent(from: cur) : freeStringContent(from: cur) }
                nfa.epsilon(cur, end)
            }
        }
        return end
    }

    /// The content automaton of constrained strings: canonical content (or the patterns), times a
    /// character counter, times the exclusion of listed values.
    /// The canonical string content matching one of `alternatives` (JSON Schema search semantics), as an
    /// automaton of its own: a part to intersect, or what `PatternMatcher` runs.
    func patternContent(_ alternatives: [String]) throws(GrammarError) -> ByteNFA {
        var p = scratch()
        let start = p.nfa.newState()
        p.nfa.start = start
        p.nfa.accept = try p.searchPattern(alternatives, canonical: true, from: start)
        return p.nfa
    }

    private func constrainedContent(_ c: StringGrammar) throws(GrammarError) -> ByteNFA {
        var parts: [ByteNFA] = []
        if c.patterns.isEmpty {
            var base = scratch()
            let start = base.nfa.newState()
            base.nfa.start = start
            base.nfa.accept = base.canonicalContent(from: start)
            parts.append(base.nfa)
        }
        for alternatives in c.patterns { parts.append(try patternContent(alternatives)) }
        if c.minLength > 0 || c.maxLength != nil {
            let hi = c.maxLength.map { min($0, options.maxStringLength) }
            if let hi, hi < c.minLength { throw .emptyLanguage("string length \(c.minLength)...\(hi)") }
            // Nine counter states per character, refused before they are allocated.
            if (hi ?? c.minLength) >= options.maxStates / 9 { throw .tooLarge(states: options.maxStates) }
            parts.append(ContentAutomata.lengthCounter(minimum: c.minLength, maximum: hi))
        }
        if !c.excluded.isEmpty { parts.append(ContentAutomata.excluding(c.excluded.map { Array(JSONText.quoted($0).dropFirst().dropLast()) })) }
        for pattern in c.forbidden {
            // Complemented over all bytes; the canonical content or pattern in parts[0] keeps it to JSON.
            parts.append(try patternContent([pattern]).complement(maxStates: options.maxStates))
        }
        var result = parts[0]
        for part in parts.dropFirst() { result = try result.intersection(part, maxStates: options.maxStates) }
        return result
    }

    /// Canonical string content: unescaped characters but `"`, `\` and controls, whose escapes are
    /// `\"` `\\` `\b` `\f` `\n` `\r` `\t` and `\u00xx` (lower-case hex) for the other controls.
    mutating func canonicalContent(from s: Int32) -> Int32 {
        let home = nfa.newState()
        nfa.epsilon(s, home)
        nfa.isFreeStringHome[Int(home)] = true
        nfa.edge(home, 0x20, 0x21, home)
        nfa.edge(home, 0x23, 0x5B, home)
        nfa.edge(home, 0x5D, 0x7F, home)
        addUTF8Multibyte(from: home, to: home)
        for scalar in (0..<0x20).compactMap(Unicode.Scalar.init) + ["\"", "\\"] {
            nfa.epsilon(nfa.literal(JSONText.escaped(scalar), from: home), home)
        }
        return home
    }

    /// Any JSON string content (RFC 8259 §7): unescaped characters except `"` `\` and controls,
    /// as valid UTF-8 (RFC 3629 table), and the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`
    /// (surrogates only as high-low pairs). Returns the content's home state.
    mutating func freeStringContent(from s: Int32) -> Int32 {
        let home = nfa.newState()
        nfa.epsilon(s, home)
        nfa.isFreeStringHome[Int(home)] = true
        nfa.edge(home, 0x20, 0x21, home)
        nfa.edge(home, 0x23, 0x5B, home)
        nfa.edge(home, 0x5D, 0x7F, home)
        addUTF8Multibyte(from: home, to: home)
        let escape = nfa.newState()
        nfa.edge(home, UInt8(ascii: "\\"), escape)
        for c in "\"\\/bfnrt".utf8 { nfa.edge(escape, c, home) }
        let u = nfa.newState()
        nfa.edge(escape, UInt8(ascii: "u"), u)
        addUnicodeEscape(from: u, to: home)
        return home
    }

    /// The 4 hex digits after `\u`, excluding lone surrogates; a high surrogate must be followed
    /// by `\u` and a low surrogate.
    mutating func addUnicodeEscape(from u: Int32, to home: Int32) {
        func hex(_ from: Int32, _ to: Int32) {
            nfa.edge(from, UInt8(ascii: "0"), UInt8(ascii: "9"), to)
            nfa.edge(from, UInt8(ascii: "a"), UInt8(ascii: "f"), to)
            nfa.edge(from, UInt8(ascii: "A"), UInt8(ascii: "F"), to)
        }
        func hexExceptD(_ from: Int32, _ to: Int32) {
            nfa.edge(from, UInt8(ascii: "0"), UInt8(ascii: "9"), to)
            nfa.edge(from, UInt8(ascii: "a"), UInt8(ascii: "c"), to)
            nfa.edge(from, UInt8(ascii: "e"), UInt8(ascii: "f"), to)
            nfa.edge(from, UInt8(ascii: "A"), UInt8(ascii: "C"), to)
            nfa.edge(from, UInt8(ascii: "E"), UInt8(ascii: "F"), to)
        }
        func chain(_ from: Int32, _ n: Int, _ to: Int32) {
            var cur = from
            for i in 0..<n {
                let t = i == n - 1 ? to : nfa.newState()
                hex(cur, t)
                cur = t
            }
        }
        // Non-surrogate: first digit not D, or D followed by 0-7.
        let rest3 = nfa.newState()
        hexExceptD(u, rest3)
        chain(rest3, 3, home)
        let d = nfa.newState()
        nfa.edge(u, UInt8(ascii: "d"), d)
        nfa.edge(u, UInt8(ascii: "D"), d)
        let rest2 = nfa.newState()
        nfa.edge(d, UInt8(ascii: "0"), UInt8(ascii: "7"), rest2)
        chain(rest2, 2, home)
        // High surrogate D8-DB, then \uDC00-\uDFFF.
        let high = nfa.newState()
        for c in "89abAB".utf8 { nfa.edge(d, c, high) }
        let highDone = nfa.newState()
        chain(high, 2, highDone)
        let lowU = nfa.literal("\\u".utf8, from: highDone)
        let lowD = nfa.newState()
        nfa.edge(lowU, UInt8(ascii: "d"), lowD)
        nfa.edge(lowU, UInt8(ascii: "D"), lowD)
        let low = nfa.newState()
        for c in "cdefCDEF".utf8 { nfa.edge(lowD, c, low) }
        chain(low, 2, home)
    }

    /// Every multi-byte UTF-8 character (RFC 3629 §4), from `s` to `t`.
    mutating func addUTF8Multibyte(from s: Int32, to t: Int32) {
        let c1 = nfa.newState(), c2 = nfa.newState(), c3 = nfa.newState()
        nfa.edge(c1, 0x80, 0xBF, t)
        nfa.edge(c2, 0x80, 0xBF, c1)
        nfa.edge(c3, 0x80, 0xBF, c2)
        nfa.edge(s, 0xC2, 0xDF, c1)
        let e0 = nfa.newState(); nfa.edge(s, 0xE0, e0); nfa.edge(e0, 0xA0, 0xBF, c1)
        nfa.edge(s, 0xE1, 0xEC, c2)
        let ed = nfa.newState(); nfa.edge(s, 0xED, ed); nfa.edge(ed, 0x80, 0x9F, c1)
        nfa.edge(s, 0xEE, 0xEF, c2)
        let f0 = nfa.newState(); nfa.edge(s, 0xF0, f0); nfa.edge(f0, 0x90, 0xBF, c2)
        nfa.edge(s, 0xF1, 0xF3, c3)
        let f4 = nfa.newState(); nfa.edge(s, 0xF4, f4); nfa.edge(f4, 0x80, 0x8F, c2)
    }
}

/// Small deterministic automata over string content, intersected with the content automaton.
enum ContentAutomata {
    /// Content of `minimum` to `maximum` (nil: unbounded) characters: a raw character, a short
    /// escape or a `\uXXXX` escape counts one. Byte validity is left to the other automaton.
    static func lengthCounter(minimum: Int, maximum: Int?) -> ByteNFA {
        let cap = maximum ?? minimum
        // Phases: 0 between characters, 1...3 continuation bytes to come, 4 after `\`,
        // 5...8 hex digits to come after `\u`.
        var nfa = ByteNFA()
        var ids: [Int32] = []
        for _ in 0..<((cap + 1) * 9) { ids.append(nfa.newState()) }
        func state(_ c: Int, _ phase: Int) -> Int32 { ids[c * 9 + phase] }
        func count(_ c: Int) -> Int? {
            if c < cap { return c + 1 }
            return maximum == nil ? cap : nil
        }
        let accept = nfa.newState()
        for c in 0...cap {
            if c >= minimum { nfa.epsilon(state(c, 0), accept) }
            if let n = count(c) {
                for (lo, hi) in [(0x20, 0x21), (0x23, 0x5B), (0x5D, 0x7F)] as [(UInt8, UInt8)] { nfa.edge(state(c, 0), lo, hi, state(n, 0)) }
                nfa.edge(state(c, 1), 0x80, 0xBF, state(n, 0))
                for b in "\"\\/bfnrt".utf8 { nfa.edge(state(c, 4), b, state(n, 0)) }
                for (lo, hi) in [(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)] as [(UInt8, UInt8)] { nfa.edge(state(c, 8), lo, hi, state(n, 0)) }
            }
            nfa.edge(state(c, 0), 0xC2, 0xDF, state(c, 1))
            nfa.edge(state(c, 0), 0xE0, 0xEF, state(c, 2))
            nfa.edge(state(c, 0), 0xF0, 0xF4, state(c, 3))
            nfa.edge(state(c, 2), 0x80, 0xBF, state(c, 1))
            nfa.edge(state(c, 3), 0x80, 0xBF, state(c, 2))
            nfa.edge(state(c, 0), UInt8(ascii: "\\"), state(c, 4))
            nfa.edge(state(c, 4), UInt8(ascii: "u"), state(c, 5))
            for phase in 5...7 {
                for (lo, hi) in [(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)] as [(UInt8, UInt8)] { nfa.edge(state(c, phase), lo, hi, state(c, phase + 1)) }
            }
        }
        nfa.start = state(0, 0)
        nfa.accept = accept
        return nfa
    }

    /// Any bytes except exactly one of `values`: a trie of the values whose every missing edge
    /// leads to a state accepting anything.
    static func excluding(_ values: [[UInt8]]) -> ByteNFA {
        var nfa = ByteNFA()
        let root = nfa.newState()
        let free = nfa.newState()
        let accept = nfa.newState()
        nfa.edge(free, 0x00, 0xFF, free)
        nfa.epsilon(free, accept)
        var children: [Int32: [UInt8: Int32]] = [root: [:]]
        var terminal: Set<Int32> = []
        for value in values {
            var node = root
            for b in value {
                if let next = children[node]?[b] { node = next; continue }
                let next = nfa.newState()
                children[next] = [:]
                children[node, default: [:]][b] = next
                node = next
            }
            terminal.insert(node)
        }
        for (n, edges) in children {
            var lo = 0
            for b in edges.keys.sorted() {
                if Int(b) > lo { nfa.edge(n, UInt8(lo), b - 1, free) }
                if let child = edges[b] { nfa.edge(n, b, child) }
                lo = Int(b) + 1
            }
            if lo <= 0xFF { nfa.edge(n, UInt8(lo), 0xFF, free) }
            if !terminal.contains(n) { nfa.epsilon(n, accept) }
        }
        nfa.start = root
        nfa.accept = accept
        return nfa
    }
}
