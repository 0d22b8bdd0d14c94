/// Reads a JSON Schema document into a `Grammar`.
///
/// A schema is a conjunction of subschemas (`$ref` targets and `allOf` entries join the schema
/// that names them); each conjunction is flattened into constraints per kind of value (`Flat`),
/// its alternatives expanded into alternatives free of `anyOf`/`oneOf`/`if`/`not` (keeping
/// `oneOf` exclusive and `not` false by subtraction), and each of those lowered to grammar nodes.
/// Children are lowered on demand, once per set of subschemas they are made of (a subschema that
/// is only a `$ref` counts as its target): each becomes a named definition, referenced wherever
/// it is used, and `Grammar.inliningReferences` writes in place the ones that are neither
/// recursive nor large and used in several places.
final class SchemaReader {
    let document: SchemaDocument
    let options: GrammarOptions
    /// Every conjunction lowered so far, by key; `.anyOf([])` for those no value satisfies.
    private(set) var definitions: [String: GrammarNode] = [:]
    private var empty: [String: GrammarError] = [:]
    private var active: Set<String> = []
    private var referenceTargets: [String: Located] = [:]
    /// The JSON pointer each definition was read from, for errors about it.
    private var definitionPaths: [String: String] = [:]
    var patternCache: [String: PatternMatcher] = [:]
    /// How deep ``expand(_:)`` is now (alternatives inlined into alternatives).
    var expansionDepth = 0

    /// Most alternatives one schema may expand to. Azure Pipelines' `step` (an `anyOf` of 259 task objects and 12
    /// other step forms) needs more than 256; each combination is one object's automaton, so the state budget
    /// still bounds what is built.
    static let maxAlternatives = 4096
    /// Deepest nesting of alternatives inlined into each other: deeper only when a branch leads back to its own
    /// schema with no object or array between (`{"anyOf": [{"$ref": "#"}]}`), which has no finite expansion.
    static let maxExpansionDepth = 64

    init(document: SchemaDocument, options: GrammarOptions = GrammarOptions()) {
        self.document = document
        self.options = options
    }

    /// The grammar of the whole document.
    /// - Throws: `GrammarError.emptyLanguage` naming the schemas whose every value would contain itself without
    ///   end, when the document has no finite value for that reason.
    func grammar() throws(GrammarError) -> Grammar {
        let root = try node([.schema(Located(json: document.root, path: ""))])
        let grammar = Grammar(root: root, definitions: definitions)
        let infinite = grammar.definitionsWithoutFiniteValue()
        if !root.hasFiniteValue(given: Set(definitions.keys).subtracting(infinite)) {
            let paths = Set(infinite.compactMap { definitionPaths[$0] }).sorted()
            let named = paths.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ") + (paths.count > 3 ? ", ..." : "")
            throw .emptyLanguage("schema at \"\(paths.first ?? "")\": no value is finite: each contains itself without end "
                + "(a $ref cycle through required properties or minimum counts; schemas in the cycle: \(named))")
        }
        return grammar.inliningReferences()
    }

    /// The grammar node of a conjunction of terms (none: any value): a reference to its definition.
    /// - Throws: `GrammarError.emptyLanguage` when no value satisfies it, or what reading it throws.
    func node(_ terms: [Term]) throws(GrammarError) -> GrammarNode {
        if terms.isEmpty { return .anyValue }
        let terms = try canonical(terms)
        let key = Term.key(terms)
        if let failure = empty[key] { throw failure }
        // Met again while it is being lowered: recursion.
        if definitions[key] != nil || active.contains(key) { return .reference(key) }
        active.insert(key)
        defer { active.remove(key) }
        do {
            definitionPaths[key] = Self.path(of: terms)
            definitions[key] = try lower(try expand(try flatten(terms)), path: Self.path(of: terms))
        } catch {
            if case .emptyLanguage = error {
                empty[key] = error
                // References made while it was being lowered match nothing.
                definitions[key] = .anyOf([])
            }
            throw error
        }
        return .reference(key)
    }

    /// `terms` with each subschema that is only a `$ref` replaced by its target (so that every
    /// use of a definition has one key) and repeated terms dropped.
    func canonical(_ terms: [Term]) throws(GrammarError) -> [Term] {
        var out: [Term] = []
        var keys: Set<String> = []
        for term in terms {
            var t = term
            if case let .schema(l) = term { t = .schema(try referenced(l)) }
            if keys.insert(t.key).inserted { out.append(t) }
        }
        return out
    }

    /// The schema `l` stands for: the end of its chain of `$ref`-only schemas (itself when it is
    /// not one), cached by path.
    private func referenced(_ l: Located) throws(GrammarError) -> Located {
        if let known = referenceTargets[l.path] { return known }
        var target = l
        var visited: Set<String> = [l.path]
        var chain = [l.path]
        while let next = try pureReference(target) {
            // A chain of `$ref`-only schemas that comes back constrains nothing and means nothing.
            guard visited.insert(next.path).inserted else {
                let cycle = (chain + [next.path]).map { "#" + $0 }.joined(separator: " -> ")
                throw .invalidSchema(path: l.path, reason: "the $ref chain \(cycle) is a cycle with no keyword that constrains the value")
            }
            chain.append(next.path)
            target = next
        }
        referenceTargets[l.path] = target
        return target
    }

    static func path(of terms: [Term]) -> String {
        for t in terms { if case let .schema(l) = t { return l.path } }
        return ""
    }

    /// The target of a schema that is only a `$ref` (and annotations).
    func pureReference(_ l: Located) throws(GrammarError) -> Located? {
        guard case let .object(members, _) = l.json, case let .string(ref, _)? = l.json["$ref"] else { return nil }
        for m in members where m.key != "$ref" && !Self.annotations.contains(m.key) { return nil }
        return try document.resolve(ref, at: l.path)
    }

    /// Keywords that never constrain a value.
    static let annotations: Set<String> = ["title", "description", "default", "examples", "$comment", "$schema", "$id",
                                           "$anchor", "deprecated", "readOnly", "writeOnly", "$defs", "definitions",
                                           "format", "contentMediaType", "contentEncoding", "contentSchema", "nullable",
                                           "x-order"]

    /// A throw for a schema no value satisfies.
    func unsatisfiable(_ path: String, _ reason: String) -> GrammarError {
        .emptyLanguage("schema at \"\(path)\": \(reason)")
    }

    /// The alternatives of a conjunction lowered, those no value satisfies left out.
    func lower(_ pieces: [Flat], path: String) throws(GrammarError) -> GrammarNode {
        var nodes: [GrammarNode] = []
        var firstEmpty: GrammarError?
        for piece in pieces {
            do {
                nodes.append(try lower(piece))
            } catch {
                guard case .emptyLanguage = error else { throw error }
                firstEmpty = firstEmpty ?? error
            }
        }
        if nodes.isEmpty { throw firstEmpty ?? unsatisfiable(path, "no value satisfies this schema") }
        return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
    }
}
