import Synchronization

/// The macro-free `@Generable` for structures: declare stored properties, adopt
/// `GenerableSchema` (which brings `Codable`), and optionally describe the type and its
/// properties in one `generationGuides` declaration. Everything `@Generable` would write is
/// derived from the Codable conformance:
///
/// - `generationSchema`: the coding keys in declaration order (found by decoding with a
///   schema-discovering Decoder), each property's type schema, `Optional` properties optional,
///   plus the descriptions and guides of `generationGuides`;
/// - `init(_ content:)` and `generatedContent`: decoding from and encoding to `GeneratedContent`
///   (nil optionals are left out);
/// - `PartiallyGenerated`: `GeneratedPartial<Self>`, whose properties are all optional.
///
/// ```swift
/// struct Recipe: GenerableSchema {
///     var title: String
///     var ingredients: [String]
///     var minutes: Int
///
///     static let generationGuides = GenerationGuides<Recipe>(description: "A recipe",
///         .init(\.title, description: "The dish name"),
///         .init(\.minutes, description: "Total minutes", .range(5...240)))
/// }
/// ```
///
/// Property types must be `Generable` and `Codable`: String, Int, Double, Float, Decimal, Bool,
/// arrays, optionals, other `GenerableSchema` types and `GenerableEnum`s. Key-path guides need
/// coding keys equal to property names (the default); with renamed keys use `.init("key", ...)`.
///
/// A guide naming a property that does not exist (or guides no value can satisfy) is reported, never
/// trapped: `checkedGenerationSchema()` throws it, and a session asked to generate the type (or a tool
/// taking it as arguments) throws `LanguageModelError.unsupportedGenerationGuide` naming it.
public protocol GenerableSchema: Generable, Codable where PartiallyGenerated == GeneratedPartial<Self> {
    /// Descriptions and guides for the type and its properties (default: none).
    static var generationGuides: GenerationGuides<Self> { get }
}

extension GenerableSchema {
    public static var generationGuides: GenerationGuides<Self> { GenerationGuides() }

    /// The schema derived from the coding keys and `generationGuides`; built once per type.
    ///
    /// When the declaration is inconsistent (see ``checkedGenerationSchema()``) this is a placeholder that
    /// carries the `GenerableSchemaError`'s description, also inside any schema that embeds it (a property, an
    /// array's items, a tool's arguments): a session then throws
    /// ``LanguageModelError/unsupportedGenerationGuide(_:)`` with that description before any model work, and
    /// every grammar built from it fails the same way. Nothing traps.
    public static var generationSchema: GenerationSchema {
        do {
            return try checkedGenerationSchema()
        } catch {
            return GenerationSchema(title: GenerationSchema.typeName(Self.self), description: nil,
                                    root: .object(ObjectSchema(properties: [], unbuildableReason: error.description)))
        }
    }

    /// The schema, or the reason it cannot be built.
    /// - Throws: `GenerableSchemaError` for a guide naming no property, guides no value can satisfy
    ///   (`.anyOf([])`, a minimum above the maximum), a property type that is not `Generable`, or a
    ///   Codable conformance that is not a keyed container.
    public static func checkedGenerationSchema() throws(GenerableSchemaError) -> GenerationSchema {
        let key = ObjectIdentifier(Self.self)
        if let cached = schemaCache.withLock({ $0[key] }) { return try cached.get() }
        let result = Result { () throws(GenerableSchemaError) -> GenerationSchema in try SchemaDiscovery.schema(of: Self.self) }
        schemaCache.withLock { $0[key] = result }
        return try result.get()
    }

    public init(_ content: GeneratedContent) throws {
        do {
            self = try Self(from: GeneratedContentDecoder(content: content, codingPath: []))
        } catch let error as GeneratedContent.ParsingError {
            throw error
        } catch {
            throw GeneratedContent.ParsingError(rawContent: content.jsonString, underlyingError: error,
                                                debugDescription: "cannot build \(Self.self): \(error)")
        }
    }

    /// The value as a structure with properties in declaration order; nil optionals are left out.
    public var generatedContent: GeneratedContent {
        let encoder = GeneratedContentEncoder(codingPath: [])
        do {
            try encode(to: encoder)
        } catch {
            // The encoder itself never throws; a custom encode(to:) that throws is a programming error.
            preconditionFailure("\(Self.self).encode(to:) threw \(error)")
        }
        return encoder.content
    }
}

/// Schemas built so far, per type: discovery runs once.
private let schemaCache = Mutex<[ObjectIdentifier: Result<GenerationSchema, GenerableSchemaError>]>([:])

/// Why a `GenerableSchema` type's schema cannot be built.
public enum GenerableSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A guide in `generationGuides` names `property`, which `type` does not have.
    case unknownProperty(type: String, property: String, known: [String])
    /// Two guides describe the same property.
    case duplicateGuide(type: String, property: String)
    /// The property's type does not conform to `Generable`.
    case notGenerable(type: String, property: String, propertyType: String)
    /// The type's `init(from:)` does not decode a keyed container of properties.
    case notAStructure(type: String, reason: String)
    /// No value satisfies the guides of `property` (an empty `anyOf`, a minimum above the maximum).
    case unsatisfiableGuide(type: String, property: String, reason: String)

    public var description: String {
        switch self {
        case let .unknownProperty(type, property, known):
            "\(type).generationGuides names \"\(property)\", which is not a property of \(type) (properties: \(known.joined(separator: ", ")))"
        case let .duplicateGuide(type, property): "\(type).generationGuides describes \"\(property)\" twice"
        case let .notGenerable(type, property, propertyType): "\(type).\(property): \(propertyType) is not Generable"
        case let .notAStructure(type, reason): "\(type) is not a structure of properties: \(reason)"
        case let .unsatisfiableGuide(type, property, reason): "\(type).\(property): no value satisfies its guides: \(reason)"
        }
    }
}
