import Foundation
import LMImage

// Apple's on-disk shape (FoundationModels.Transcript v1.1, from device dumps and the 27.1 notes):
//   {"type":"FoundationModels.Transcript","version":"1.1","transcript":{"entries":[…]}}
// Entries carry `role` (instructions | user | response | tool), `id` and `contents`
// ([{"type":"text","id","text"} | {"type":"structure","id","structure":{"source","content"}}]), plus per role:
// instructions `tools` ([{"type":"function","function":{"name","description","parameters"}}]); user `options`
// and `responseFormat` ({"type":"jsonSchema","jsonSchema":{"name","schema"}}); response `assets`, or
// `toolCalls` ([{"id","name","arguments":<JSON text>}]) for a tool-calls entry; tool `toolName`, `toolCallID`.
// Apple 27 additions, in our spelling (Apple's JSON for them is not known): reasoning entries (role `reasoning`,
// `contents`, and `signature` as base64); on a user entry `contextOptions` ({"includeSchemaInPrompt": Bool,
// "reasoningLevel": "light" | "moderate" | "deep" | {"custom": String}}) and `metadata` (an object; also on response
// and reasoning entries and on each call of `toolCalls`), and the option
// key `toolCallingMode` ("allowed" | "required" | "disallowed"). Each is left out when unset, so a transcript
// without them encodes as 26 wrote it, and 26 dumps (which have none) decode unchanged. Attachment segments:
// `{"type": "attachment", "id", "label", "attachment": {"type": "image", "contentType", "data": <base64>, "url"}}`.
// Our additions, ignored by decoders that do not know them: `structure.contentJSON` keeps the content's key
// order (JSON coders lose it), and the option keys `greedy`/`topP` (Apple's spelling for those is unknown).

extension Transcript: Codable {
    private enum TopKeys: String, CodingKey { case type, version, transcript }
    private enum BodyKeys: String, CodingKey { case entries }
    static let typeName = "FoundationModels.Transcript"

    public init(from decoder: any Decoder) throws {
        let top = try decoder.container(keyedBy: TopKeys.self)
        let type = try top.decodeIfPresent(String.self, forKey: .type)
        if let type, type != Self.typeName {
            throw DecodingError.dataCorruptedError(forKey: .type, in: top, debugDescription: "expected \"\(Self.typeName)\", found \"\(type)\"")
        }
        let version = (try? top.decode(String.self, forKey: .version)) ?? (try? top.decode(Int.self, forKey: .version)).map(String.init) ?? "1"
        guard version == "1" || version.hasPrefix("1.") else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: top, debugDescription: "unsupported transcript version \(version)")
        }
        let body = try top.nestedContainer(keyedBy: BodyKeys.self, forKey: .transcript)
        let coded = try body.decode([EntryCoding].self, forKey: .entries)
        self.init(entries: try coded.enumerated().map { index, entry in try entry.entry(at: index) })
    }

    public func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: TopKeys.self)
        try top.encode(Self.typeName, forKey: .type)
        try top.encode("1.1", forKey: .version)
        var body = top.nestedContainer(keyedBy: BodyKeys.self, forKey: .transcript)
        try body.encode(entries.map(EntryCoding.init), forKey: .entries)
    }
}

/// One entry as Apple encodes it; optional fields are omitted when absent.
private struct EntryCoding: Codable {
    var role: String
    var id: String
    var contents: [SegmentCoding]?
    var tools: [ToolCoding]?
    var options: OptionsCoding?
    var responseFormat: ResponseFormatCoding?
    var contextOptions: ContextOptionsCoding?
    var metadata: MetadataCoding?
    var toolCalls: [ToolCallCoding]?
    var assets: [String]?
    var toolName: String?
    var toolCallID: String?
    var signature: String?

    init(_ entry: Transcript.Entry) {
        switch entry {
        case .instructions(let e):
            self.init(role: "instructions", id: e.id, contents: e.segments.map(SegmentCoding.init),
                      tools: e.toolDefinitions.isEmpty ? nil : e.toolDefinitions.map(ToolCoding.init))
        case .prompt(let e):
            self.init(role: "user", id: e.id, contents: e.segments.map(SegmentCoding.init),
                      options: OptionsCoding(e.options), responseFormat: e.responseFormat.map(ResponseFormatCoding.init))
            contextOptions = e.contextOptions == ContextOptions() ? nil : ContextOptionsCoding(e.contextOptions)
            metadata = e.metadata.isEmpty ? nil : MetadataCoding(values: e.metadata)
        case .toolCalls(let e):
            self.init(role: "response", id: e.id, toolCalls: e.map(ToolCallCoding.init))
        case .toolOutput(let e):
            self.init(role: "tool", id: e.id, contents: e.segments.map(SegmentCoding.init), toolName: e.toolName, toolCallID: e.id)
        case .response(let e):
            self.init(role: "response", id: e.id, contents: e.segments.map(SegmentCoding.init), assets: e.assetIDs)
            metadata = e.metadata.isEmpty ? nil : MetadataCoding(values: e.metadata)
        case .reasoning(let e):
            self.init(role: "reasoning", id: e.id, contents: e.segments.map(SegmentCoding.init))
            signature = e.signature?.base64EncodedString()
            metadata = e.metadata.isEmpty ? nil : MetadataCoding(values: e.metadata)
        }
    }

