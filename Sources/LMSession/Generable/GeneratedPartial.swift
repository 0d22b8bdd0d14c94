/// The partially generated form of a `GenerableSchema` type (what `@Generable` writes as the
/// nested `PartiallyGenerated` struct): every property is optional and fills in as the model
/// writes it. Read properties with the same names: `partial.title` is `String?`, a nested
/// `GenerableSchema` property is `GeneratedPartial<Nested>?`, an array `[Element.PartiallyGenerated]?`.
@dynamicMemberLookup
public struct GeneratedPartial<Root: GenerableSchema>: Identifiable, ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent, Sendable, Equatable {
    /// Stable across the snapshots of one stream.
    public var id: GenerationID
    /// The content generated so far.
    public let content: GeneratedContent

    /// - Throws: `GeneratedContent.ParsingError` when `content` is not a structure.
    public init(_ content: GeneratedContent) throws {
        guard case .structure = content.kind else {
            throw GeneratedContent.ParsingError(rawContent: content.jsonString, debugDescription: "expected a structure for \(Root.self)")
        }
        self.id = content.id ?? GenerationID()
        self.content = content
    }

    public var generatedContent: GeneratedContent { content }

    /// True once every property has been generated and closed.
    public var isComplete: Bool { content.isComplete }

    /// The property at `keyPath` as generated so far; nil while absent or not yet readable
    /// (e.g. an enum value still being written).
    public subscript<Value: Generable>(dynamicMember keyPath: KeyPath<Root, Value>) -> Value.PartiallyGenerated? {
        value(forProperty: PropertyGuide<Root>.propertyName(keyPath))
    }

    /// The optional property at `keyPath` as generated so far.
    public subscript<Value: Generable>(dynamicMember keyPath: KeyPath<Root, Value?>) -> Value.PartiallyGenerated? {
        value(forProperty: PropertyGuide<Root>.propertyName(keyPath))
    }

    /// The property with coding key `name` as generated so far.
    public func value<V: ConvertibleFromGeneratedContent>(_ type: V.Type = V.self, forProperty name: String) -> V? {
        (try? content.value(V?.self, forProperty: name)) ?? nil
    }

    /// The complete value, once generation has finished.
    /// - Throws: `GeneratedContent.ParsingError` while properties are missing or unfinished.
    public func completed() throws -> Root { try Root(content) }

    public static func == (a: Self, b: Self) -> Bool { a.id == b.id && a.content == b.content }
}

/// The macro-free `@Generable` for enums without payloads: adopt it on a `String`-backed,
/// `CaseIterable` enum; the schema is the choice of raw values (the case names by default).
public protocol GenerableEnum: Generable, RawRepresentable, CaseIterable, Codable where RawValue == String {
    /// The enum's description (`@Generable(description:)`); default none.
    static var generationDescription: String? { get }
}

extension GenerableEnum {
    public static var generationDescription: String? { nil }

    public static var generationSchema: GenerationSchema {
        GenerationSchema(type: Self.self, description: generationDescription, anyOf: allCases.map(\.rawValue))
    }

    /// - Throws: `GeneratedContent.ParsingError` unless the content is one of the raw values.
    public init(_ content: GeneratedContent) throws {
        guard case let .string(s) = content.kind, let value = Self(rawValue: s) else {
            throw GeneratedContent.ParsingError(rawContent: content.jsonString,
                                                debugDescription: "expected one of \(Self.allCases.map(\.rawValue)) for \(Self.self)")
        }
        self = value
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(rawValue)) }
}
