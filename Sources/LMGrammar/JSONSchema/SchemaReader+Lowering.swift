// One alternative (a `Flat` with no alternatives left) to grammar nodes, one per kind of value.

extension SchemaReader {
    func lower(_ f: Flat) throws(GrammarError) -> GrammarNode {
        var kinds = Self.effectiveKinds(f)
        if let literals = f.literals {
            var texts: [String] = []
            // Each value is one of the literals by construction: checking membership again made a
            // long enum quadratic (40,000 values took 12 s).
            var others = f
            others.literals = nil
            for v in literals where kinds.contains(Kinds.of(v)) {
                if try admits(others, v) { texts.append(v.compactText) }
            }
            guard !texts.isEmpty else { throw unsatisfiable(f.path, "no value of enum/const satisfies the other keywords") }
            return .literals(texts)
        }
        // Without `type`, generate the kinds the keywords talk about (values of other kinds would
        // also be valid); with no such keyword, any value.
        if !f.typed {
            if f.constrainedKinds.isEmpty, kinds == .all, f.excluded.isEmpty { return .anyValue }
            if !f.constrainedKinds.intersection(kinds).isEmpty { kinds.formIntersection(f.constrainedKinds) }
        }
        var nodes: [GrammarNode] = []
        var firstEmpty: GrammarError?
        func attempt(_ build: () throws(GrammarError) -> GrammarNode) throws(GrammarError) {
            do { nodes.append(try build()) } catch {
                guard case .emptyLanguage = error else { throw error }
                firstEmpty = firstEmpty ?? error
            }
        }
        if kinds.contains(.null) { nodes.append(.null) }
        if kinds.isSuperset(of: .boolean) { nodes.append(.boolean) }
        else if kinds.contains(.trueValue) { nodes.append(.literals(["true"])) }
        else if kinds.contains(.falseValue) { nodes.append(.literals(["false"])) }
        if !kinds.intersection(.number).isEmpty { try attempt { () throws(GrammarError) in try number(f, kinds) } }
        if kinds.contains(.string) { try attempt { () throws(GrammarError) in try string(f) } }
        if kinds.contains(.array) { try attempt { () throws(GrammarError) in try array(f) } }
        if kinds.contains(.object) { try attempt { () throws(GrammarError) in try object(f) } }
        guard !nodes.isEmpty else { throw firstEmpty ?? unsatisfiable(f.path, "the keywords allow no value (type, enum, const...)") }
        return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
    }

    private func number(_ f: Flat, _ kinds: Kinds) throws(GrammarError) -> GrammarNode {
        var integerOnly = !kinds.contains(.fraction)
        var divisor: Int? = nil
        for m in f.multipleOf {
            guard m.value.rounded() == m.value, m.value <= 100_000 else {
                throw .unsupportedKeyword(path: m.path, keyword: "multipleOf", reason: "only an integer multipleOf up to 100000 is enforced (\(m.value))")
            }
            let k = Int(m.value)
            divisor = divisor.map { Self.lcm($0, k) } ?? k
            integerOnly = true
        }
        if let d = divisor, d > 100_000 { throw .unsupportedKeyword(path: f.path, keyword: "multipleOf", reason: "combined multipleOf \(d) above 100000") }
        if integerOnly {
            guard kinds.contains(.integer) else { throw unsatisfiable(f.path, "a multiple of an integer that is not an integer") }
            let lo = try f.minimum.map { b throws(GrammarError) in try Self.integerBound(b, up: true, path: f.path) }
            let hi = try f.maximum.map { b throws(GrammarError) in try Self.integerBound(b, up: false, path: f.path) }
            if let lo, let hi, lo > hi { throw unsatisfiable(f.path, "no integer in the bounds") }
            return .integer(IntegerGrammar(minimum: lo, maximum: hi, multipleOf: divisor))
        }
        if let lo = f.minimum, let hi = f.maximum, lo.value > hi.value || (lo.value == hi.value && (lo.exclusive || hi.exclusive)) {
            throw unsatisfiable(f.path, "no number in the bounds")
        }
        return .number(NumberGrammar(minimum: f.minimum?.value, maximum: f.maximum?.value, exclusiveMinimum: f.minimum?.exclusive ?? false,
                                     exclusiveMaximum: f.maximum?.exclusive ?? false, nonInteger: !kinds.contains(.integer)))
    }

    /// The nearest integer inside a bound, clamped to the integers a Double holds exactly
    /// (±(2^53 - 1)), which is how a generated value is read.
    /// - Throws: `unsupportedKeyword` (naming the bound's keyword and pointer) for a lower bound at or
    ///   above 2^53, or an upper bound at or below -2^53: no integer the grammar writes is inside it.
    static func integerBound(_ b: NumberBound, up: Bool, path: String) throws(GrammarError) -> Int {
        guard !b.value.isNaN else { throw .invalidSchema(path: b.path, reason: "a bound is not a number") }
        var r = up ? b.value.rounded(.up) : b.value.rounded(.down)
        if b.exclusive, r == b.value { r += up ? 1 : -1 }
        let limit = Double(GrammarCompiler.exactIntegerLimit)
        if up ? r > limit : r < -limit {
            throw .unsupportedKeyword(path: b.path, keyword: b.keyword,
                                      reason: "the bound is beyond ±\(GrammarCompiler.exactIntegerLimit) (2^53 - 1), the largest integers a Double holds exactly, and generated values are read as Doubles")
        }
        return Int(max(-limit, min(limit, r)))
    }

