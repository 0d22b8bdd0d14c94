// Which definitions stay shared: a reference compiles to a call of one shared procedure, a body
// written in place compiles to a copy. Copies are simpler to run; sharing keeps a schema whose
// large parts are used in many places (Renovate's options, reused in every manager) linear in
// size instead of multiplying.

extension Grammar {
    /// Estimated automaton states above which a definition used in more than one place stays a
    /// shared reference.
    package static let defaultCopyLimit = 128

    /// The same grammar with every reference written in place, except to definitions that are
    /// recursive (met again inside themselves) or used in more than one place with a body
    /// estimated above `copyLimit` automaton states; definitions no longer referenced are dropped.
    /// A reference to a missing definition is kept (compiling it throws `undefinedReference`).
    ///
    /// The language is unchanged. A definition written in place is counted where it is used, so
    /// "used in more than one place" counts the places in the result: the root and each kept
    /// definition once.
    package func inliningReferences(copyLimit: Int = Grammar.defaultCopyLimit) -> Grammar {
        var pass = ReferenceInlining(grammar: self, copyLimit: copyLimit)
        return pass.run()
    }
}

/// The passes of `Grammar.inliningReferences`: estimate each body (finding recursion as
/// depth-first back edges), count uses, then rebuild.
private struct ReferenceInlining {
    let grammar: Grammar
    let copyLimit: Int
    /// Estimated states of each definition's body, its kept references counting one.
    private var estimates: [String: Int] = [:]
    private var onStack: Set<String> = []
    private var recursive: Set<String> = []
    private var uses: [String: Int] = [:]
    private var resolved: [String: GrammarNode] = [:]
    private var kept: [String: GrammarNode] = [:]
    private var resolving: Set<String> = []

    /// Saturation bound of the estimates.
    static let cap = 1 << 40

    init(grammar: Grammar, copyLimit: Int) {
        self.grammar = grammar
        self.copyLimit = copyLimit
    }

    mutating func run() -> Grammar {
        _ = estimate(grammar.root)
        // Every cycle of references holds a back edge of the depth-first search, so keeping the
        // definitions those edges reach leaves no cycle to write in place.
        var seen: Set<String> = []
        var queue: [GrammarNode] = [grammar.root]
        while let node = queue.popLast() {
            Self.forEachReference(in: node) { name in
                uses[name, default: 0] += 1
                if let body = grammar.definitions[name], seen.insert(name).inserted { queue.append(body) }
            }
        }
        let root = resolve(grammar.root)
        return Grammar(root: root, definitions: kept)
    }

    private func keeps(_ name: String) -> Bool {
        recursive.contains(name) || ((uses[name] ?? 0) > 1 && (estimates[name] ?? 0) > copyLimit)
    }

    // MARK: Rebuilding

    private mutating func resolve(_ node: GrammarNode) -> GrammarNode {
        switch node {
        case let .reference(name):
            guard let body = grammar.definitions[name] else { return node }
            if keeps(name) {
                if kept[name] == nil, !resolving.contains(name) {
                    resolving.insert(name)
                    kept[name] = resolve(body)
                    resolving.remove(name)
                }
                return node
            }
            if let known = resolved[name] { return known }
            if resolving.contains(name) {
                // A cycle the search did not cut (every cycle has a back edge, so this does not
                // happen): keep the reference rather than write the body in itself.
                recursive.insert(name)
                return node
            }
            resolving.insert(name)
            let inlined = resolve(body)
            resolving.remove(name)
            if recursive.contains(name) {
                kept[name] = inlined
                return node
            }
            resolved[name] = inlined
            return inlined
        case var .object(o):
            o.fields = o.fields.map { GrammarField(name: $0.name, value: resolve($0.value), isOptional: $0.isOptional) }
            if let additional = o.additional { o.additional = AdditionalMembers(key: additional.key, value: resolve(additional.value)) }
            return .object(o)
        case var .array(a):
            a.prefix = a.prefix.map { resolve($0) }
            a.item = a.item.map { resolve($0) }
            return .array(a)
        case let .anyOf(choices):
            return .anyOf(choices.map { resolve($0) })
        case let .sequence(parts):
            return .sequence(parts.map { resolve($0) })
        case .string, .literals, .integer, .number, .boolean, .null, .anyValue:
            return node
        }
    }

