/// A value the model generated (or that will be shown to it), in JSON's data model with
/// structure keys kept in generation order (Apple's `GeneratedContent`).
///
/// Numbers are `Double`s, so integers beyond 2^53 lose precision. Two contents are equal when
/// their kinds and ids are equal.
public struct GeneratedContent: Sendable, Equatable, CustomDebugStringConvertible {
    /// The shape of a generated value.
    public enum Kind: Equatable, Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([GeneratedContent])
        /// An object; `orderedKeys` lists the keys of `properties` in generation order.
        case structure(properties: [String: GeneratedContent], orderedKeys: [String])
    }

    /// The identity of this value while it streams; nil for values made without one.
    public var id: GenerationID?

    /// The value itself.
    public var kind: Kind { storage.kind }

    // A class-free box would do; the struct keeps `kind` and completeness together.
    private var storage: Storage

    struct Storage: Sendable, Equatable {
        var kind: Kind
        var complete: Bool
    }

    /// A value of the given kind, complete.
    public init(kind: Kind, id: GenerationID? = nil) {
        self.storage = Storage(kind: kind, complete: true)
        self.id = id
    }

    init(kind: Kind, id: GenerationID? = nil, isComplete: Bool) {
        self.storage = Storage(kind: kind, complete: isComplete)
        self.id = id
    }

    /// JSON `null`.
    public static let null = GeneratedContent(kind: .null)

    /// False while this value (or anything inside it) is still being generated, e.g. for content
    /// read from truncated JSON.
    public var isComplete: Bool {
        guard storage.complete else { return false }
        switch storage.kind {
        case let .array(items): return items.allSatisfy(\.isComplete)
        case let .structure(properties, _): return properties.values.allSatisfy(\.isComplete)
        default: return true
        }
    }

    public static func == (a: GeneratedContent, b: GeneratedContent) -> Bool {
        a.id == b.id && a.storage.kind == b.storage.kind
    }

    /// The content as JSON text with keys in generation order.
    public var debugDescription: String { jsonString }
}

extension GeneratedContent {
    /// A structure with the given properties, in the order written.
    public init(properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>, id: GenerationID? = nil) {
        var values: [String: GeneratedContent] = [:]
        var order: [String] = []
        for (key, value) in properties {
            if values.updateValue(value.generatedContent, forKey: key) == nil { order.append(key) }
        }
        self.init(kind: .structure(properties: values, orderedKeys: order), id: id)
    }

    /// A structure from a sequence of key-value pairs; `combine` resolves a repeated key from
    /// the value already stored and the new one.
    public init<S: Sequence>(
        properties: S, id: GenerationID? = nil,
        uniquingKeysWith combine: (GeneratedContent, GeneratedContent) throws -> some ConvertibleToGeneratedContent
    ) rethrows where S.Element == (String, any ConvertibleToGeneratedContent) {
        var values: [String: GeneratedContent] = [:]
        var order: [String] = []
        for (key, value) in properties {
            let content = value.generatedContent
            if let old = values[key] {
                values[key] = try combine(old, content).generatedContent
            } else {
                values[key] = content
                order.append(key)
            }
        }
        self.init(kind: .structure(properties: values, orderedKeys: order), id: id)
    }

    /// An array of the given elements.
    public init<S: Sequence>(elements: S, id: GenerationID? = nil) where S.Element == any ConvertibleToGeneratedContent {
        self.init(kind: .array(elements.map(\.generatedContent)), id: id)
    }

    /// The content of `value`.
    public init(_ value: some ConvertibleToGeneratedContent) {
        self = value.generatedContent
    }

    /// The content of `value`, with the given identity.
    public init(_ value: some ConvertibleToGeneratedContent, id: GenerationID) {
        self = value.generatedContent
        self.id = id
    }
}
