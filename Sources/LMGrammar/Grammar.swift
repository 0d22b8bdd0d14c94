/// A JSON value grammar: the intermediate form between a schema and the byte-level automaton.
///
/// Objects are written with their fields in the listed order (optional fields may be left out
/// by the model); arrays honour count bounds; strings may be constrained by a regular
/// expression; numbers by inclusive bounds enforced digit by digit.
public indirect enum GrammarNode: Sendable, Equatable {
    /// An object whose fields appear in this order; optional fields may be skipped.
    case object([GrammarField])
    /// An array of `item` with between `minCount` and `maxCount` (nil: unbounded) elements.
    case array(item: GrammarNode, minCount: Int, maxCount: Int?)
    /// A string; with a pattern, its content (after JSON unescaping) matches the whole regex.
    case string(pattern: String?)
    /// One of these strings, exactly (an enum; a single choice is a constant).
    case choices([String])
    /// An integer in `minimum...maximum` (nil: at most 15 digits, so it stays exact in a Double).
    case integer(minimum: Int?, maximum: Int?)
    /// A number in `minimum...maximum`; bounded numbers are written without exponent.
    case number(minimum: Double?, maximum: Double?)
    case boolean
    case null
    /// A value matching one of the alternatives.
    case anyOf([GrammarNode])
    /// The definition named here in `Grammar.definitions`.
    case reference(String)
    /// Any JSON value (nesting bounded by `GrammarOptions.maxAnyValueDepth`).
    case anyValue
}

/// One field of an object grammar.
public struct GrammarField: Sendable, Equatable {
    public var name: String
    public var value: GrammarNode
    public var isOptional: Bool

    public init(name: String, value: GrammarNode, isOptional: Bool = false) {
        self.name = name
        self.value = value
        self.isOptional = isOptional
    }
}

/// A root grammar and the named definitions its references point to.
public struct Grammar: Sendable, Equatable {
    public var root: GrammarNode
    public var definitions: [String: GrammarNode]

    public init(root: GrammarNode, definitions: [String: GrammarNode] = [:]) {
        self.root = root
        self.definitions = definitions
    }
}

/// Layout choices the grammar allows around JSON's structural characters.
public struct GrammarOptions: Sendable, Equatable {
    /// Spaces allowed after `:` and `,` (0 or more, bounded so that a model cannot loop on
    /// whitespace). Newlines and tabs are never allowed between tokens.
    public var maxSpaces: Int
    /// How deeply `anyValue` may nest objects and arrays.
    public var maxAnyValueDepth: Int
    /// How many times a recursive reference may be expanded inside itself.
    public var maxRecursionDepth: Int
    /// The largest automaton the compiler builds before giving up with `GrammarError.tooLarge`.
    public var maxStates: Int
    /// Determinized states a matcher caches (1 KiB of transitions each, plus a mask for states
    /// it stood in) before it drops its caches between two steps and starts them again, as RE2's
    /// lazy DFA does; bounds memory for patterns whose DFA would blow up.
    public var maxCachedStates: Int

    public init(maxSpaces: Int = 1, maxAnyValueDepth: Int = 4, maxRecursionDepth: Int = 3, maxStates: Int = 500_000,
                maxCachedStates: Int = 16_384) {
        self.maxSpaces = maxSpaces
        self.maxAnyValueDepth = maxAnyValueDepth
        self.maxRecursionDepth = maxRecursionDepth
        self.maxStates = maxStates
        self.maxCachedStates = maxCachedStates
    }
}

/// Why a grammar could not be built, with what and where.
public enum GrammarError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The regular expression uses a feature the matcher cannot enforce (anchors inside,
    /// backreferences, lookaround, word boundaries...), or is malformed.
    case unsupportedPattern(pattern: String, reason: String)
    /// A reference names no definition.
    case undefinedReference(String)
    /// No value can satisfy the grammar (e.g. an empty range or `minCount > maxCount`).
    case emptyLanguage(String)
    /// The automaton would exceed `GrammarOptions.maxStates`.
    case tooLarge(states: Int)
    /// The JSON Schema could not be read: where (a JSON-pointer-like path) and why.
    case invalidSchema(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedPattern(p, r): "unsupported pattern /\(p)/: \(r)"
        case let .undefinedReference(n): "reference to undefined \"\(n)\""
        case let .emptyLanguage(w): "no value satisfies the grammar: \(w)"
        case let .tooLarge(n): "grammar automaton larger than \(n) states"
        case let .invalidSchema(path, reason): "schema at \"\(path)\": \(reason)"
        }
    }
}
