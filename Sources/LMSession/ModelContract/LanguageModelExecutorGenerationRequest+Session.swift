import Foundation

extension LanguageModelExecutorGenerationRequest {
    /// The executor's view of one model call of the session: the same transcript, tools, schema and options;
    /// `includeSchemaInPrompt` joins the context options, and metadata values become generated content.
    init(_ request: LanguageModelRequest) {
        var contextOptions = request.contextOptions
        contextOptions.includeSchemaInPrompt = request.includeSchemaInPrompt
        self.init(transcript: request.transcript, enabledToolDefinitions: request.toolDefinitions, schema: request.schema,
                  generationOptions: request.options, contextOptions: contextOptions,
                  metadata: request.metadata.mapValues(GeneratedContent.init(metadataValue:)))
    }
}

extension LanguageModelRequest {
    /// The session's form of an executor request, which the package's own generators read (the server models'
    /// request bodies, the local model's conversations).
    package init(_ request: LanguageModelExecutorGenerationRequest) {
        self.init(transcript: request.transcript, options: request.generationOptions, schema: request.schema,
                  includeSchemaInPrompt: request.contextOptions.includeSchemaInPrompt ?? true,
                  toolDefinitions: request.enabledToolDefinitions, contextOptions: request.contextOptions,
                  metadata: request.metadata.mapValues(\.metadataValue))
    }
}

extension GeneratedContent {
    /// A transcript metadata value as generated content: convertible values by their own conversion, others
    /// through their JSON encoding (`null` when they do not encode).
    init(metadataValue value: any Sendable & Codable & Equatable) {
        if let convertible = value as? any ConvertibleToGeneratedContent {
            self = convertible.generatedContent
        } else if let json = try? JSONEncoder().encode(value), let text = String(data: json, encoding: .utf8),
                  let content = try? GeneratedContent(json: text) {
            self = content
        } else {
            self.init(kind: .null)
        }
    }

    /// This content as a transcript metadata value: a `String`, `Bool`, `Int` (a whole number), `Double`, or a
    /// JSON value for arrays, objects and null, which transcript JSON keeps.
    var metadataValue: any Sendable & Codable & Equatable {
        switch kind {
        case .string(let s): s
        case .bool(let b): b
        case .number(let d): d.rounded() == d && abs(d) < 9.0e15 ? Int(d) : d
        default: CodableJSON(value: jsonValue)
        }
    }
}