    private init(role: String, id: String, contents: [SegmentCoding]? = nil, tools: [ToolCoding]? = nil,
                 options: OptionsCoding? = nil, responseFormat: ResponseFormatCoding? = nil,
                 toolCalls: [ToolCallCoding]? = nil, assets: [String]? = nil, toolName: String? = nil, toolCallID: String? = nil) {
        self.role = role; self.id = id; self.contents = contents; self.tools = tools; self.options = options
        self.responseFormat = responseFormat; self.toolCalls = toolCalls; self.assets = assets
        self.toolName = toolName; self.toolCallID = toolCallID
    }

    func entry(at index: Int) throws -> Transcript.Entry {
        let segments = try (contents ?? []).map { try $0.segment() }
        switch role {
        case "instructions":
            return .instructions(Transcript.Instructions(id: id, segments: segments, toolDefinitions: (tools ?? []).map(\.definition)))
        case "user":
            return .prompt(Transcript.Prompt(id: id, metadata: metadata?.values ?? [:], segments: segments,
                                             options: try options?.options() ?? GenerationOptions(),
                                             responseFormat: responseFormat.map { Transcript.ResponseFormat(schema: $0.jsonSchema.schema) },
                                             contextOptions: try contextOptions?.contextOptions() ?? ContextOptions()))
        case "response":
            if let toolCalls, !toolCalls.isEmpty {
                return .toolCalls(Transcript.ToolCalls(id: id, try toolCalls.map { try $0.call(entry: index) }))
            }
            var response = Transcript.Response(id: id, assetIDs: assets ?? [], segments: segments)
            response.metadata = metadata?.values ?? [:]
            return .response(response)
        case "reasoning":
            return .reasoning(Transcript.Reasoning(id: id, metadata: metadata?.values ?? [:], segments: segments,
                                                   signature: signature.flatMap { Data(base64Encoded: $0) }))
        case "tool":
            return .toolOutput(Transcript.ToolOutput(id: toolCallID ?? id, toolName: toolName ?? "", segments: segments))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "transcript entry \(index): unknown role \"\(role)\""))
        }
    }
}

private struct SegmentCoding: Codable {
    struct Structure: Codable {
        var source: String
        var content: CodableJSON
        var contentJSON: String?
    }
    /// An attachment (ours; Apple's JSON for it is not known): `{"type": "image", "contentType", "data": <base64>, "url",
    /// "orientation": 1-8}` (`orientation` left out for `.up`).
    struct AttachmentBody: Codable {
        var type: String
        var contentType: String?
        var data: String?
        var url: URL?
        /// Decoded as any integer, so a value out of 1-8 gets its own message.
        var orientation: Int?
    }
    var type: String
    var id: String
    var text: String?
    var structure: Structure?
    var label: String?
    var attachment: AttachmentBody?

    init(_ segment: Transcript.Segment) {
        switch segment {
        case .text(let s):
            self.type = "text"; self.id = s.id; self.text = s.content
        case .structure(let s):
            self.type = "structure"; self.id = s.id
            self.structure = Structure(source: s.source, content: CodableJSON(value: s.content.jsonValue), contentJSON: s.content.jsonString)
        case .attachment(let s):
            self.type = "attachment"; self.id = s.id; self.label = s.label
            switch s.content {
            case .image(let image):
                attachment = AttachmentBody(type: "image", contentType: image.contentType, data: image.data?.base64EncodedString(), url: image.url,
                                            orientation: image.orientation == .up ? nil : Int(image.orientation.rawValue))
            }
        }
    }

