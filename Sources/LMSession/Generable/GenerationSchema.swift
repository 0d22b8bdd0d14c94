/// The shape of a value the model generates (Apple's `GenerationSchema`): a root node plus the
/// named types it refers to. Encodes to JSON Schema in Apple's shape (see `GenerationSchema+Codable`).
public struct GenerationSchema: Sendable, CustomDebugStringConvertible {
    /// The root's type name (its JSON Schema `title`), nil for unnamed roots such as `String`.
    var title: String?
    var rootDescription: String?
    var root: SchemaNode
    /// Named types referenced from `root` or from each other, in first-use order.
    var definitions: [SchemaDefinition]

    init(title: String?, description: String?, root: SchemaNode, definitions: [SchemaDefinition] = []) {
        self.title = title
        self.rootDescription = description
        self.root = root
        self.definitions = definitions
    }

    /// One property of a structure (Apple's `GenerationSchema.Property`).
    public struct Property: Sendable {
        let name: String
        let description: String?
        let isOptional: Bool
        let schema: GenerationSchema
        let constraints: [GuideConstraint]

        /// A required property of type `Value`, constrained by `guides`.
        public init<Value: Generable>(name: String, description: String? = nil, type: Value.Type, guides: [GenerationGuide<Value>] = []) {
            self.init(name: name, description: description, isOptional: false, schema: Value.generationSchema, constraints: guides.flatMap(\.constraints))
        }

        /// An optional property of type `Value`: the model may leave it out.
        public init<Value: Generable>(name: String, description: String? = nil, type: Value?.Type, guides: [GenerationGuide<Value>] = []) {
            self.init(name: name, description: description, isOptional: true, schema: Value.generationSchema, constraints: guides.flatMap(\.constraints))
        }

        /// A required string property matching every regex in `guides`.
        public init<RegexOutput>(name: String, description: String? = nil, type: String.Type, guides: [Regex<RegexOutput>] = []) {
            self.init(name: name, description: description, isOptional: false, schema: String.generationSchema,
                      constraints: guides.flatMap { GenerationGuide<String>.pattern($0).constraints })
        }

        /// An optional string property matching every regex in `guides`.
        public init<RegexOutput>(name: String, description: String? = nil, type: String?.Type, guides: [Regex<RegexOutput>] = []) {
            self.init(name: name, description: description, isOptional: true, schema: String.generationSchema,
                      constraints: guides.flatMap { GenerationGuide<String>.pattern($0).constraints })
        }

        init(name: String, description: String?, isOptional: Bool, schema: GenerationSchema, constraints: [GuideConstraint]) {
            self.name = name
            self.description = description
            self.isOptional = isOptional
            self.schema = schema
            self.constraints = constraints
        }
    }

    /// A structure named after `type` with `properties` generated in the order given.
    public init(type: any Generable.Type, description: String? = nil, properties: [Property]) {
        self.init(type: type, description: description, representNilExplicitlyInGeneratedContent: false, properties: properties)
    }

    /// A structure whose absent optional properties are written as explicit `null`s when
    /// `explicitNil` is true (26.4).
    public init(type: any Generable.Type, description: String? = nil,
                representNilExplicitlyInGeneratedContent explicitNil: Bool, properties: [Property]) {
        var definitions: [SchemaDefinition] = []
        let props = properties.map { property in
            SchemaProperty(name: property.name, description: property.description,
                           node: Self.embed(property.schema, into: &definitions).applying(property.constraints),
                           isOptional: property.isOptional)
        }
        self.init(title: Self.typeName(type), description: description,
                  root: .object(ObjectSchema(properties: props, representsNilExplicitly: explicitNil)), definitions: definitions)
    }

    /// A string that is one of `choices` (the schema of a String-backed enum).
    public init(type: any Generable.Type, description: String? = nil, anyOf choices: [String]) {
        self.init(title: Self.typeName(type), description: description, root: .string(StringSchema(choices: choices)))
    }

    /// A value of one of `types` (the schema of an enum with payloads).
    public init(type: any Generable.Type, description: String? = nil, anyOf types: [any Generable.Type]) {
        var definitions: [SchemaDefinition] = []
        let choices = types.map { Self.embed($0.generationSchema, into: &definitions) }
        self.init(title: Self.typeName(type), description: description, root: .anyOf(choices), definitions: definitions)
    }

    /// The type's name as Apple's macro writes it: the last component of its qualified name.
    static func typeName(_ type: Any.Type) -> String {
        let full = String(describing: type)
        return full.split(separator: ".").last.map(String.init) ?? full
    }

    /// The node that refers to `schema` from another schema: a named root becomes a definition
    /// referenced by name; an unnamed root is inlined. Definitions are merged into `definitions`.
    static func embed(_ schema: GenerationSchema, into definitions: inout [SchemaDefinition]) -> SchemaNode {
        if case let .json(document) = schema.root, schema.definitions.isEmpty {
            // Read from JSON: the whole document becomes a definition, its references moved there.
            var name = schema.title ?? "Schema"
            if definitions.contains(where: { $0.name == name && $0.node != .json(SchemaLayout.relocating(document, to: name)) }) {
                var k = 2
                while definitions.contains(where: { $0.name == "\(name)\(k)" }) { k += 1 }
                name = "\(name)\(k)"
            }
            if !definitions.contains(where: { $0.name == name }) {
                definitions.append(SchemaDefinition(name: name, description: schema.rootDescription, node: .json(SchemaLayout.relocating(document, to: name))))
            }
            return .reference(name)
        }
        for definition in schema.definitions where !definitions.contains(where: { $0.name == definition.name }) {
            definitions.append(definition)
        }
        guard let title = schema.title else { return schema.root }
        if !definitions.contains(where: { $0.name == title }) {
            definitions.append(SchemaDefinition(name: title, description: schema.rootDescription, node: schema.root))
        }
        return .reference(title)
    }

    /// The schema as pretty-printed JSON Schema.
    public var debugDescription: String { jsonSchemaText(pretty: true) }

    /// Why a dynamic schema could not be built (Apple's `GenerationSchema.SchemaError`).
    public enum SchemaError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, in words.
        public struct Context: Sendable {
            public let debugDescription: String
            public init(debugDescription: String) { self.debugDescription = debugDescription }
        }

        /// Two types share the name `type`.
        case duplicateType(schema: String?, type: String, context: Context)
        /// The structure `schema` declares `property` twice.
        case duplicateProperty(schema: String, property: String, context: Context)
        /// The union `schema` has no choices.
        case emptyTypeChoices(schema: String, context: Context)
        /// `references` name types that are neither the root nor among the dependencies.
        case undefinedReferences(schema: String?, references: [String], context: Context)

        public var errorDescription: String? { description }

        public var recoverySuggestion: String? {
            switch self {
            case .duplicateType: "Give every type in the schema a unique name."
            case .duplicateProperty: "Give every property of a structure a unique name."
            case .emptyTypeChoices: "Give the union at least one choice."
            case .undefinedReferences: "Pass every referenced schema in `dependencies`."
            }
        }

        public var description: String {
            switch self {
            case let .duplicateType(_, type, c): "duplicate type \"\(type)\": \(c.debugDescription)"
            case let .duplicateProperty(schema, property, c): "\(schema): duplicate property \"\(property)\": \(c.debugDescription)"
            case let .emptyTypeChoices(schema, c): "\(schema): a union with no choices: \(c.debugDescription)"
            case let .undefinedReferences(_, refs, c): "undefined references \(refs): \(c.debugDescription)"
            }
        }
    }
}
