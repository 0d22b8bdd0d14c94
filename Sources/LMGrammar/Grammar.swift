/// A JSON value grammar: the intermediate form between a schema and the byte-level automaton.
///
/// Objects are written with their fields in the listed order (optional fields may be left out
/// by the model), then any additional members; arrays honour count bounds; strings may be
/// constrained by regular expressions and lengths; numbers by bounds enforced digit by digit.
public indirect enum GrammarNode: Sendable, Hashable {
    /// An object: fields in order, then additional members.
    case object(ObjectGrammar)
    /// An array: items by position, then repeated items.
    case array(ArrayGrammar)
    /// A string with optional content constraints.
    case string(StringGrammar)
    /// One of these JSON texts, exactly (an `enum`; a single text is a `const`). Each text must be
    /// valid JSON; it is written as given.
    case literals([String])
    /// An integer (at most 15 digits when unbounded, so it stays exact in a Double).
    case integer(IntegerGrammar)
    /// A number; bounded numbers are written without exponent, except a range wholly past 15
    /// integer digits (`minimum: 1e20`), which is written in scientific notation.
    case number(NumberGrammar)
    case boolean
    case null
    /// A value matching one of the alternatives (none: no value at all).
    case anyOf([GrammarNode])
    /// The definition named here in `Grammar.definitions`.
    case reference(String)
    /// Any JSON value (nesting bounded by `GrammarOptions.maxAnyValueDepth`).
    case anyValue
    /// These nodes one after another, nothing between them: markup around JSON, such as a tool call written
    /// `name[ARGS]{…}` (Mistral). In a sequence a `.literals` text may be any text; it is written as given.
    case sequence([GrammarNode])

    /// An object of exactly these fields, in this order.
    public static func object(_ fields: [GrammarField]) -> GrammarNode { .object(ObjectGrammar(fields: fields)) }

    /// An array of `item` with between `minCount` and `maxCount` (nil: unbounded) elements.
    public static func array(item: GrammarNode, minCount: Int, maxCount: Int?) -> GrammarNode {
        .array(ArrayGrammar(item: item, minCount: minCount, maxCount: maxCount))
    }

    /// A string; with a pattern, its content (after JSON unescaping) matches the whole regex.
    public static func string(pattern: String?) -> GrammarNode {
        .string(StringGrammar(patterns: pattern.map { [[StringGrammar.wholeMatch($0)]] } ?? []))
    }

    /// One of these strings, exactly.
    public static func choices(_ values: [String]) -> GrammarNode {
        .literals(values.map { String(decoding: JSONText.quoted($0), as: UTF8.self) })
    }

    /// An integer in `minimum...maximum`.
    public static func integer(minimum: Int?, maximum: Int?) -> GrammarNode {
        .integer(IntegerGrammar(minimum: minimum, maximum: maximum))
    }

    /// A number in `minimum...maximum`.
    public static func number(minimum: Double?, maximum: Double?) -> GrammarNode {
        .number(NumberGrammar(minimum: minimum, maximum: maximum))
    }
}

/// One field of an object grammar.
public struct GrammarField: Sendable, Hashable {
    public var name: String
    public var value: GrammarNode
    public var isOptional: Bool

    public init(name: String, value: GrammarNode, isOptional: Bool = false) {
        self.name = name
        self.value = value
        self.isOptional = isOptional
    }
}

/// An object: `fields` in order (optional ones may be skipped), then `additional` members, with
/// between `minCount` and `maxCount` members in all.
public struct ObjectGrammar: Sendable, Hashable {
    public var fields: [GrammarField]
    /// Members after the fields, any number of them; nil: none (the object is closed).
    public var additional: AdditionalMembers?
    /// Fewest members (fields and additional ones together).
    public var minCount: Int
    /// Most members; nil: no bound.
    public var maxCount: Int?

    public init(fields: [GrammarField], additional: AdditionalMembers? = nil, minCount: Int = 0, maxCount: Int? = nil) {
        self.fields = fields
        self.additional = additional
        self.minCount = minCount
        self.maxCount = maxCount
    }
}

