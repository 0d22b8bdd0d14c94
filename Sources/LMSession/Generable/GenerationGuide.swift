@_spi(LiteralPattern) import _StringProcessing
import Foundation

/// A constraint on one generated value (Apple's `GenerationGuide`). Every factory keeps its data
/// so that the grammar enforces it at generation time; bounds are inclusive.
public struct GenerationGuide<Value>: Sendable {
    let constraints: [GuideConstraint]

    init(_ constraints: [GuideConstraint]) { self.constraints = constraints }
}

/// The run-time form of a guide, independent of the value type.
indirect enum GuideConstraint: Sendable, Equatable {
    case constant(String)
    case anyOf([String])
    /// A regular expression's source in Swift Regex syntax.
    case pattern(String)
    /// A Regex whose source text could not be recovered; rejected as an unsupported guide when
    /// the grammar is compiled.
    case opaquePattern
    case minimum(NumberBound)
    case maximum(NumberBound)
    case minimumCount(Int)
    case maximumCount(Int)
    case element([GuideConstraint])
}

/// An inclusive numeric bound in the type it was written in.
enum NumberBound: Sendable, Equatable {
    case integer(Int)
    case double(Double)
    case decimal(Decimal)

    var doubleValue: Double {
        switch self {
        case let .integer(i): Double(i)
        case let .double(d): d
        case let .decimal(d): NSDecimalNumber(decimal: d).doubleValue
        }
    }
}

extension GenerationGuide where Value == String {
    /// The value is exactly `value`.
    public static func constant(_ value: String) -> GenerationGuide<String> { .init([.constant(value)]) }

    /// The value is one of `values`.
    public static func anyOf(_ values: [String]) -> GenerationGuide<String> { .init([.anyOf(values)]) }

    /// The whole value matches `regex`, a Regex literal (`/[A-Z]{3}-\d{4}/`) or `Regex(string)`.
    ///
    /// The pattern's source is read with `_StringProcessing`'s `_literalPattern` (Swift's `Regex`
    /// has no public accessor for it); RegexBuilder regexes get one too (strings as `\Q...\E`).
    /// A Regex with components that have no pattern text (custom consumers, transforms) is
    /// rejected with `unsupportedGuide` at generation time; use `pattern(_: String)` instead.
    public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> {
        guard let source = regex._literalPattern else { return .init([.opaquePattern]) }
        return .init([.pattern(source)])
    }

    /// The whole value matches the regular expression `source` (Swift Regex / ICU syntax:
    /// literals, `.`, classes `[...]`, `\d \w \s`, groups, `|`, `? * + {m,n}`; no anchors inside,
    /// backreferences or lookaround). Not in Apple's API: the portable spelling of `pattern`.
    public static func pattern(_ source: String) -> GenerationGuide<String> { .init([.pattern(source)]) }
}

extension GenerationGuide where Value == Int {
    public static func minimum(_ value: Int) -> GenerationGuide<Int> { .init([.minimum(.integer(value))]) }
    public static func maximum(_ value: Int) -> GenerationGuide<Int> { .init([.maximum(.integer(value))]) }
    public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
        .init([.minimum(.integer(range.lowerBound)), .maximum(.integer(range.upperBound))])
    }
}

extension GenerationGuide where Value == Float {
    public static func minimum(_ value: Float) -> GenerationGuide<Float> { .init([.minimum(.double(Double(value)))]) }
    public static func maximum(_ value: Float) -> GenerationGuide<Float> { .init([.maximum(.double(Double(value)))]) }
    public static func range(_ range: ClosedRange<Float>) -> GenerationGuide<Float> {
        .init([.minimum(.double(Double(range.lowerBound))), .maximum(.double(Double(range.upperBound)))])
    }
}

extension GenerationGuide where Value == Double {
    public static func minimum(_ value: Double) -> GenerationGuide<Double> { .init([.minimum(.double(value))]) }
    public static func maximum(_ value: Double) -> GenerationGuide<Double> { .init([.maximum(.double(value))]) }
    public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
        .init([.minimum(.double(range.lowerBound)), .maximum(.double(range.upperBound))])
    }
}

extension GenerationGuide where Value == Decimal {
    public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> { .init([.minimum(.decimal(value))]) }
    public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> { .init([.maximum(.decimal(value))]) }
    public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
        .init([.minimum(.decimal(range.lowerBound)), .maximum(.decimal(range.upperBound))])
    }
}

extension GenerationGuide {
    /// At least `count` elements.
    public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        .init([.minimumCount(count)])
    }

    /// At most `count` elements.
    public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        .init([.maximumCount(count)])
    }

    /// Between `range.lowerBound` and `range.upperBound` elements.
    public static func count<Element>(_ range: ClosedRange<Int>) -> GenerationGuide<[Element]> where Value == [Element] {
        .init([.minimumCount(range.lowerBound), .maximumCount(range.upperBound)])
    }

    /// Exactly `count` elements.
    public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        .init([.minimumCount(count), .maximumCount(count)])
    }

    /// Applies `guide` to every element.
    public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]> where Value == [Element] {
        .init([.element(guide.constraints)])
    }
}