    /// Refuses a `minLength` above `GrammarOptions.maxStringLength`, the longest string the grammar
    /// spells (one counter state per character): checked before any automaton is built, so a
    /// schema such as `minLength: 1000000` is refused at once instead of after a gigabyte.
    func checkSpelt(minLength: Int, path: String) throws(GrammarError) {
        guard minLength > options.maxStringLength else { return }
        throw .unsupportedKeyword(path: path, keyword: "minLength",
                                  reason: "\(minLength) characters is above the longest string the grammar spells (\(options.maxStringLength), GrammarOptions.maxStringLength)")
    }

    static func lcm(_ a: Int, _ b: Int) -> Int {
        var x = a, y = b
        while y != 0 { (x, y) = (y, x % y) }
        let g = max(x, 1)
        let (p, overflow) = (a / g).multipliedReportingOverflow(by: b)
        return overflow ? Int.max : p
    }

    private func string(_ f: Flat) throws(GrammarError) -> GrammarNode {
        if let hi = f.maxLength, hi < f.minLength { throw unsatisfiable(f.path, "minLength \(f.minLength) > maxLength \(hi)") }
        try checkSpelt(minLength: f.minLength, path: f.minLengthPath)
        for p in f.patterns + f.forbiddenPatterns { _ = try matcher(p.pattern, path: p.path) }
        return .string(StringGrammar(patterns: f.patterns.map { [$0.pattern] }, minLength: f.minLength,
                                     maxLength: f.maxLength.map { min($0, options.maxStringLength) }, excluded: f.excluded,
                                     forbidden: f.forbiddenPatterns.map(\.pattern)))
    }

    private func array(_ f: Flat) throws(GrammarError) -> GrammarNode {
        var lo = f.minItems
        var hi = f.maxItems
        let prefixCount = f.arrays.map(\.prefix.count).max() ?? 0
        var positions = prefixCount
        for c in f.contains { lo = max(lo, c.minimum); positions = max(positions, c.minimum) }
        func terms(at i: Int) -> [Term] {
            var t: [Term] = []
            for clause in f.arrays {
                if i < clause.prefix.count { t.append(.schema(clause.prefix[i])) } else if let rest = clause.rest { t.append(.schema(rest)) }
            }
            for c in f.contains where i < c.minimum { t.append(.schema(c.schema)) }
            return t
        }
        var prefix: [GrammarNode] = []
        for i in 0..<positions {
            if let hi, i >= hi { break }
            do { prefix.append(try node(terms(at: i))) } catch {
                guard case .emptyLanguage = error else { throw error }
                hi = i
                break
            }
        }
        var item: GrammarNode? = nil
        if hi.map({ $0 > prefix.count }) ?? true {
            do { item = try node(terms(at: positions)) } catch {
                guard case .emptyLanguage = error else { throw error }
                hi = prefix.count
            }
        }
        if let h = hi, h < lo { throw unsatisfiable(f.path, "array length \(lo)...\(h)") }
        if f.uniqueItems, hi.map({ $0 > 1 }) ?? true {
            if prefix.isEmpty, let values = item.flatMap(finiteValues) {
                return .array(ArrayGrammar(item: .literals(values), minCount: lo, maxCount: hi, distinct: true))
            }
            // Distinct free values cannot be checked by a token mask: at most one item.
            guard lo <= 1 else {
                throw .unsupportedKeyword(path: f.uniquePath, keyword: "uniqueItems",
                                          reason: "\(lo) distinct items of a kind that is not a finite list of values")
            }
            hi = min(hi ?? 1, 1)
            if prefix.count > 1 { prefix = Array(prefix.prefix(1)) }
        }
        // Every position up to the bound is spelt out (a few states each, the item a call when large):
        // refused here with its keyword rather than as an automaton over the state budget.
        let spelt = item == nil ? 0 : max(lo, hi ?? 0)
        if spelt > options.maxStates / 5 {
            let (keyword, path) = (hi ?? 0) >= lo ? ("maxItems", f.maxItemsPath) : ("minItems", f.minItemsPath)
            throw .unsupportedKeyword(path: path, keyword: keyword, reason:
                "\(spelt) array positions are each spelt out in the automaton, above the \(options.maxStates / 5) that fit GrammarOptions.maxStates (\(options.maxStates))")
        }
        return .array(ArrayGrammar(prefix: prefix, item: item, minCount: lo, maxCount: hi))
    }

    /// The JSON texts of a node that is a finite list of values (an enum, a boolean, null).
    func finiteValues(_ node: GrammarNode) -> [String]? {
        switch node {
        case let .literals(texts): return texts
        case .boolean: return ["true", "false"]
        case .null: return ["null"]
        case let .reference(name): return definitions[name].flatMap(finiteValues)
        case let .anyOf(choices):
            var out: [String] = []
            for c in choices {
                guard let v = finiteValues(c) else { return nil }
                for t in v where !out.contains(t) { out.append(t) }
            }
            return out
        default: return nil
        }
    }
}