    func segment() throws -> Transcript.Segment {
        switch type {
        case "text":
            return .text(Transcript.TextSegment(id: id, content: text ?? ""))
        case "structure":
            guard let structure else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "structure segment \(id) has no \"structure\""))
            }
            let content = (structure.contentJSON.flatMap { try? GeneratedContent(json: $0) }) ?? GeneratedContent(structure.content.value)
            return .structure(Transcript.StructuredSegment(id: id, source: structure.source, content: content))
        case "attachment":
            guard let attachment, attachment.type == "image" else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "attachment segment \(id): expected an \"attachment\" of type \"image\""))
            }
            var data: Data?
            if let text = attachment.data {
                guard let bytes = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "attachment segment \(id): \"data\" is not base64"))
                }
                data = bytes
            }
            guard attachment.data != nil || attachment.url != nil else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "attachment segment \(id): an image needs \"data\" or \"url\""))
            }
            var orientation = ImageOrientation.up
            if let raw = attachment.orientation {
                guard let whole = UInt8(exactly: raw), let value = ImageOrientation(rawValue: whole) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription:
                        "attachment segment \(id): \"orientation\" \(raw) is not one of 1-8 (the EXIF orientation values)"))
                }
                orientation = value
            }
            let image = Transcript.ImageAttachment(url: attachment.url, data: data, contentType: attachment.contentType, orientation: orientation)
            return .attachment(Transcript.AttachmentSegment(id: id, content: .image(image), label: label))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "segment \(id): unknown type \"\(type)\""))
        }
    }
}

private struct ToolCoding: Codable {
    struct Function: Codable {
        var name: String
        var description: String
        var parameters: GenerationSchema
    }
    var type: String
    var function: Function

    init(_ definition: Transcript.ToolDefinition) {
        type = "function"
        function = Function(name: definition.name, description: definition.description, parameters: definition.storedParameters)
    }

    var definition: Transcript.ToolDefinition {
        Transcript.ToolDefinition(name: function.name, description: function.description, parameters: function.parameters)
    }
}

private struct ToolCallCoding: Codable {
    var id: String
    var name: String
    /// The arguments as JSON text (Apple encodes a string here, not an object).
    var arguments: String
    /// Apple 27's call metadata (our spelling), left out when empty.
    var metadata: MetadataCoding?

    init(_ call: Transcript.ToolCall) {
        id = call.id; name = call.toolName; arguments = call.arguments.jsonString
        metadata = call.metadata.isEmpty ? nil : MetadataCoding(values: call.metadata)
    }

    func call(entry index: Int) throws -> Transcript.ToolCall {
        do {
            return Transcript.ToolCall(id: id, metadata: metadata?.values ?? [:], toolName: name, arguments: try GeneratedContent(json: arguments))
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "transcript entry \(index): tool call \(id) arguments are not JSON: \(error)"))
        }
    }
}

private struct ResponseFormatCoding: Codable {
    struct JSONSchema: Codable {
        var name: String
        var schema: GenerationSchema
    }
    var type: String
    var jsonSchema: JSONSchema

    init(_ format: Transcript.ResponseFormat) {
        type = "jsonSchema"
        jsonSchema = JSONSchema(name: format.name, schema: format.schema)
    }
}

/// Generation options as a flat object (`{}` when all default), the keys Apple's capture shows:
/// `temperature`, `maximumResponseTokens`, `topK`, `randomSeed`; ours: `topP`, `greedy`, `toolCallingMode`.
private struct OptionsCoding: Codable {
    var temperature: Double?
    var maximumResponseTokens: Int?
    var topK: Int?
    var topP: Double?
    var randomSeed: UInt64?
    var greedy: Bool?
    var toolCallingMode: String?

    init(_ options: GenerationOptions) {
        temperature = options.temperature
        maximumResponseTokens = options.maximumResponseTokens
        toolCallingMode = options.toolCallingMode.map { mode in
            switch mode.kind {
            case .allowed: "allowed"
            case .required: "required"
            case .disallowed: "disallowed"
            }
        }
        switch options.storedSamplingMode?.mode {
        case .greedy: greedy = true
        case let .topK(k, seed): topK = k; randomSeed = seed
        case let .nucleus(p, seed): topP = p; randomSeed = seed
        case nil: break
        }
    }

    func options() throws -> GenerationOptions {
        var options = GenerationOptions(temperature: temperature, maximumResponseTokens: maximumResponseTokens)
        if greedy == true { options.storedSamplingMode = .greedy }
        else if let topK { options.storedSamplingMode = .random(top: topK, seed: randomSeed) }
        else if let topP { options.storedSamplingMode = .random(probabilityThreshold: topP, seed: randomSeed) }
        switch toolCallingMode {
        case nil: break
        case "allowed": options.toolCallingMode = .allowed
        case "required": options.toolCallingMode = .required
        case "disallowed": options.toolCallingMode = .disallowed
        case let other?: throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown toolCallingMode \"\(other)\""))
        }
        return options
    }
}