/// Members whose keys are not among the object's fields: keys follow `key` (the fields' names are
/// always excluded) and values follow `value`. Two additional members may share a key: a token
/// mask cannot remember every key written.
public struct AdditionalMembers: Sendable, Hashable {
    public var key: StringGrammar
    public var value: GrammarNode

    public init(key: StringGrammar = StringGrammar(), value: GrammarNode) {
        self.key = key
        self.value = value
    }
}

/// An array: `prefix[i]` at position `i`, then `item` at every later position (nil: no later
/// positions), between `minCount` and `maxCount` elements.
public struct ArrayGrammar: Sendable, Hashable {
    public var prefix: [GrammarNode]
    public var item: GrammarNode?
    public var minCount: Int
    public var maxCount: Int?
    /// Items are distinct: only with no prefix and `item` a `.literals` list, whose values then
    /// appear at most once each, in the listed order (JSON Schema's `uniqueItems`).
    public var distinct: Bool

    public init(prefix: [GrammarNode] = [], item: GrammarNode?, minCount: Int = 0, maxCount: Int? = nil, distinct: Bool = false) {
        self.prefix = prefix
        self.item = item
        self.minCount = minCount
        self.maxCount = maxCount
        self.distinct = distinct
    }
}

/// A string's content constraints; all must hold.
public struct StringGrammar: Sendable, Hashable {
    /// Regular expressions the content must match, with JSON Schema's `pattern` semantics (a match
    /// anywhere unless anchored by `^`/`$`); each entry is a list of alternatives of which at least
    /// one must match.
    public var patterns: [[String]]
    /// Fewest characters (Unicode scalars, as JSON Schema counts them).
    public var minLength: Int
    /// Most characters; nil: no bound.
    public var maxLength: Int?
    /// Contents that are not allowed.
    public var excluded: [String]
    /// Regular expressions the content must not match (JSON Schema's `pattern` semantics): from a
    /// `oneOf` branch kept apart from an overlapping one, or `not`.
    public var forbidden: [String]

    public init(patterns: [[String]] = [], minLength: Int = 0, maxLength: Int? = nil, excluded: [String] = [], forbidden: [String] = []) {
        self.patterns = patterns
        self.minLength = minLength
        self.maxLength = maxLength
        self.excluded = excluded
        self.forbidden = forbidden
    }

    /// True when any string content is allowed.
    public var isFree: Bool { patterns.isEmpty && minLength == 0 && maxLength == nil && excluded.isEmpty && forbidden.isEmpty }

    /// `pattern` (to be matched as a whole, as Swift's `wholeMatch` and Apple's guides do) in
    /// JSON Schema's search form: `^(?:pattern)$`, an anchor already at either end kept once.
    public static func wholeMatch(_ pattern: String) -> String {
        var body = Substring(pattern)
        if body.hasPrefix("^") { body = body.dropFirst() }
        if body.hasSuffix("$"), !body.hasSuffix("\\$") { body = body.dropLast() }
        // A leading `(?i)` must stay first.
        if body.hasPrefix("(?i)") { return "^(?i)(?:" + body.dropFirst(4) + ")$" }
        return "^(?:" + body + ")$"
    }
}

/// An integer in `minimum...maximum`, optionally a multiple of `multipleOf`.
public struct IntegerGrammar: Sendable, Hashable {
    /// nil: -999,999,999,999,999 (15 digits), or -(2^53 - 1) when `maximum` is below that.
    public var minimum: Int?
    /// nil: 999,999,999,999,999, or 2^53 - 1 when `minimum` is above that.
    public var maximum: Int?
    /// A positive divisor every value must have; nil: none.
    public var multipleOf: Int?

    public init(minimum: Int? = nil, maximum: Int? = nil, multipleOf: Int? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.multipleOf = multipleOf
    }
}

/// A number between its bounds; `nonInteger` numbers have a non-zero fraction digit (and no exponent).
public struct NumberGrammar: Sendable, Hashable {
    public var minimum: Double?
    public var maximum: Double?
    public var exclusiveMinimum: Bool
    public var exclusiveMaximum: Bool
    public var nonInteger: Bool

