extension Transcript {
    /// A tool as the model sees it: name, description and the schema of its arguments.
    public struct ToolDefinition: Sendable, Equatable {
        public var name: String
        public var description: String
        /// The schema of the tool's arguments (public in Apple's 27 SDK; see `Transcript+Aliases.swift`).
        var storedParameters: GenerationSchema

        public init(name: String, description: String, parameters: GenerationSchema) {
            self.name = name
            self.description = description
            self.storedParameters = parameters
        }

        /// The definition of `tool`: its name, description and parameters schema.
        public init(tool: some Tool) {
            self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
        }

        public static func == (a: ToolDefinition, b: ToolDefinition) -> Bool {
            a.name == b.name && a.description == b.description && a.storedParameters.canonicalJSON == b.storedParameters.canonicalJSON
        }
    }

    /// The schema a response must follow, recorded on the prompt that asked for it.
    public struct ResponseFormat: Sendable, Equatable, CustomStringConvertible {
        let schema: GenerationSchema
        /// The name of the schema (the type's name for a `Generable` type).
        public let name: String

        /// The format of responses of `type`.
        public init<Content: Generable>(type: Content.Type) {
            self.schema = Content.generationSchema
            self.name = String(describing: Content.self)
        }

        /// The format of responses following `schema`.
        public init(schema: GenerationSchema) {
            self.schema = schema
            self.name = schema.formatName
        }

        public var description: String { name }

        public static func == (a: ResponseFormat, b: ResponseFormat) -> Bool {
            a.name == b.name && a.schema.canonicalJSON == b.schema.canonicalJSON
        }
    }
}
