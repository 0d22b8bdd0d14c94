import Foundation

// Apple's built-in Generable types: Bool, String, Int, Float, Double, Decimal, Never, Array,
// GeneratedContent (Optional is covered by the `value(_:forProperty:)` overload for `V?`).

extension GeneratedContent {
    func mismatch(_ expected: String) -> ParsingError {
        ParsingError(rawContent: jsonString, debugDescription: "expected \(expected), found \(jsonString)")
    }

    func numberValue() throws -> Double {
        guard case let .number(n) = kind else { throw mismatch("a number") }
        return n
    }
}

extension Bool: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(title: nil, description: nil, root: .boolean) }
    public init(_ content: GeneratedContent) throws {
        guard case let .bool(b) = content.kind else { throw content.mismatch("a Boolean") }
        self = b
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .bool(self)) }
}

extension String: Generable {
    public static var generationSchema: GenerationSchema { GenerationSchema(title: nil, description: nil, root: .string(StringSchema())) }
    public init(_ content: GeneratedContent) throws {
        guard case let .string(s) = content.kind else { throw content.mismatch("a string") }
        self = s
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(self)) }
}

extension Int: Generable {
    public static var generationSchema: GenerationSchema {
        GenerationSchema(title: nil, description: nil, root: .integer(minimum: nil, maximum: nil))
    }
    /// - Throws: `ParsingError` for a non-number, a fraction, or a value outside `Int`.
    public init(_ content: GeneratedContent) throws {
        let n = try content.numberValue()
        guard n == n.rounded(), let i = Int(exactly: n) else { throw content.mismatch("an integer") }
        self = i
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Float: Generable {
    public static var generationSchema: GenerationSchema {
        GenerationSchema(title: nil, description: nil, root: .number(minimum: nil, maximum: nil))
    }
    public init(_ content: GeneratedContent) throws { self = Float(try content.numberValue()) }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Double: Generable {
    public static var generationSchema: GenerationSchema {
        GenerationSchema(title: nil, description: nil, root: .number(minimum: nil, maximum: nil))
    }
    public init(_ content: GeneratedContent) throws { self = try content.numberValue() }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(self)) }
}

extension Decimal: Generable {
    public static var generationSchema: GenerationSchema {
        GenerationSchema(title: nil, description: nil, root: .number(minimum: nil, maximum: nil))
    }
    /// Converts through the shortest decimal text of the `Double`, so `0.1` stays `0.1`.
    public init(_ content: GeneratedContent) throws {
        let n = try content.numberValue()
        guard let d = Decimal(string: "\(n)", locale: Locale(identifier: "en_US_POSIX")) else { throw content.mismatch("a decimal number") }
        self = d
    }
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(NSDecimalNumber(decimal: self).doubleValue)) }
}

extension Never: Generable {
    /// A union with no choices: nothing can be generated.
    public static var generationSchema: GenerationSchema { GenerationSchema(title: "Never", description: nil, root: .anyOf([])) }
    /// - Throws: always, as no value of `Never` exists.
    public init(_ content: GeneratedContent) throws {
        throw GeneratedContent.ParsingError(rawContent: content.jsonString, debugDescription: "Never has no values")
    }
    public var generatedContent: GeneratedContent { switch self {} }
}

extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
    public init(_ content: GeneratedContent) throws {
        guard case let .array(items) = content.kind else { throw content.mismatch("an array") }
        self = try items.map { try Element($0) }
    }
}

extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent { GeneratedContent(kind: .array(map(\.generatedContent))) }
}

extension Array: Generable where Element: Generable {
    public typealias PartiallyGenerated = [Element.PartiallyGenerated]

    public static var generationSchema: GenerationSchema {
        var definitions: [SchemaDefinition] = []
        let items = GenerationSchema.embed(Element.generationSchema, into: &definitions)
        return GenerationSchema(title: nil, description: nil,
                                root: .array(items: items, minimumCount: nil, maximumCount: nil), definitions: definitions)
    }
}

extension GeneratedContent: Generable {
    /// Any JSON value.
    public static var generationSchema: GenerationSchema { GenerationSchema(title: nil, description: nil, root: .any) }
    public init(_ content: GeneratedContent) throws { self = content }
    public var generatedContent: GeneratedContent { self }
}
