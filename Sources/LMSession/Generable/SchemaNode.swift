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
}

struct ObjectSchema: Sendable, Equatable {
    var properties: [SchemaProperty]
    /// 26.4's `representNilExplicitlyInGeneratedContent`: absent optionals are written as `null`.
    var representsNilExplicitly = false
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

extension NumberBound {
    /// The nearest integer inside the bound.
    func integerValue(roundingUp: Bool) -> Int {
        if case let .integer(i) = self { return i }
        let d = doubleValue.rounded(roundingUp ? .up : .down)
        guard d.isFinite else { return d > 0 ? Int.max : Int.min }
        return d >= 9.2e18 ? Int.max : d <= -9.2e18 ? Int.min : Int(d)
    }
}
