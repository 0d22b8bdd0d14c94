/// The descriptions and guides of a `GenerableSchema` type: what `@Generable(description:)` and
/// `@Guide` say in Apple's macro version, as one static declaration.
public struct GenerationGuides<Root>: Sendable {
    let description: String?
    let properties: [PropertyGuide<Root>]

    /// - Parameters:
    ///   - description: the type's description (`@Generable(description:)`).
    ///   - properties: one entry per described or guided property (`@Guide`).
    public init(description: String? = nil, _ properties: PropertyGuide<Root>...) {
        self.description = description
        self.properties = properties
    }

    public init(description: String? = nil, properties: [PropertyGuide<Root>]) {
        self.description = description
        self.properties = properties
    }
}

/// The description and guides of one property (Apple's `@Guide`).
public struct PropertyGuide<Root>: Sendable {
    let name: String
    let description: String?
    let constraints: [GuideConstraint]

    /// Guides the property at `keyPath` (its name comes from the key path's reflection name).
    public init<Value: Generable>(_ keyPath: KeyPath<Root, Value>, description: String? = nil, _ guides: GenerationGuide<Value>...) {
        self.init(name: Self.propertyName(keyPath), description: description, constraints: guides.flatMap(\.constraints))
    }

    /// Guides the optional property at `keyPath`.
    public init<Value: Generable>(_ keyPath: KeyPath<Root, Value?>, description: String? = nil, _ guides: GenerationGuide<Value>...) {
        self.init(name: Self.propertyName(keyPath), description: description, constraints: guides.flatMap(\.constraints))
    }

    /// Constrains the string property at `keyPath` to match `regex` (`@Guide(/regex/)`).
    public init<Output>(_ keyPath: KeyPath<Root, String>, description: String? = nil, _ regex: Regex<Output>) {
        self.init(name: Self.propertyName(keyPath), description: description, constraints: GenerationGuide<String>.pattern(regex).constraints)
    }

    /// Guides the property with coding key `key`; `Value` is the property's type (`Value?` for an optional one).
    public init<Value: Generable>(_ key: String, description: String? = nil, _ guides: GenerationGuide<Value>...) {
        self.init(name: key, description: description, constraints: guides.flatMap(\.constraints))
    }

    /// Describes the property with coding key `key`.
    public init(_ key: String, description: String) {
        self.init(name: key, description: description, constraints: [])
    }

    init(name: String, description: String?, constraints: [GuideConstraint]) {
        self.name = name
        self.description = description
        self.constraints = constraints
    }

    /// The stored property a key path names: the last component of its description
    /// (`\Recipe.minutes` -> `minutes`), which Swift derives from reflection metadata.
    static func propertyName(_ keyPath: AnyKeyPath) -> String {
        let text = String(describing: keyPath)
        return text.split(separator: ".").last.map(String.init) ?? text
    }
}
