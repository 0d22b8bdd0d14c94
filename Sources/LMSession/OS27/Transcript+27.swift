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
