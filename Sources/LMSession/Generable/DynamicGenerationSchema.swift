/// A schema assembled at run time (Apple's `DynamicGenerationSchema`); turn it into a
/// `GenerationSchema` with `GenerationSchema(root:dependencies:)`.
public struct DynamicGenerationSchema: Sendable {
    indirect enum Body: Sendable {
        case object(name: String, description: String?, properties: [Property], explicitNil: Bool)
        case union(name: String, description: String?, choices: [DynamicGenerationSchema])
        case stringChoices(name: String, description: String?, choices: [String])
        case array(item: DynamicGenerationSchema, minimumCount: Int?, maximumCount: Int?)
        case typed(GenerationSchema)
        case reference(String)
        case null
    }

    let body: Body

    /// One property of a dynamic structure.
    public struct Property: Sendable {
        let name: String
        let description: String?
        let schema: DynamicGenerationSchema
        let isOptional: Bool

        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = isOptional
        }
    }

    /// JSON `null` (26.4).
    public static var null: DynamicGenerationSchema { DynamicGenerationSchema(body: .null) }

    /// A structure named `name` with `properties` in generation order.
    public init(name: String, description: String? = nil, properties: [Property]) {
        body = .object(name: name, description: description, properties: properties, explicitNil: false)
    }

    /// A structure whose absent optionals are written as `null` when `explicitNil` (26.4).
    public init(name: String, description: String? = nil, representNilExplicitlyInGeneratedContent explicitNil: Bool, properties: [Property]) {
        body = .object(name: name, description: description, properties: properties, explicitNil: explicitNil)
    }

    /// A value matching one of `choices`.
    public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
        body = .union(name: name, description: description, choices: choices)
    }

    /// A string that is one of `choices`.
    public init(name: String, description: String? = nil, anyOf choices: [String]) {
        body = .stringChoices(name: name, description: description, choices: choices)
    }

    /// An array of `itemSchema` with optional inclusive count bounds.
    public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
        body = .array(item: itemSchema, minimumCount: minimumElements, maximumCount: maximumElements)
    }

    /// The schema of a Generable type, constrained by `guides`.
    public init<Value: Generable>(type: Value.Type, guides: [GenerationGuide<Value>] = []) {
        var schema = Value.generationSchema
        schema.root = schema.root.applying(guides.flatMap(\.constraints))
        body = .typed(schema)
    }

    /// A reference to the named schema `name`, resolved among the dependencies.
    public init(referenceTo name: String) {
        body = .reference(name)
    }

    init(body: Body) { self.body = body }
}

extension GenerationSchema {
    /// Builds a schema from a dynamic root and the named schemas it refers to.
    ///
    /// Named structures, unions and string choices nested anywhere become definitions referenced
    /// by name, as Apple's encoder hoists them into `$defs`.
    /// - Throws: `SchemaError.duplicateType` when two named schemas share a name,
    ///   `.duplicateProperty` for a repeated property name, `.emptyTypeChoices` for a union with no
    ///   choices, `.undefinedReferences` for references to names that are not defined.
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
        var builder = DynamicSchemaBuilder()
        let rootName = root.name
        for dependency in dependencies {
            guard let name = dependency.name else { continue }
            guard name != rootName else {
                throw SchemaError.duplicateType(schema: rootName, type: name, context: .init(debugDescription: "a dependency has the root's name"))
            }
            _ = try builder.hoist(dependency, name: name)
        }
        let node = try builder.node(for: root, hoistNamed: false)
        for (name, checked) in [(rootName, node)] + builder.definitions.map({ ($0.name, $0.node) }) {
            if let problem = checked.unsatisfiableGuide {
                throw SchemaError.emptyTypeChoices(schema: name ?? "root", context: .init(debugDescription: "no value satisfies the guides: \(problem)"))
            }
        }
        var defined = Set(builder.definitions.map(\.name))
        if let rootName { defined.insert(rootName) }
        let missing = builder.references.filter { !defined.contains($0) }
        guard missing.isEmpty else {
            throw SchemaError.undefinedReferences(schema: rootName, references: missing,
                                                  context: .init(debugDescription: "referenced schemas must be the root or among the dependencies"))
        }
        self.init(title: rootName, description: root.descriptionText, root: node, definitions: builder.definitions)
    }
}

extension DynamicGenerationSchema {
    var name: String? {
        switch body {
        case let .object(name, _, _, _), let .union(name, _, _), let .stringChoices(name, _, _): name
        case let .typed(schema): schema.title
        default: nil
        }
    }

    var descriptionText: String? {
        switch body {
        case let .object(_, d, _, _), let .union(_, d, _), let .stringChoices(_, d, _): d
        case let .typed(schema): schema.rootDescription
        default: nil
        }
    }
}

/// Walks dynamic schemas, hoisting named ones into definitions.
private struct DynamicSchemaBuilder {
    var definitions: [SchemaDefinition] = []
    var references: [String] = []

    /// Adds `schema` as the definition `name` and returns a reference to it.
    mutating func hoist(_ schema: DynamicGenerationSchema, name: String) throws -> SchemaNode {
        guard !definitions.contains(where: { $0.name == name }) else {
            throw GenerationSchema.SchemaError.duplicateType(schema: nil, type: name, context: .init(debugDescription: "two schemas are named \"\(name)\""))
        }
        let index = definitions.count
        definitions.append(SchemaDefinition(name: name, description: schema.descriptionText, node: .null))
        definitions[index].node = try node(for: schema, hoistNamed: false)
        return .reference(name)
    }

    mutating func node(for schema: DynamicGenerationSchema, hoistNamed: Bool) throws -> SchemaNode {
        if hoistNamed, let name = schema.name {
            if case .typed = schema.body, definitions.contains(where: { $0.name == name }) { return .reference(name) }
            return try hoist(schema, name: name)
        }
        switch schema.body {
        case let .object(name, _, properties, explicitNil):
            var seen = Set<String>()
            var props: [SchemaProperty] = []
            for p in properties {
                guard seen.insert(p.name).inserted else {
                    throw GenerationSchema.SchemaError.duplicateProperty(schema: name, property: p.name, context: .init(debugDescription: "property names must be unique"))
                }
                props.append(SchemaProperty(name: p.name, description: p.description, node: try node(for: p.schema, hoistNamed: true), isOptional: p.isOptional))
            }
            return .object(ObjectSchema(properties: props, representsNilExplicitly: explicitNil))
        case let .union(name, _, choices):
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(schema: name, context: .init(debugDescription: "anyOf needs at least one choice"))
            }
            return .anyOf(try choices.map { try node(for: $0, hoistNamed: true) })
        case let .stringChoices(name, _, choices):
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(schema: name, context: .init(debugDescription: "anyOf needs at least one choice"))
            }
            return .string(StringSchema(choices: choices))
        case let .array(item, lo, hi):
            return .array(items: try node(for: item, hoistNamed: true), minimumCount: lo, maximumCount: hi)
        case let .typed(schema):
            if case .json = schema.root { return GenerationSchema.embed(schema, into: &definitions) }
            for d in schema.definitions where !definitions.contains(where: { $0.name == d.name }) { definitions.append(d) }
            return schema.root
        case let .reference(name):
            if !references.contains(name) { references.append(name) }
            return .reference(name)
        case .null:
            return .null
        }
    }
}