    // MARK: Estimating

    /// Roughly the states `GrammarCompiler` builds for `node`, a kept reference counting one.
    private mutating func estimate(_ node: GrammarNode) -> Int {
        switch node {
        case let .reference(name):
            guard let body = grammar.definitions[name] else { return 1 }
            if onStack.contains(name) {
                recursive.insert(name)
                return 1
            }
            let e: Int
            if let known = estimates[name] { e = known } else {
                onStack.insert(name)
                e = estimate(body)
                onStack.remove(name)
                estimates[name] = e
            }
            return recursive.contains(name) ? 1 : e
        case let .object(o):
            var members = 2
            for f in o.fields { members = Self.add(members, Self.add(f.name.utf8.count + 4, estimate(f.value))) }
            if let additional = o.additional { members = Self.add(members, Self.add(40 + Self.string(additional.key), estimate(additional.value))) }
            // Counted members build each value once per count it can start from.
            if o.minCount > 0 || o.maxCount != nil { members = Self.multiply(members, min(o.maxCount ?? o.minCount, o.fields.count + 1) + 1) }
            return members
        case let .array(a):
            var total = 4
            for p in a.prefix { total = Self.add(total, Self.add(estimate(p), 3)) }
            if let item = a.item {
                let copies = max(1, (a.maxCount ?? max(a.minCount, a.prefix.count + 1)) - a.prefix.count)
                total = Self.add(total, Self.multiply(Self.add(estimate(item), 3), min(copies, 1 << 20)))
            }
            if a.distinct { total = Self.multiply(total, min(a.maxCount ?? 8, 1 << 10) + 1) }
            return total
        case let .string(s):
            return Self.string(s)
        case let .literals(texts):
            return texts.reduce(1) { Self.add($0, $1.utf8.count) }
        case let .integer(i):
            let base = i.minimum != nil || i.maximum != nil ? 150 : 40
            return Self.multiply(base, min(i.multipleOf ?? 1, 1 << 20))
        case let .number(n):
            return n.minimum != nil || n.maximum != nil ? 150 : 60
        case .boolean: return 10
        case .null: return 5
        case .anyValue: return 400
        case let .anyOf(choices), let .sequence(choices):
            return choices.reduce(1) { Self.add($0, estimate($1)) }
        }
    }

    private static func string(_ s: StringGrammar) -> Int {
        if s.isFree { return 16 }
        var content = 16
        for alternatives in s.patterns { for p in alternatives { content = add(content, multiply(p.utf8.count, 4)) } }
        for e in s.excluded { content = add(content, e.utf8.count) }
        // Lengths are a counter intersected with the content: a copy of it per counted character.
        return multiply(content, (s.maxLength ?? s.minLength) + 1)
    }

    private static func add(_ a: Int, _ b: Int) -> Int { min(cap, a + b) }
    private static func multiply(_ a: Int, _ b: Int) -> Int { min(cap, a.multipliedReportingOverflow(by: b).overflow ? cap : a * b) }

    /// Calls `body` with the name of every reference in `node`, not entering definitions.
    static func forEachReference(in node: GrammarNode, _ body: (String) -> Void) {
        switch node {
        case let .reference(name): body(name)
        case let .object(o):
            for f in o.fields { forEachReference(in: f.value, body) }
            if let additional = o.additional { forEachReference(in: additional.value, body) }
        case let .array(a):
            for p in a.prefix { forEachReference(in: p, body) }
            if let item = a.item { forEachReference(in: item, body) }
        case let .anyOf(choices), let .sequence(choices):
            for c in choices { forEachReference(in: c, body) }
        case .string, .literals, .integer, .number, .boolean, .null, .anyValue:
            break
        }
    }
}
