// Whether a given JSON value satisfies a schema: used to keep only the `enum`/`const` values the
// other keywords allow and to check declared names against `propertyNames`. Cautious: a value
// only an alternative given up by subtraction would accept is refused.

extension SchemaReader {
    func admits(_ terms: [Term], _ v: JSONValue) throws(GrammarError) -> Bool {
        if terms.isEmpty { return true }
        for piece in try expand(try flatten(terms)) where try admits(piece, v) { return true }
        return false
    }

    func admits(_ f: Flat, _ v: JSONValue) throws(GrammarError) -> Bool {
        guard f.kinds.contains(Kinds.of(v)) else { return false }
        if let literals = f.literals, !literals.contains(where: { JSONEquality.equal($0, v) }) { return false }
        switch v {
        case let .number(t, _):
            guard let d = Double(t) else { return false }
            if let lo = f.minimum, d < lo.value || (lo.exclusive && d == lo.value) { return false }
            if let hi = f.maximum, d > hi.value || (hi.exclusive && d == hi.value) { return false }
            for m in f.multipleOf {
                let q = d / m.value
                if !q.isFinite || q.rounded() != q { return false }
            }
        case let .string(s, _):
            let n = s.unicodeScalars.count
            if n < f.minLength || n > (f.maxLength ?? .max) || f.excluded.contains(s) { return false }
            for p in f.patterns where try !matcher(p.pattern, path: p.path).matches(s) { return false }
            for p in f.forbiddenPatterns where try matcher(p.pattern, path: p.path).matches(s) { return false }
        case let .array(items, _):
            if items.count < f.minItems || items.count > (f.maxItems ?? .max) { return false }
            for (i, item) in items.enumerated() {
                var t: [Term] = []
                for clause in f.arrays {
                    if i < clause.prefix.count { t.append(.schema(clause.prefix[i])) } else if let rest = clause.rest { t.append(.schema(rest)) }
                }
                if try !admits(t, item) { return false }
            }
            for c in f.contains {
                var matching = 0
                for item in items where try admits([.schema(c.schema)], item) { matching += 1 }
                if matching < c.minimum { return false }
            }
            if f.uniqueItems {
                for i in items.indices { for j in items.indices where j > i && JSONEquality.equal(items[i], items[j]) { return false } }
            }
        case let .object(members, _):
            if members.count < f.minProperties || members.count > (f.maxProperties ?? .max) { return false }
            for name in f.required where !members.contains(where: { $0.key == name }) { return false }
            for m in members {
                if try !nameAllowed(f, m.key) { return false }
                if try !admits(try propertyTerms(f, m.key), m.value) { return false }
            }
        default:
            break
        }
        return true
    }

    /// The matcher of `pattern` (JSON Schema search semantics), compiled once.
    /// - Throws: `GrammarError.unsupportedKeyword` naming `keyword` at `path` when the pattern uses
    ///   a feature the automaton cannot enforce.
    func matcher(_ pattern: String, path: String, keyword: String = "pattern") throws(GrammarError) -> PatternMatcher {
        if let known = patternCache[pattern] { return known }
        do {
            let m = try PatternMatcher(pattern, options: options)
            patternCache[pattern] = m
            return m
        } catch {
            throw .unsupportedKeyword(path: path, keyword: keyword, reason: error.description)
        }
    }
}

/// A regular expression run on whole strings, with JSON Schema's search semantics, through the
/// same automaton the grammar uses for the pattern.
final class PatternMatcher {
    private let nfa: ByteNFA
    /// Whether "does not match" can be enforced: the complement's deterministic automaton stays
    /// within ``complementLimit`` states (`(a|b)*a(a|b){20}` needs 2^21).
    private(set) lazy var hasBoundedComplement: Bool = (try? nfa.complement(maxStates: Self.complementLimit)) != nil
    static let complementLimit = 10_000

    init(_ pattern: String, options: GrammarOptions) throws(GrammarError) {
        nfa = try GrammarCompiler(grammar: Grammar(root: .null), options: options).patternContent([pattern])
    }

    func matches(_ s: String) -> Bool {
        var current = closure([nfa.start])
        for b in JSONText.quoted(s).dropFirst().dropLast() {
            var next: [Int32] = []
            for state in current { for e in nfa.edges[Int(state)] where e.lo <= b && b <= e.hi { next.append(e.target) } }
            current = closure(next)
            if current.isEmpty { return false }
        }
        return current.contains(nfa.accept)
    }

    private func closure(_ seeds: [Int32]) -> Set<Int32> {
        var seen = Set(seeds)
        var stack = seeds
        while let s = stack.popLast() { for t in nfa.epsilon[Int(s)] where seen.insert(t).inserted { stack.append(t) } }
        return seen
    }
}
