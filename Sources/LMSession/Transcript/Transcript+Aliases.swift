import Foundation

// Apple 27 spellings on transcript types.

extension Transcript.StructuredSegment {
    /// The name of the schema the content follows (27's name for ``source``).
    public var schemaName: String {
        get { source }
        set { source = newValue }
    }

    /// Creates a structured segment (27 spelling of ``init(id:source:content:)``).
    public init(id: String = UUID().uuidString, schemaName: String, content: GeneratedContent) {
        self.init(id: id, source: schemaName, content: content)
    }
}

extension Transcript.ToolDefinition {
    /// The schema of the tool's arguments.
    public var parameters: GenerationSchema {
        get { storedParameters }
        set { storedParameters = newValue }
    }
}

extension Transcript.Prompt {
    /// Creates a prompt entry with its request's metadata and context options (Apple 27).
    public init(id: String = UUID().uuidString, metadata: [String: any Sendable & Codable & Equatable] = [:], segments: [Transcript.Segment],
                options: GenerationOptions = GenerationOptions(), responseFormat: Transcript.ResponseFormat? = nil,
                contextOptions: ContextOptions = ContextOptions()) {
        self.init(id: id, segments: segments, options: options, responseFormat: responseFormat)
        self.metadata = metadata
        self.contextOptions = contextOptions
    }
}

extension Transcript.Response {
    /// Creates a response entry with metadata (Apple 27). `assetIDs` is empty.
    public init(id: String = UUID().uuidString, metadata: [String: any Sendable & Codable & Equatable] = [:], segments: [Transcript.Segment]) {
        self.init(id: id, assetIDs: [], segments: segments)
        self.metadata = metadata
    }
}

extension Transcript.ToolCall {
    /// Creates a tool call with metadata (Apple 27).
    public init(id: String, metadata: [String: any Sendable & Codable & Equatable], toolName: String, arguments: GeneratedContent) {
        self.init(id: id, toolName: toolName, arguments: arguments)
        self.metadata = metadata
    }
}
