import Foundation
import LMGrammar

/// Builds the body of a `POST /chat/completions` request from a ``LanguageModelRequest``.
///
/// Messages: instructions -> `system`, prompt -> `user` (with images: `content` as text and `image_url` parts), response -> `assistant` (a structured response as
/// its JSON text), tool calls -> `assistant` with `tool_calls` (arguments as JSON text), tool output ->
/// `tool` with `tool_call_id`. Options: `temperature`; greedy sampling -> `temperature: 0` (llama.cpp then
/// samples greedily; no `top_k`, which OpenAI rejects); `random(top:)` -> `top_k`; `random(probabilityThreshold:)`
/// -> `top_p`; the seed -> `seed`; `maximumResponseTokens` -> `max_tokens`. Tools -> `tools` with
/// `tool_choice` from ``GenerationOptions/toolCallingMode`` (`auto`, `required`, `none`). A schema ->
/// `response_format: {type: json_schema, json_schema: {name, strict: true, schema}}`. A reasoning level ->
/// `reasoning_effort` and/or `chat_template_kwargs.enable_thinking` (``OpenAICompatibleLanguageModel/ReasoningParameters``).
enum OpenAIChatRequest {
    static func body(for request: LanguageModelRequest, model: String,
                     reasoning: OpenAICompatibleLanguageModel.ReasoningParameters = []) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("model", .text(model)),
            ("messages", .items(request.transcript.flatMap(messages(for:)))),
            ("stream", .bool(true)),
            ("stream_options", .fields([("include_usage", .bool(true))])),
        ]
        members += sampling(request.options)
        members += Self.reasoning(request.contextOptions.reasoningLevel, reasoning)
        if !request.toolDefinitions.isEmpty {
            members.append(("tools", .items(request.toolDefinitions.map(tool))))
            let choice = switch request.options.toolCallingMode?.kind ?? .allowed {
            case .allowed: "auto"
            case .required: "required"
            case .disallowed: "none"
            }
            members.append(("tool_choice", .text(choice)))
        }
        if let schema = request.schema {
            members.append(("response_format", .fields([
                ("type", .text("json_schema")),
                ("json_schema", .fields([
                    ("name", .text(schemaName(schema))),
                    ("strict", .bool(true)),
                    ("schema", schema.jsonValue),
                ])),
            ])))
        }
        return .fields(members)
    }

    static func sampling(_ options: GenerationOptions) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        switch options.samplingMode?.kind {
        case .greedy?:
            members.append(("temperature", .double(0)))
        case let .randomTopK(k, seed)?:
            options.temperature.map { members.append(("temperature", .double($0))) }
            members.append(("top_k", .integer(k)))
            seed.map { members.append(("seed", .integer(Int(truncatingIfNeeded: $0 & 0x7fff_ffff)))) }
        case let .randomProbabilityThreshold(p, seed)?:
            options.temperature.map { members.append(("temperature", .double($0))) }
            members.append(("top_p", .double(p)))
            seed.map { members.append(("seed", .integer(Int(truncatingIfNeeded: $0 & 0x7fff_ffff)))) }
        case nil:
            options.temperature.map { members.append(("temperature", .double($0))) }
        }
        options.maximumResponseTokens.map { members.append(("max_tokens", .integer($0))) }
        return members
    }

    static func messages(for entry: Transcript.Entry) -> [JSONValue] {
        switch entry {
        // A session with tools and no instructions has an instructions entry listing only the tools
        // (they go in `tools`): no empty system message for it.
        case .instructions(let e): text(e.segments).isEmpty ? [] : [message("system", text(e.segments))]
        case .prompt(let e): [e.segments.contains(where: \.isAttachment) ? userParts(e.segments) : message("user", text(e.segments))]
        case .response(let e): [message("assistant", text(e.segments))]
        // Chat Completions has no standard field for earlier reasoning: it is not sent back.
        case .reasoning: []
        case .toolOutput(let e): [.fields([("role", .text("tool")), ("tool_call_id", .text(e.id)), ("content", .text(text(e.segments)))])]
        case .toolCalls(let calls):
            [.fields([
                ("role", .text("assistant")),
                ("content", .null),
                ("tool_calls", .items(calls.map { call in
                    .fields([("id", .text(call.id)), ("type", .text("function")),
                             ("function", .fields([("name", .text(call.toolName)), ("arguments", .text(call.arguments.jsonString))]))])
                })),
            ])]
        }
    }

    private static func message(_ role: String, _ content: String) -> JSONValue {
        .fields([("role", .text(role)), ("content", .text(content))])
    }

    private static func text(_ segments: [Transcript.Segment]) -> String {
        segments.map { segment in
            switch segment {
            case .text(let t): t.content
            case .structure(let s): s.content.jsonString
            case .attachment(let a): a.description
            }
        }.joined(separator: "\n")
    }

    /// A user message whose `content` is parts: `{"type": "text", "text"}` for each run of text and structured
    /// segments (joined by newlines), `{"type": "image_url", "image_url": {"url": "data:<mime>;base64,<bytes>"}}`
    /// for each image. The session has read every image's bytes before the request (an image without them, which
    /// only a hand-made request can hold, is sent as its description).
    private static func userParts(_ segments: [Transcript.Segment]) -> JSONValue {
        var parts: [JSONValue] = []
        var run: [Transcript.Segment] = []
        func flush() {
            if !run.isEmpty { parts.append(.fields([("type", .text("text")), ("text", .text(text(run)))])) }
            run = []
        }
        for segment in segments {
            guard case .attachment(let attachment) = segment, case .image(let image) = attachment.content,
                  let (data, mime) = image.uprightFile else { run.append(segment); continue }
            flush()
            parts.append(.fields([("type", .text("image_url")),
                                  ("image_url", .fields([("url", .text("data:\(mime);base64," + data.base64EncodedString()))]))]))
        }
        flush()
        return .fields([("role", .text("user")), ("content", .items(parts))])
    }

    private static func tool(_ definition: Transcript.ToolDefinition) -> JSONValue {
        .fields([("type", .text("function")), ("function", .fields([
            ("name", .text(definition.name)),
            ("description", .text(definition.description)),
            ("parameters", definition.parameters.jsonValue),
        ]))])
    }

    /// OpenAI wants `^[a-zA-Z0-9_-]{1,64}$`.
    private static func schemaName(_ schema: GenerationSchema) -> String {
        let name = String((schema.title ?? "response").unicodeScalars
            .map { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "_" || $0 == "-" ? Character($0) : "_" }.prefix(64))
        return name.isEmpty ? "response" : name
    }
}
