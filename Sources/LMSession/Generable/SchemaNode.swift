import LMGrammar

/// The inside of a `GenerationSchema`: a JSON-Schema-like tree whose named types live in
/// `GenerationSchema.definitions` and are referred to by name.
indirect enum SchemaNode: Sendable, Equatable {
    case object(ObjectSchema)
    case string(StringSchema)
    case integer(minimum: Int?, maximum: Int?)
    case number(minimum: Double?, maximum: Double?)
    case boolean
    case null
    case array(items: SchemaNode, minimumCount: Int?, maximumCount: Int?)
    case anyOf([SchemaNode])
    /// A named type in `definitions`.
    case reference(String)
    /// Any JSON value (the schema of `GeneratedContent` itself).
    case any
    /// A JSON Schema kept as written (read from JSON); its `$ref`s point into itself.
    case json(JSONValue)
}

struct ObjectSchema: Sendable, Equatable {
    var properties: [SchemaProperty]
    /// 26.4's `representNilExplicitlyInGeneratedContent`: absent optionals are written as `null`.
    var representsNilExplicitly = false
    /// Why the `GenerableSchema` type this stands for has no schema (its `GenerableSchemaError`); nil for a
    /// real structure. Kept through embedding and JSON, so every path to generation rejects it.
    var unbuildableReason: String?
}

struct SchemaProperty: Sendable, Equatable {
    var name: String
    var description: String?
    var node: SchemaNode
    var isOptional: Bool
}

struct StringSchema: Sendable, Equatable {
    var constant: String?
    var choices: [String]?
    /// Regular-expression source the whole string must match.
    var pattern: String?
    /// A Regex guide whose source could not be read; generation rejects it as an unsupported guide.
    var hasOpaquePattern = false
}

/// A named type: its node, with the title and description it is encoded with.
struct SchemaDefinition: Sendable, Equatable {
    var name: String
    var description: String?
    var node: SchemaNode
}

extension SchemaNode {
    /// This node with `constraints` applied; constraints that do not fit the node's kind are
    /// ignored (the typed factories make such mismatches impossible from Swift).
    func applying(_ constraints: [GuideConstraint]) -> SchemaNode {
        var node = self
        for constraint in constraints { node = node.applying(constraint) }
        return node
    }

    private func applying(_ constraint: GuideConstraint) -> SchemaNode {
        if case let .json(schema) = self { return .json(Self.adding(constraint, to: schema)) }
        switch (self, constraint) {
        case (.string(var s), .constant(let value)): s.constant = value; return .string(s)
        case (.string(var s), .anyOf(let values)): s.choices = values; return .string(s)
        case (.string(var s), .pattern(let source)): s.pattern = source; return .string(s)
        case (.string(var s), .opaquePattern): s.hasOpaquePattern = true; return .string(s)
        case let (.integer(_, hi), .minimum(bound)): return .integer(minimum: bound.integerValue(roundingUp: true), maximum: hi)
        case let (.integer(lo, _), .maximum(bound)): return .integer(minimum: lo, maximum: bound.integerValue(roundingUp: false))
        case let (.number(_, hi), .minimum(bound)): return .number(minimum: bound.doubleValue, maximum: hi)
        case let (.number(lo, _), .maximum(bound)): return .number(minimum: lo, maximum: bound.doubleValue)
        case let (.array(items, _, hi), .minimumCount(n)): return .array(items: items, minimumCount: n, maximumCount: hi)
        case let (.array(items, lo, _), .maximumCount(n)): return .array(items: items, minimumCount: lo, maximumCount: n)
        case let (.array(items, lo, hi), .element(inner)): return .array(items: items.applying(inner), minimumCount: lo, maximumCount: hi)
        default: return self
        }
    }
}

extension SchemaNode {
    /// `schema` with the keyword that says `constraint` added (replacing one of the same name).
    static func adding(_ constraint: GuideConstraint, to schema: JSONValue) -> JSONValue {
        guard case let .object(members, complete) = schema else { return schema }
        func with(_ key: String, _ value: JSONValue) -> JSONValue {
            .object(members.filter { $0.key != key } + [JSONMember(key: key, value: value)], complete: complete)
        }
        func number(_ b: NumberBound) -> JSONValue {
            if case let .integer(i) = b { return .number(String(i), complete: true) }
            return .number(GeneratedContent.jsonNumber(b.doubleValue), complete: true)
        }
        switch constraint {
        case let .constant(v): return with("const", .string(v, complete: true))
        case let .anyOf(values): return with("enum", .array(values.map { .string($0, complete: true) }, complete: true))
        case let .pattern(source): return with("pattern", .string(StringGrammar.wholeMatch(source), complete: true))
        case .opaquePattern: return with(Grammar.unavailablePatternKeyword, .bool(true))
        case let .minimum(b): return with("minimum", number(b))
        case let .maximum(b): return with("maximum", number(b))
        case let .minimumCount(n): return with("minItems", .number(String(n), complete: true))
        case let .maximumCount(n): return with("maxItems", .number(String(n), complete: true))
        case let .element(inner):
            guard case let .object(itemMembers, c)? = schema["items"] else { return schema }
            var items = JSONValue.object(itemMembers, complete: c)
            for i in inner { items = adding(i, to: items) }
            return with("items", items)
        }
    }

    /// Why no value can satisfy this node's guides (an empty list of choices, a minimum above the
    /// maximum), or nil; nested nodes included, named definitions not.
    var unsatisfiableGuide: String? {
        switch self {
        case let .string(s):
            if let choices = s.choices, choices.isEmpty { return "anyOf with no choices" }
            return nil
        case let .integer(lo, hi):
            if let lo, let hi, lo > hi { return "minimum \(lo) is greater than maximum \(hi)" }
            return nil
        case let .number(lo, hi):
            if let lo, let hi, lo > hi { return "minimum \(lo) is greater than maximum \(hi)" }
            return nil
        case let .array(items, lo, hi):
            if let lo, lo < 0 { return "minimumCount \(lo) is negative" }
            if let hi, hi < 0 { return "maximumCount \(hi) is negative" }
            if let lo, let hi, lo > hi { return "minimumCount \(lo) is greater than maximumCount \(hi)" }
            return items.unsatisfiableGuide.map { "element: \($0)" }
        case let .object(o):
            for p in o.properties { if let problem = p.node.unsatisfiableGuide { return "\(p.name): \(problem)" } }
            return nil
        case let .anyOf(choices):
            if choices.isEmpty { return "anyOf with no choices" }
            for c in choices { if let problem = c.unsatisfiableGuide { return problem } }
            return nil
        case .boolean, .null, .reference, .any, .json:
            return nil
        }
    }
}

extension NumberBound {
    /// The nearest integer inside the bound.
    func integerValue(roundingUp: Bool) -> Int {
        if case let .integer(i) = self { return i }
        let d = doubleValue.rounded(roundingUp ? .up : .down)
        guard d.isFinite else { return d > 0 ? Int.max : Int.min }
        return d >= 9.2e18 ? Int.max : d <= -9.2e18 ? Int.min : Int(d)
    }
}
