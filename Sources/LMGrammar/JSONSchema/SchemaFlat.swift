/// The kinds of JSON value a schema allows; numbers split into integers and the rest, booleans
/// into their two values, so that "a number but not an integer" or "true only" can be said.
struct Kinds: OptionSet, Hashable {
    let rawValue: UInt8
    static let null = Kinds(rawValue: 1)
    static let trueValue = Kinds(rawValue: 2)
    static let falseValue = Kinds(rawValue: 4)
    static let integer = Kinds(rawValue: 8)
    static let fraction = Kinds(rawValue: 16)
    static let string = Kinds(rawValue: 32)
    static let array = Kinds(rawValue: 64)
    static let object = Kinds(rawValue: 128)
    static let boolean: Kinds = [.trueValue, .falseValue]
    static let number: Kinds = [.integer, .fraction]
    static let all: Kinds = [.null, .boolean, .number, .string, .array, .object]

    /// The kind of a JSON value (1.0 is an integer, as JSON Schema counts).
    static func of(_ value: JSONValue) -> Kinds {
        switch value {
        case .null: .null
        case let .bool(b): b ? .trueValue : .falseValue
        case let .number(t, _): JSONEquality.isInteger(t) ? .integer : .fraction
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}

/// An inclusive or exclusive numeric bound, and the JSON pointer of the keyword that set it.
struct NumberBound {
    var value: Double
    var exclusive: Bool
    var path: String

    /// The keyword that set the bound (the last token of its pointer).
    var keyword: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The tighter of two lower bounds.
    static func tighterMinimum(_ a: NumberBound?, _ b: NumberBound?) -> NumberBound? {
        guard let a, let b else { return a ?? b }
        if a.value != b.value { return a.value > b.value ? a : b }
        return NumberBound(value: a.value, exclusive: a.exclusive || b.exclusive, path: a.exclusive ? a.path : b.path)
    }

    /// The tighter of two upper bounds.
    static func tighterMaximum(_ a: NumberBound?, _ b: NumberBound?) -> NumberBound? {
        guard let a, let b else { return a ?? b }
        if a.value != b.value { return a.value < b.value ? a : b }
        return NumberBound(value: a.value, exclusive: a.exclusive || b.exclusive, path: a.exclusive ? a.path : b.path)
    }
}

/// The array keywords of one schema: items by position, then the rest (`items`, `additionalItems`,
/// `prefixItems`, read per draft).
struct ArrayClause {
    var prefix: [Located] = []
    /// Every later item; nil: any value.
    var rest: Located?
}

/// The object keywords of one schema: they depend on each other (`additionalProperties` applies
/// to names the same schema's `properties` and `patternProperties` leave), so each schema keeps
/// its own clause and clauses are combined name by name.
struct ObjectClause {
    /// In written order; a repeated name counts once, with its first schema.
    var properties: [(name: String, schema: Located)] = [] {
        didSet { indexProperties() }
    }
    /// Each name's position in `properties` (objects of hundreds of properties are looked up by name).
    private var positions: [String: Int] = [:]
    /// `x-order`: the generation order of `properties` (Apple's shape).
    var order: [String]?
    var patterns: [(pattern: String, schema: Located, path: String)] = []
    /// nil: absent (any value).
    var additional: Located?
    var unevaluated: Located?
    var propertyNames: Located?
    var path: String

    init(properties: [(name: String, schema: Located)] = [], path: String) {
        self.properties = properties
        self.path = path
        indexProperties()
    }

    func property(_ name: String) -> Located? { positions[name].map { properties[$0].schema } }

    private mutating func indexProperties() {
        positions = [:]
        for (i, p) in properties.enumerated() where positions[p.name] == nil { positions[p.name] = i }
    }
}

/// A `contains` constraint: at least `minimum` items match `schema`.
struct ContainsClause {
    var schema: Located
    var minimum: Int
    var path: String
}

/// A conjunction of schemas read into constraints per kind of value, with the alternatives
/// (`anyOf`, `oneOf`, `if`, `not`) still to expand. Children (items, properties) stay as
/// subschemas, read when they are lowered.
struct Flat {
    var kinds: Kinds = .all
    /// Some schema said `type`.
    var typed = false
    /// Kinds some keyword constrains: an untyped schema generates those.
    var constrainedKinds: Kinds = []
    /// `enum`/`const`: the value is one of these; nil: no such restriction.
    var literals: [JSONValue]?
    var path: String

    var minimum: NumberBound?
    var maximum: NumberBound?
    var multipleOf: [(value: Double, path: String)] = []

    var minLength = 0
    /// The pointer of the keyword that set `minLength`.
    var minLengthPath = ""
    var maxLength: Int?
    var patterns: [(pattern: String, path: String)] = []
    var excluded: [String] = []
    /// Patterns a string must not match (from subtracting another schema).
    var forbiddenPatterns: [(pattern: String, path: String)] = []

    var arrays: [ArrayClause] = []
    var minItems = 0
    var maxItems: Int?
    /// The pointers of the keywords that set `minItems` and `maxItems`.
    var minItemsPath = ""
    var maxItemsPath = ""
    var uniqueItems = false
    var uniquePath = ""
    var contains: [ContainsClause] = []

    var objects: [ObjectClause] = []
    var required: [String] = []
    var minProperties = 0
    var maxProperties: Int?
    /// Schemas a property's value must fail (from subtracting another schema).
    var propertyNegations: [(name: String, terms: [Term])] = []

    /// Groups of alternatives (each alternative a conjunction of subschemas).
    var anyOf: [[[Located]]] = []
    var oneOf: [[[Located]]] = []
    var nots: [[Term]] = []
    var conditionals: [(condition: Located, then: Located?, otherwise: Located?)] = []

    init(path: String) { self.path = path }

    var hasAlternatives: Bool { !anyOf.isEmpty || !oneOf.isEmpty || !nots.isEmpty || !conditionals.isEmpty }

    /// Both conjunctions at once.
    func merging(_ o: Flat) -> Flat {
        var f = self
        f.kinds.formIntersection(o.kinds)
        f.typed = typed || o.typed
        f.constrainedKinds.formUnion(o.constrainedKinds)
        if let theirs = o.literals {
            f.literals = literals.map { mine in mine.filter { v in theirs.contains { JSONEquality.equal($0, v) } } } ?? theirs
        }
        f.minimum = NumberBound.tighterMinimum(minimum, o.minimum)
        f.maximum = NumberBound.tighterMaximum(maximum, o.maximum)
        f.multipleOf += o.multipleOf
        f.minLength = max(minLength, o.minLength)
        if o.minLength > minLength { f.minLengthPath = o.minLengthPath }
        f.maxLength = [maxLength, o.maxLength].compactMap { $0 }.min()
        f.patterns += o.patterns
        f.excluded += o.excluded
        f.forbiddenPatterns += o.forbiddenPatterns
        f.arrays += o.arrays
        f.minItems = max(minItems, o.minItems)
        if o.minItems > minItems { f.minItemsPath = o.minItemsPath }
        f.maxItems = [maxItems, o.maxItems].compactMap { $0 }.min()
        if let theirs = o.maxItems, theirs < maxItems ?? .max { f.maxItemsPath = o.maxItemsPath }
        if o.uniqueItems, !uniqueItems { f.uniqueItems = true; f.uniquePath = o.uniquePath }
        f.contains += o.contains
        f.objects += o.objects
        for name in o.required where !f.required.contains(name) { f.required.append(name) }
        f.minProperties = max(minProperties, o.minProperties)
        f.maxProperties = [maxProperties, o.maxProperties].compactMap { $0 }.min()
        f.propertyNegations += o.propertyNegations
        f.anyOf += o.anyOf
        f.oneOf += o.oneOf
        f.nots += o.nots
        f.conditionals += o.conditionals
        return f
    }
}
