/// Reads a JSON Schema document into a `Grammar`.
///
/// A schema is a conjunction of subschemas (`$ref` targets and `allOf` entries join the schema
/// that names them); each conjunction is flattened into constraints per kind of value (`Flat`),
/// its alternatives expanded into alternatives free of `anyOf`/`oneOf`/`if`/`not` (keeping
/// `oneOf` exclusive and `not` false by subtraction), and each of those lowered to grammar nodes.
/// Children are lowered on demand and memoized by the set of subschemas they are made of; one met
/// again while it is being lowered (recursion) becomes a named definition.
final class SchemaReader {
    let document: SchemaDocument
    let options: GrammarOptions
    private(set) var definitions: [String: GrammarNode] = [:]
    private var lowered: [String: GrammarNode] = [:]
    private var empty: [String: GrammarError] = [:]
    private var active: Set<String> = []
    private var recursive: Set<String> = []
    var patternCache: [String: PatternMatcher] = [:]

    /// Most alternatives one schema may expand to.
    static let maxAlternatives = 256

    init(document: SchemaDocument, options: GrammarOptions = GrammarOptions()) {
        self.document = document
        self.options = options
    }

    /// The grammar of the whole document.
    func grammar() throws(GrammarError) -> Grammar {
        let root = try node([.schema(Located(json: document.root, path: ""))])
        return Grammar(root: root, definitions: definitions)
    }

    /// The grammar node of a conjunction of terms (none: any value).
    /// - Throws: `GrammarError.emptyLanguage` when no value satisfies it, or what reading it throws.
    func node(_ terms: [Term]) throws(GrammarError) -> GrammarNode {
        if terms.isEmpty { return .anyValue }
        let key = Term.key(terms)
        if definitions[key] != nil { return .reference(key) }
        if let known = lowered[key] { return known }
        if let failure = empty[key] { throw failure }
        if active.contains(key) {
            recursive.insert(key)
            return .reference(key)
        }
        active.insert(key)
        defer { active.remove(key) }
        let result: GrammarNode
        do {
            if terms.count == 1, case let .schema(l) = terms[0], let target = try pureReference(l) {
                result = try node([.schema(target)])
            } else {
                result = try lower(try expand(try flatten(terms)), path: Self.path(of: terms))
            }
        } catch {
            if case .emptyLanguage = error { empty[key] = error }
            throw error
        }
        if recursive.contains(key) {
            definitions[key] = result
            return .reference(key)
        }
        lowered[key] = result
        return result
    }

    static func path(of terms: [Term]) -> String {
        for t in terms { if case let .schema(l) = t { return l.path } }
        return ""
    }

    /// The target of a schema that is only a `$ref` (and annotations), so that every use of a
    /// definition shares one node.
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
