/// Builds the byte automaton of a grammar: each construct is added from an entry state and
/// returns its exit state. Entry states are never targets of a construct's own loops, so
/// constructs compose by sharing states.
///
/// A reference is a call: each definition is compiled once, as a procedure, however many places
/// use it and however deep it recurses (the recursion bound is kept at run time, by
/// `CallContexts`). Definitions with equal bodies share one procedure.
struct GrammarCompiler {
    var nfa = ByteNFA()
    let grammar: Grammar
    let options: GrammarOptions
    /// The procedure of each definition named so far.
    private var procedureOfName: [String: Int32] = [:]
    /// The procedure of each definition body compiled (or queued) so far.
    private var procedureOfBody: [GrammarNode: Int32] = [:]
    /// Procedures whose bodies are still to compile.
    private var pending: [(procedure: Int32, body: GrammarNode)] = []
    /// Nodes that took more than `Grammar.defaultCopyLimit` states when written in place.
    private var largeNodes: Set<GrammarNode> = []
    /// The procedure of any value nested at most `depth` deep, by depth.
    private var anyValueProcedures: [Int: Int32] = [:]

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
        // Bodies queue the definitions they use; each is compiled once.
        while let (procedure, body) = compiler.pending.popLast() {
            let entry = compiler.nfa.procedures[Int(procedure)].start
            // In place: through `value` a body also called from elsewhere would call itself.
            compiler.nfa.procedures[Int(procedure)].end = try compiler.written(body, from: entry)
        }
        return compiler.nfa
    }

    /// The procedure of definition `name`, queued for compiling on first use.
    private mutating func procedure(_ name: String) throws(GrammarError) -> Int32 {
        if let known = procedureOfName[name] { return known }
        guard let body = grammar.definitions[name] else { throw .undefinedReference(name) }
        let id = procedure(of: body)
        procedureOfName[name] = id
        return id
    }

    /// The procedure of `body`, shared by every definition or node equal to it, queued on first use.
    private mutating func procedure(of body: GrammarNode) -> Int32 {
        if let same = procedureOfBody[body] { return same }
        let id = newProcedure()
        procedureOfBody[body] = id
        pending.append((id, body))
        return id
    }

    /// A procedure with a fresh start state and no end yet.
    private mutating func newProcedure() -> Int32 {
        nfa.procedures.append(ByteNFA.Procedure(start: nfa.newState(), end: -1))
        return Int32(nfa.procedures.count - 1)
    }

    /// `node` compiled once as a procedure (shared with an equal definition body) and called from `s`.
    mutating func called(_ node: GrammarNode, from s: Int32) -> Int32 {
        let end = nfa.newState()
        nfa.call(s, procedure(of: node), returnTo: end)
        return end
    }

    func checkSize() throws(GrammarError) {
        if nfa.count > options.maxStates { throw .tooLarge(states: options.maxStates) }
    }

    /// The automaton of `node` from `s`; returns its exit state.
    ///
    /// A large node met a second time is called rather than copied: compiled once as a procedure,
    /// like a definition. Array positions up to `maxItems`, member counts, `oneOf` branches and the
    /// same string constraints across a schema otherwise copy their states at every place (GitLab
    /// CI's 200 `parallel:matrix` positions, mergify's 50 rules); small nodes stay in place.
    mutating func value(_ node: GrammarNode, from s: Int32) throws(GrammarError) -> Int32 {
        try checkSize()
        switch node {
        case .reference, .anyValue, .boolean, .null:
            return try written(node, from: s)
        default:
            if largeNodes.contains(node) { return called(node, from: s) }
            let before = nfa.count
            let end = try written(node, from: s)
            if nfa.count - before > Grammar.defaultCopyLimit { largeNodes.insert(node) }
            return end
        }
    }

    /// `node` written in place (its parts through ``value(_:from:)``).
    private mutating func written(_ node: GrammarNode, from s: Int32) throws(GrammarError) -> Int32 {
        switch node {
        case let .object(object): return try self.object(object, from: s)
        case let .array(array): return try self.array(array, from: s)
        case let .string(string): return try self.string(string, from: s)
        case let .literals(texts): return try literals(texts, from: s)
        case let .integer(integer): return try self.integer(integer, from: s)
        case let .number(number): return try self.number(number, from: s)
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
            let end = nfa.newState()
            nfa.call(s, try procedure(name), returnTo: end)
            return end
        case .anyValue:
            return try anyValue(depth: options.maxAnyValueDepth, from: s)
        case let .sequence(parts):
            // Each part starts at a fresh state, which no loop of the part before reaches.
            var at = s
            for part in parts {
                let next = nfa.newState()
                nfa.epsilon(at, next)
                at = try value(part, from: next)
            }
            return at
        }
    }

    /// A scratch compiler sharing this one's grammar and options, for fragments that are
    /// intersected before they join the automaton.
    func scratch() -> GrammarCompiler {
        GrammarCompiler(grammar: grammar, options: options)
    }

    /// Exactly one of `texts` (each a JSON text written as given).
    mutating func literals(_ texts: [String], from s: Int32) throws(GrammarError) -> Int32 {
        guard !texts.isEmpty else { throw .emptyLanguage("enum with no values") }
        // A state per byte: counted before building, so a 1,000,000-value enum is refused at once.
        var bytes = 0
        for t in texts { bytes += t.utf8.count }
        if bytes > options.maxStates - nfa.count { throw .tooLarge(states: options.maxStates) }
        let end = nfa.newState()
        for t in texts { nfa.epsilon(nfa.literal(t.utf8, from: s), end) }
        return end
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

    /// Any JSON value, objects and arrays nested at most `depth` deep: a call of one procedure per
    /// depth, since written in place each level holds two copies of the level below (object members,
    /// array items), 2^depth copies in all at every `{}` of a schema (snapcraft's has dozens).
    mutating func anyValue(depth: Int, from s: Int32) throws(GrammarError) -> Int32 {
        let id: Int32
        if let known = anyValueProcedures[depth] {
            id = known
        } else {
            id = newProcedure()
            anyValueProcedures[depth] = id
            nfa.procedures[Int(id)].end = try anyValueBody(depth: depth, from: nfa.procedures[Int(id)].start)
        }
        let end = nfa.newState()
        nfa.call(s, id, returnTo: end)
        return end
    }

    /// The body of ``anyValue(depth:from:)``.
    private mutating func anyValueBody(depth: Int, from s: Int32) throws(GrammarError) -> Int32 {
        let end = nfa.newState()
        nfa.epsilon(try string(StringGrammar(), from: s), end)
        nfa.epsilon(unboundedNumber(from: s), end)
        for word in ["true", "false", "null"] { nfa.epsilon(nfa.literal(word.utf8, from: s), end) }
        guard depth > 0 else { return end }
        // Object with free keys.
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "{"), open)
        let close = nfa.newState()
        nfa.epsilon(open, close)
        let key = nfa.newState()
        nfa.epsilon(open, key)
        var after = try string(StringGrammar(), from: key)
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
