/// A value passed to a template: the JSON data model, with object keys in their given order
/// (templates iterate dicts in insertion order, as Python does).
///
/// Integers that fit `Int` stay integers (Python prints `2`, not `2.0`); other numbers are `Double`.
public indirect enum JinjaValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JinjaValue])
    /// Key-value pairs in order. A repeated key keeps its first position and its last value,
    /// as a Python dict built from the pairs would.
    case object([(key: String, value: JinjaValue)])

    public static func == (a: JinjaValue, b: JinjaValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.double(x), .double(y)): x == y
        case let (.string(x), .string(y)): x.utf8.elementsEqual(y.utf8)
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
        default: false
        }
    }

    /// The value under `key` of an object (the last one when repeated), else nil.
    public subscript(key: String) -> JinjaValue? {
        guard case let .object(pairs) = self else { return nil }
        return pairs.last { $0.key.utf8.elementsEqual(key.utf8) }?.value
    }
}

extension JinjaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JinjaValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JinjaValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}
