import Foundation

extension Transcript {
    /// The instructions entry: text for the whole session and the tools the model may call.
    public struct Instructions: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var segments: [Segment]
        /// Tools whose definitions the model sees (those whose `includesSchemaInInstructions` is true).
        public var toolDefinitions: [ToolDefinition]

        public init(id: String = UUID().uuidString, segments: [Segment], toolDefinitions: [ToolDefinition]) {
            self.id = id
            self.segments = segments
            self.toolDefinitions = toolDefinitions
        }

        public var description: String {
            let tools = toolDefinitions.map(\.name).joined(separator: ", ")
            return "Instructions: " + segments.descriptionText + (tools.isEmpty ? "" : " [tools: \(tools)]")
        }
    }

    /// A prompt entry: what the user asked, with the options and response format of that turn.
    public struct Prompt: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var segments: [Segment]
        public var options: GenerationOptions
        /// The schema the response had to follow; `nil` for a text response.
        public var responseFormat: ResponseFormat?
        /// The context options the request was made with (Apple 27; `respond(…, contextOptions:)`).
        public var contextOptions: ContextOptions
        /// The metadata the request was made with (Apple 27; `respond(…, metadata:)`). Compared by value; after a
        /// JSON round trip a value comes back as JSON's type (see docs/differences.md, "Transcript JSON").
        public var metadata: [String: any Sendable & Codable & Equatable]

        public init(id: String = UUID().uuidString, segments: [Segment], options: GenerationOptions = GenerationOptions(), responseFormat: ResponseFormat? = nil) {
            self.id = id
            self.segments = segments
            self.options = options
            self.responseFormat = responseFormat
            self.contextOptions = ContextOptions()
            self.metadata = [:]
        }

        public var description: String { "Prompt: " + segments.descriptionText }

        public static func == (a: Prompt, b: Prompt) -> Bool {
            a.id == b.id && a.segments == b.segments && a.options == b.options && a.responseFormat == b.responseFormat
                && a.contextOptions == b.contextOptions && Transcript.metadataEqual(a.metadata, b.metadata)
        }
    }

    /// The tool calls the model made in one step; several calls are parallel calls.
    public struct ToolCalls: Sendable, Identifiable, Equatable, CustomStringConvertible, RandomAccessCollection {
        public var id: String
        var calls: [ToolCall]

        public init<S: Sequence>(id: String = UUID().uuidString, _ calls: S) where S.Element == ToolCall {
            self.id = id
            self.calls = Array(calls)
        }

        public var startIndex: Int { calls.startIndex }
        public var endIndex: Int { calls.endIndex }
        public subscript(position: Int) -> ToolCall { calls[position] }

        public var description: String { "ToolCalls: " + calls.map(\.description).joined(separator: "; ") }
    }

    /// One call of a tool with the arguments the model generated.
    public struct ToolCall: Sendable, Identifiable, Equatable, CustomStringConvertible {
        /// The call's id; the matching ``ToolOutput`` carries the same id.
        public var id: String
        public var toolName: String
        public var arguments: GeneratedContent
        /// Values the model's provider attached to the call (Apple 27); empty for the models in this package.
        /// Compared by value, kept in transcript JSON.
        public var metadata: [String: any Sendable & Codable & Equatable]

        public init(id: String, toolName: String, arguments: GeneratedContent) {
            self.id = id
            self.toolName = toolName
            self.arguments = arguments
            self.metadata = [:]
        }

        public var description: String { "\(toolName)(\(arguments.jsonString))" }

        public static func == (a: ToolCall, b: ToolCall) -> Bool {
            a.id == b.id && a.toolName == b.toolName && a.arguments == b.arguments && Transcript.metadataEqual(a.metadata, b.metadata)
        }
    }

    /// What a tool returned for the call with the same `id`.
    public struct ToolOutput: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        public var toolName: String
        public var segments: [Segment]

        public init(id: String, toolName: String, segments: [Segment]) {
            self.id = id
            self.toolName = toolName
            self.segments = segments
        }

        public var description: String { "ToolOutput \(toolName): " + segments.descriptionText }
    }

    /// The model's answer.
    public struct Response: Sendable, Identifiable, Equatable, CustomStringConvertible {
        public var id: String
        /// Identifiers of the model assets that produced the response (our model's name).
        public var assetIDs: [String]
        public var segments: [Segment]
        /// Values the model's provider attached to the response (Apple 27, read-only as Apple's); empty for the
        /// models in this package. Compared by value, kept in transcript JSON.
        public internal(set) var metadata: [String: any Sendable & Codable & Equatable]

        public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Segment]) {
            self.id = id
            self.assetIDs = assetIDs
            self.segments = segments
            self.metadata = [:]
        }

        public var description: String { "Response: " + segments.descriptionText }

        public static func == (a: Response, b: Response) -> Bool {
            a.id == b.id && a.assetIDs == b.assetIDs && a.segments == b.segments && Transcript.metadataEqual(a.metadata, b.metadata)
        }
    }
}

extension [Transcript.Segment] {
    /// The segments' descriptions joined by newlines: what the model sees of them.
    var descriptionText: String { map(\.description).joined(separator: "\n") }
}

extension Transcript {
    /// Whether two metadata dictionaries hold the same keys with equal values (of the same type).
    static func metadataEqual(_ a: [String: any Sendable & Codable & Equatable], _ b: [String: any Sendable & Codable & Equatable]) -> Bool {
        func equal<Value: Equatable>(_ value: Value, _ other: any Equatable) -> Bool { (other as? Value) == value }
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
    }
}
