import LMGrammar

/// The Messages API request body for one model call, built from a ``LanguageModelRequest`` (pure: no I/O).
///
/// Fields: `model`, `max_tokens` (the options' `maximumResponseTokens`, else ``defaultMaxTokens``), `system`
/// (the instructions), `messages` (see `ClaudeRequestBody+Messages.swift`), `tools` (the session's tools, then
/// the server tools by name) and `tool_choice` (only when there are tools: `any` for `.required`, `none` for
/// `.disallowed`), sampling parameters (only when the model takes them), `thinking` (adaptive, when a reasoning
/// level is asked of a model with adaptive thinking and no tool call is forced, which the API rejects with
/// thinking), `output_config` (`effort`: see ``effort(fixed:level:model:)``; `format` for a schema),
/// `metadata.user_id` (from the request metadata's `"user_id"` string) and `stream: true`.
package struct ClaudeRequestBody: Sendable {
    /// The body.
    var json: JSONValue
    /// `anthropic-beta` values the request needs (from server tools), sorted.
    package var betas: [String]

    /// `max_tokens` when the options set none (the API requires the field).
    package static let defaultMaxTokens = 16_000

    /// Settings of the model that shape every request.
    package struct Settings: Sendable {
        var model: ClaudeModel
        var fixedEffort: ClaudeModel.Effort?
        var serverTools: Set<ClaudeServerTool>

        package init(model: ClaudeModel, fixedEffort: ClaudeModel.Effort? = nil, serverTools: Set<ClaudeServerTool> = []) {
            self.model = model
            self.fixedEffort = fixedEffort
            self.serverTools = serverTools
        }
    }

    /// - Parameters:
    ///   - replay: blocks of earlier steps of this request (redacted thinking, server tool activity) to send
    ///     back in front of the tool calls they preceded, keyed by the id of the step's first tool call.
    ///   - continuing: the blocks of a turn the API paused (`pause_turn`), sent as a final assistant message so
    ///     the model continues it.
    /// - Throws: ``LanguageModelError/unsupportedGenerationGuide(_:)`` for a schema on a model without
    ///   structured output (never downgraded to text); ``ClaudeError/forcedToolUseUnsupported`` for
    ///   `.required` on a model without forced tool use.
    package init(_ request: LanguageModelRequest, settings: Settings, replay: [String: [JSONValue]] = [:], continuing: [JSONValue] = []) throws {
        let model = settings.model
        var body: [JSONMember] = [.init(key: "model", value: .text(model.id)),
                                  .init(key: "max_tokens", value: .integer(request.options.maximumResponseTokens ?? Self.defaultMaxTokens))]
        let conversation = Self.messages(from: request.transcript, replay: replay)
        if let system = conversation.system { body.append(.init(key: "system", value: .text(system))) }
        var messages = conversation.messages
        if !continuing.isEmpty {
            messages.append(.members([.init(key: "role", value: .text("assistant")), .init(key: "content", value: .items(continuing))]))
        }
        body.append(.init(key: "messages", value: .items(messages)))

        let serverTools = settings.serverTools.compactMap { tool in tool.definition.map { (tool, $0) } }.sorted { $0.0.name < $1.0.name }
        let tools = request.toolDefinitions.map(Self.toolDefinition) + serverTools.map(\.1)
        if !tools.isEmpty {
            body.append(.init(key: "tools", value: .items(tools)))
            switch request.options.toolCallingMode?.kind ?? .allowed {
            case .allowed: break
            case .required:
                guard model.capabilities.forcedToolUse else { throw ClaudeError.forcedToolUseUnsupported }
                body.append(.init(key: "tool_choice", value: .members([.init(key: "type", value: .text("any"))])))
            case .disallowed:
                body.append(.init(key: "tool_choice", value: .members([.init(key: "type", value: .text("none"))])))
            }
        }
        let level = request.contextOptions.reasoningLevel
        let forcedToolUse = !tools.isEmpty && request.options.toolCallingMode?.kind == .required
        if level != nil, model.capabilities.adaptiveThinking, !forcedToolUse {
            body.append(.init(key: "thinking", value: .members([.init(key: "type", value: .text("adaptive"))])))
        }
        if model.capabilities.samplingParams { body += Self.sampling(request.options) }

        var outputConfig: [JSONMember] = []
        if let effort = Self.effort(fixed: settings.fixedEffort, level: level, model: model) {
            outputConfig.append(.init(key: "effort", value: .text(effort.rawValue)))
        }
        if let schema = request.schema {
            guard model.capabilities.structuredOutput else {
                throw LanguageModelError.unsupportedGenerationGuide(.init(schemaName: schema.formatName.isEmpty ? nil : schema.formatName,
                    debugDescription: "\(model.id) does not support structured output (output_config.format), so it cannot follow the response schema."))
            }
            outputConfig.append(.init(key: "format", value: .members([
                .init(key: "type", value: .text("json_schema")),
                .init(key: "schema", value: Self.strictSchema(schema.jsonValue)),
            ])))
        }
        if !outputConfig.isEmpty { body.append(.init(key: "output_config", value: .members(outputConfig))) }
        // The API's only metadata field; other request metadata has no place on the wire.
        if let user = request.metadata["user_id"] as? String {
            body.append(.init(key: "metadata", value: .members([.init(key: "user_id", value: .text(user))])))
        }
        body.append(.init(key: "stream", value: .bool(true)))
        json = .members(body)
        betas = Set(serverTools.compactMap(\.0.betaHeader)).sorted()
    }

    /// Compact JSON text of the body.
    package var text: String { json.compactText }

    /// The body for `POST /v1/messages/count_tokens`: the same request without the fields that endpoint does
    /// not take (`max_tokens`, `stream`, sampling, `output_config`).
    package var countTokensText: String {
        guard case let .object(members, _) = json else { return text }
        let dropped: Set<String> = ["max_tokens", "stream", "temperature", "top_k", "top_p", "output_config"]
        return JSONValue.members(members.filter { !dropped.contains($0.key) }).compactText
    }

    /// A JSON value as the body holds it (replayed blocks are given in this form).
    package typealias JSON = JSONValue

    /// `text` read as a ``JSON`` value (for replayed blocks kept as text).
    /// - Throws: `JSONParseError` when `text` is not JSON.
    package static func parseJSON(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    // MARK: - Parts

    /// The effort sent: `fixed` when set (checked against the model when it was made); else the reasoning
    /// level's (`light` → `low`, `moderate` → `medium`, `deep` → `high`, `custom` an effort name such as
    /// `"xhigh"` passed through) when the model accepts it. A level the model does not accept is dropped
    /// (a reasoning level is a hint); nil sends no effort (the API's default).
    package static func effort(fixed: ClaudeModel.Effort?, level: ContextOptions.ReasoningLevel?, model: ClaudeModel) -> ClaudeModel.Effort? {
        if let fixed { return fixed }
        let wanted: ClaudeModel.Effort? = switch level {
        case .light?: .low
        case .moderate?: .medium
        case .deep?: .high
        case .custom(let name)?: ClaudeModel.Effort(rawValue: name.lowercased())
        case nil: nil
        }
        return wanted.flatMap { model.capabilities.effortLevels.contains($0) ? $0 : nil }
    }

    /// `temperature` (clamped to the API's 0...1), and the sampling mode: greedy as `top_k: 1`, top-k as
    /// `top_k`, nucleus as `top_p` (then without `temperature`: current models reject the two together).
    /// Seeds have no field in the API and are not sent.
    static func sampling(_ options: GenerationOptions) -> [JSONMember] {
        var members: [JSONMember] = []
        var temperature = options.temperature.map { min(max($0, 0), 1) }
        switch options.samplingMode?.mode {
        case .greedy?: members.append(.init(key: "top_k", value: .integer(1)))
        case let .topK(k, _)?: members.append(.init(key: "top_k", value: .integer(k)))
        case let .nucleus(p, _)?:
            members.append(.init(key: "top_p", value: .double(p)))
            temperature = nil
        case nil: break
        }
        if let temperature { members.insert(.init(key: "temperature", value: .double(temperature)), at: 0) }
        return members
    }

    /// `{name, description, input_schema}` for one of the session's tools.
    static func toolDefinition(_ tool: Transcript.ToolDefinition) -> JSONValue {
        .members([.init(key: "name", value: .text(tool.name)),
                  .init(key: "description", value: .text(tool.description)),
                  .init(key: "input_schema", value: strictSchema(tool.parameters.jsonValue))])
    }

    /// Keys the API's JSON-schema validator takes; everything else (`title`, `x-order`, numeric and length
    /// bounds, `pattern`) is dropped. Dropped guides are still enforced: the session checks a structured
    /// response against the full schema (``LanguageModelDetails/constrainsStructuredOutput`` is false).
    private static let schemaKeys: Set<String> = ["type", "properties", "required", "items", "enum", "const", "anyOf",
                                                  "allOf", "oneOf", "$ref", "$defs", "definitions", "description",
                                                  "format", "additionalProperties"]
    /// Keys whose value maps names to schemas: the names stay, the schemas are cleaned.
    private static let schemaMapKeys: Set<String> = ["properties", "$defs", "definitions"]

    /// `schema` with only ``schemaKeys``, and `additionalProperties: false` on every object (the API requires it).
    static func strictSchema(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case let .object(members, _):
            var kept: [JSONMember] = []
            for member in members where schemaKeys.contains(member.key) {
                if schemaMapKeys.contains(member.key), case let .object(named, _) = member.value {
                    kept.append(.init(key: member.key, value: .members(named.map { .init(key: $0.key, value: strictSchema($0.value)) })))
                } else {
                    kept.append(.init(key: member.key, value: strictSchema(member.value)))
                }
            }
            if schema["type"] == .text("object"), schema["additionalProperties"] == nil {
                kept.append(.init(key: "additionalProperties", value: .bool(false)))
            }
            return .members(kept)
        case let .array(items, _):
            return .items(items.map(strictSchema))
        default:
            return schema
        }
    }
}
