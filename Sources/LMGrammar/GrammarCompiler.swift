/// Builds the byte automaton of a grammar: each construct is added from an entry state and
/// returns its exit state. Entry states are never targets of a construct's own loops, so
/// constructs compose by sharing states.
struct GrammarCompiler {
    var nfa = ByteNFA()
    let grammar: Grammar
    let options: GrammarOptions
    /// How many times each definition is being expanded on the current path.
    var expanding: [String: Int] = [:]

    init(grammar: Grammar, options: GrammarOptions) {
        self.grammar = grammar
        self.options = options
    }

    static func compile(_ grammar: Grammar, options: GrammarOptions) throws(GrammarError) -> ByteNFA {
        var compiler = GrammarCompiler(grammar: grammar, options: options)
        let start = compiler.nfa.newState()
        let end = try compiler.value(grammar.root, from: start)
        compiler.nfa.start = start
        compiler.nfa.accept = end
        return compiler.nfa
    }

    func checkSize() throws(GrammarError) {
        if nfa.count > options.maxStates { throw .tooLarge(states: options.maxStates) }
    }

    mutating func value(_ node: GrammarNode, from s: Int32) throws(GrammarError) -> Int32 {
        try checkSize()
        switch node {
        case let .object(fields): return try object(fields, from: s)
        case let .array(item, lo, hi): return try array(item, minCount: lo, maxCount: hi, from: s)
        case let .string(pattern): return try string(pattern: pattern, from: s)
        case let .choices(values): return try choices(values, from: s)
        case let .integer(lo, hi): return try integer(minimum: lo, maximum: hi, from: s)
        case let .number(lo, hi): return try number(minimum: lo, maximum: hi, from: s)
        case .boolean:
            let end = nfa.newState()
            nfa.epsilon(nfa.literal("true".utf8, from: s), end)
            nfa.epsilon(nfa.literal("false".utf8, from: s), end)
            return end
        case .null:
            return nfa.literal("null".utf8, from: s)
        case let .anyOf(choices):
            let end = nfa.newState()
            for choice in choices { nfa.epsilon(try value(choice, from: s), end) }
            return end
        case let .reference(name):
            guard let definition = grammar.definitions[name] else { throw .undefinedReference(name) }
            let depth = expanding[name, default: 0]
            // Past the recursion limit the reference matches nothing; pruning removes the paths
            // that needed it, so optional parts and empty arrays still close the value.
            guard depth <= options.maxRecursionDepth else { return nfa.newState() }
            expanding[name] = depth + 1
            defer { expanding[name] = depth }
            return try value(definition, from: s)
        case .anyValue:
            return try anyValue(depth: options.maxAnyValueDepth, from: s)
        }
    }

    /// 0...maxSpaces spaces.
    mutating func spaces(from s: Int32) -> Int32 {
        guard options.maxSpaces > 0 else { return s }
        let end = nfa.newState()
        nfa.epsilon(s, end)
        var cur = s
        for _ in 0..<options.maxSpaces {
            let t = nfa.newState()
            nfa.edge(cur, 0x20, t)
            nfa.epsilon(t, end)
            cur = t
        }
        return end
    }

    /// `,` then optional spaces.
    mutating func comma(from s: Int32) -> Int32 {
        let t = nfa.newState()
        nfa.edge(s, UInt8(ascii: ","), t)
        return spaces(from: t)
    }