    public init(minimum: Double? = nil, maximum: Double? = nil, exclusiveMinimum: Bool = false, exclusiveMaximum: Bool = false,
                nonInteger: Bool = false) {
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
        self.nonInteger = nonInteger
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
    /// How many times a definition may be entered inside itself; definitions with equal bodies
    /// count as one. A recursive reference at this depth matches nothing, so optional parts and
    /// empty arrays close the value there. With `recursionBoundedByInput`, only recursion that
    /// reads nothing first (left recursion) is counted.
    public var maxRecursionDepth: Int
    /// Lets recursion that reads input before it recurses (every recursive JSON value: an object or
    /// array opens first) nest to any depth, one level per byte at most; the caller bounds it, with a
    /// token budget that keeps the value closable (`GrammarMatcher+Budget`). A grammar with left
    /// recursion keeps the `maxRecursionDepth` count. Default false.
    public var recursionBoundedByInput: Bool
    /// The largest automaton the compiler builds before giving up with `GrammarError.tooLarge`.
    public var maxStates: Int
    /// Determinized states a matcher caches (1 KiB of transitions each, plus a mask for states
    /// it stood in) before it drops its caches between two steps and starts them again, as RE2's
    /// lazy DFA does; bounds memory for patterns whose DFA would blow up.
    public var maxCachedStates: Int
    /// Determinized states one step of a matcher (a token mask, or taking one token) may add to
    /// its cache. A pattern whose DFA blows up within one step (`(a|b)*a(a|b){20}` needs 2^21
    /// states) fails that step with `GrammarError.stepTooLarge` instead of taking memory without
    /// bound (about 1.2 KiB per state).
    public var maxStatesPerStep: Int

    /// The largest `maxLength` spelt out; a larger bound is enforced as this one (a shorter string
    /// is still valid).
    public var maxStringLength: Int

    public init(maxSpaces: Int = 1, maxAnyValueDepth: Int = 4, maxRecursionDepth: Int = 3, maxStates: Int = 500_000,
                maxCachedStates: Int = 16_384, maxStringLength: Int = 512, maxStatesPerStep: Int = 32_768,
                recursionBoundedByInput: Bool = false) {
        self.recursionBoundedByInput = recursionBoundedByInput
        self.maxStringLength = maxStringLength
        self.maxSpaces = maxSpaces
        self.maxAnyValueDepth = maxAnyValueDepth
        self.maxRecursionDepth = maxRecursionDepth
        self.maxStates = maxStates
        self.maxCachedStates = maxCachedStates
        self.maxStatesPerStep = maxStatesPerStep
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
    /// One step of a matcher needed more than `states` determinized states
    /// (`GrammarOptions.maxStatesPerStep` over its cache): the pattern cannot be enforced.
    case stepTooLarge(states: Int)
    /// No way to close the value was found from a matcher's state within
    /// `GrammarMatcher.maxCompletionLength` tokens, so a token budget cannot be kept (the shortest
    /// completion search cannot follow the pattern); raising the budget does not help.
    case completionNotFound
    /// The JSON Schema could not be read: where (a JSON pointer into the schema) and why.
    case invalidSchema(path: String, reason: String)
    /// The JSON Schema uses `keyword` (at the JSON pointer `path`) in a way the grammar cannot
    /// enforce; `reason` says what.
    case unsupportedKeyword(path: String, keyword: String, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedPattern(p, r): "unsupported pattern /\(p)/: \(r)"
        case let .undefinedReference(n): "reference to undefined \"\(n)\""
        case let .emptyLanguage(w): "no value satisfies the grammar: \(w)"
        case let .tooLarge(n): "grammar automaton larger than \(n) states"
        case let .stepTooLarge(n):
            "the grammar's pattern needs more than \(n) determinized states to check one token (it blows up when determinized, as (a|b)*a(a|b){20} does)"
        case .completionNotFound:
            "no way to close the value was found within \(GrammarMatcher.maxCompletionLength) tokens, so the response cannot be kept closable within maximumResponseTokens (a pattern the completion search cannot follow)"
        case let .invalidSchema(path, reason): "schema at \"\(path)\": \(reason)"
        case let .unsupportedKeyword(path, keyword, reason): "schema at \"\(path)\": \(keyword) cannot be enforced: \(reason)"
        }
    }
}