    mutating func object(_ fields: [GrammarField], from s: Int32) throws(GrammarError) -> Int32 {
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "{"), open)
        // emptyPath: nothing written yet (no comma needed); written: at least one field written.
        var emptyPath: Int32? = open
        var written: Int32? = nil
        for field in fields {
            let key = nfa.newState()
            if let e = emptyPath { nfa.epsilon(e, key) }
            if let w = written { nfa.epsilon(comma(from: w), key) }
            var after = nfa.literal(JSONText.quoted(field.name), from: key)
            after = nfa.literal([UInt8(ascii: ":")], from: after)
            after = spaces(from: after)
            let valueEnd = try value(field.value, from: after)
            if field.isOptional {
                let merged = nfa.newState()
                nfa.epsilon(valueEnd, merged)
                if let w = written { nfa.epsilon(w, merged) }
                written = merged
            } else {
                emptyPath = nil
                written = valueEnd
            }
        }
        let close = nfa.newState()
        if let e = emptyPath { nfa.epsilon(e, close) }
        if let w = written { nfa.epsilon(w, close) }
        let end = nfa.newState()
        nfa.edge(close, UInt8(ascii: "}"), end)
        return end
    }

    mutating func array(_ item: GrammarNode, minCount: Int, maxCount: Int?, from s: Int32) throws(GrammarError) -> Int32 {
        let lo = max(0, minCount)
        if let hi = maxCount, hi < lo { throw .emptyLanguage("array count \(lo)...\(hi)") }
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "["), open)
        let close = nfa.newState()
        if lo == 0 { nfa.epsilon(open, close) }
        // One item instance per position up to the bound; an unbounded tail loops on the last.
        let instances = maxCount ?? max(lo, 1)
        var previousEnd: Int32? = nil
        for i in 1...max(instances, 1) where instances > 0 {
            let itemStart = nfa.newState()
            if let p = previousEnd { nfa.epsilon(comma(from: p), itemStart) } else { nfa.epsilon(open, itemStart) }
            let itemEnd = try value(item, from: itemStart)
            if i >= lo { nfa.epsilon(itemEnd, close) }
            if maxCount == nil, i == instances { nfa.epsilon(comma(from: itemEnd), itemStart) }
            previousEnd = itemEnd
            try checkSize()
        }
        let end = nfa.newState()
        nfa.edge(close, UInt8(ascii: "]"), end)
        return end
    }

    mutating func choices(_ values: [String], from s: Int32) throws(GrammarError) -> Int32 {
        guard !values.isEmpty else { throw .emptyLanguage("enum with no values") }
        let end = nfa.newState()
        for v in values { nfa.epsilon(nfa.literal(JSONText.quoted(v), from: s), end) }
        return end
    }

    mutating func string(pattern: String?, from s: Int32) throws(GrammarError) -> Int32 {
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "\""), open)
        let contentEnd: Int32
        if let pattern {
            contentEnd = try RegexCompiler.compile(pattern, into: &nfa, from: open)
        } else {
            contentEnd = freeStringContent(from: open)
        }
        let end = nfa.newState()
        nfa.edge(contentEnd, UInt8(ascii: "\""), end)
        return end
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

    /// Any JSON value, objects and arrays nested at most `depth` deep.
    mutating func anyValue(depth: Int, from s: Int32) throws(GrammarError) -> Int32 {
        try checkSize()
        let end = nfa.newState()
        nfa.epsilon(try string(pattern: nil, from: s), end)
        nfa.epsilon(try number(minimum: nil, maximum: nil, from: s), end)
        for word in ["true", "false", "null"] { nfa.epsilon(nfa.literal(word.utf8, from: s), end) }
        guard depth > 0 else { return end }
        // Object with free keys.
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "{"), open)
        let close = nfa.newState()
        nfa.epsilon(open, close)
        let key = nfa.newState()
        nfa.epsilon(open, key)
        var after = try string(pattern: nil, from: key)
        after = spaces(from: nfa.literal([UInt8(ascii: ":")], from: after))
        let memberEnd = try anyValue(depth: depth - 1, from: after)
        nfa.epsilon(memberEnd, close)
        nfa.epsilon(comma(from: memberEnd), key)
        nfa.epsilon(nfa.literal([UInt8(ascii: "}")], from: close), end)
        // Array.
        nfa.epsilon(try anyArray(depth: depth - 1, from: s), end)
        return end
    }

    /// An unbounded array of any values nested at most `depth` deep.
    mutating func anyArray(depth: Int, from s: Int32) throws(GrammarError) -> Int32 {
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "["), open)
        let close = nfa.newState()
        nfa.epsilon(open, close)
        let itemStart = nfa.newState()
        nfa.epsilon(open, itemStart)
        let itemEnd = try anyValue(depth: depth, from: itemStart)
        nfa.epsilon(itemEnd, close)
        nfa.epsilon(comma(from: itemEnd), itemStart)
        return nfa.literal([UInt8(ascii: "]")], from: close)
    }
}

/// JSON text helpers.
enum JSONText {
    /// `s` as a JSON string literal with quotes, escaping as RFC 8259 requires (and no more).
    static func quoted(_ s: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for scalar in s.unicodeScalars { out += escaped(scalar) }
        out.append(UInt8(ascii: "\""))
        return out
    }

    /// The canonical JSON-string encoding of one character.
    static func escaped(_ scalar: Unicode.Scalar) -> [UInt8] {
        switch scalar {
        case "\"": return Array("\\\"".utf8)
        case "\\": return Array("\\\\".utf8)
        case "\n": return Array("\\n".utf8)
        case "\r": return Array("\\r".utf8)
        case "\t": return Array("\\t".utf8)
        case "\u{08}": return Array("\\b".utf8)
        case "\u{0C}": return Array("\\f".utf8)
        case _ where scalar.value < 0x20:
            let hex = Array("0123456789abcdef".utf8)
            return Array("\\u00".utf8) + [hex[Int(scalar.value >> 4)], hex[Int(scalar.value & 15)]]
        default: return Array(String(Character(scalar)).utf8)
        }
    }
}
