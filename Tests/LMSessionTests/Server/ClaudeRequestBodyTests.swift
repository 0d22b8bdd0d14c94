import Foundation
import LMSession
import Testing

/// The Messages API body built from a session's request: exact text for the common shapes, and which fields a
/// model's capabilities let through.
@Suite struct ClaudeRequestBodyTests {
    static let plain = ClaudeModel(id: "claude-test", capabilities: .init())
    static let full = ClaudeModel(id: "claude-full", capabilities: .init(samplingParams: true, effortLevels: [.low, .high, .xhigh],
                                                                          adaptiveThinking: true, structuredOutput: true, imageInput: true))

    static func transcript(_ entries: Transcript.Entry...) -> Transcript { Transcript(entries: entries) }
    static func text(_ s: String) -> [Transcript.Segment] { [.text(.init(content: s))] }
    static func instructions(_ s: String) -> Transcript.Entry { .instructions(.init(segments: text(s), toolDefinitions: [])) }
    static func prompt(_ s: String) -> Transcript.Entry { .prompt(.init(segments: text(s))) }

    static func body(_ request: LanguageModelRequest, _ model: ClaudeModel = plain, effort: ClaudeModel.Effort? = nil,
                     serverTools: Set<ClaudeServerTool> = []) throws -> ClaudeRequestBody {
        try ClaudeRequestBody(request, settings: .init(model: model, fixedEffort: effort, serverTools: serverTools))
    }

    static func object(_ body: ClaudeRequestBody) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(body.text.utf8)) as? [String: Any])
    }

    @Test func `instructions and a prompt become system and one user message`() throws {
        let request = LanguageModelRequest(transcript: Self.transcript(Self.instructions("Answer briefly."), Self.prompt("Capital of France?")),
                                           options: GenerationOptions(maximumResponseTokens: 64))
        #expect(try Self.body(request).text == #"{"model":"claude-test","max_tokens":64,"system":"Answer briefly.","messages":[{"role":"user","content":[{"type":"text","text":"Capital of France?"}]}],"stream":true}"#)
    }

    @Test func `max_tokens defaults to 16000 because the API requires it`() throws {
        let body = try Self.object(Self.body(LanguageModelRequest(transcript: Self.transcript(Self.prompt("Hi")))))
        #expect(body["max_tokens"] as? Int == 16_000)
        #expect(body["system"] == nil)
    }

    @Test func `a tool round becomes tool_use and tool_result blocks, parallel results in one user message`() throws {
        let calls = Transcript.ToolCalls([
            Transcript.ToolCall(id: "toolu_1", toolName: "get_weather", arguments: try GeneratedContent(json: #"{"city":"Oslo"}"#)),
            Transcript.ToolCall(id: "toolu_2", toolName: "get_weather", arguments: try GeneratedContent(json: #"{"city":"Rome"}"#)),
        ])
        let transcript = Self.transcript(
            Self.prompt("Weather in Oslo and Rome?"), .toolCalls(calls),
            .toolOutput(.init(id: "toolu_1", toolName: "get_weather", segments: Self.text("snow"))),
            .toolOutput(.init(id: "toolu_2", toolName: "get_weather", segments: Self.text("sun"))))
        let thinking = #"{"type":"thinking","thinking":"Two cities.","signature":"c2ln"}"#
        let body = try ClaudeRequestBody(LanguageModelRequest(transcript: transcript, options: GenerationOptions(maximumResponseTokens: 10)),
                                         settings: .init(model: Self.plain), replay: ["toolu_1": [try Self.jsonValue(thinking)]])
        #expect(body.text == #"{"model":"claude-test","max_tokens":10,"messages":["#
            + #"{"role":"user","content":[{"type":"text","text":"Weather in Oslo and Rome?"}]},"#
            + #"{"role":"assistant","content":["# + thinking + #",{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"}},{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Rome"}}]},"#
            + #"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"snow"},{"type":"tool_result","tool_use_id":"toolu_2","content":"sun"}]}"#
            + #"],"stream":true}"#)
    }

    static func jsonValue(_ text: String) throws -> ClaudeRequestBody.JSON { try ClaudeRequestBody.parseJSON(text) }

    @Test func `earlier responses are assistant messages and empty text is left out`() throws {
        let transcript = Self.transcript(Self.prompt("Hi"), .response(.init(assetIDs: [], segments: Self.text(""))),
                                         Self.prompt("Again"), .response(.init(assetIDs: [], segments: Self.text("Hello."))), Self.prompt("Bye"))
        let messages = try #require(Self.object(Self.body(LanguageModelRequest(transcript: transcript)))["messages"] as? [[String: Any]])
        // The empty response adds nothing, so the two prompts around it merge into one user message.
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user"])
        #expect((messages[0]["content"] as? [Any])?.count == 2)
    }

    @Test func `sampling is sent only to a model that takes it: greedy as top_k 1, nucleus without temperature`() throws {
        let transcript = Self.transcript(Self.prompt("Hi"))
        let greedy = LanguageModelRequest(transcript: transcript, options: GenerationOptions(samplingMode: .greedy, temperature: 1.7))
        let full = try Self.object(Self.body(greedy, Self.full))
        #expect(full["top_k"] as? Int == 1)
        #expect(full["temperature"] as? Double == 1.0) // clamped to the API's 0...1
        let plain = try Self.object(Self.body(greedy, Self.plain))
        #expect(plain["top_k"] == nil && plain["temperature"] == nil)
        let nucleus = LanguageModelRequest(transcript: transcript, options: GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9), temperature: 0.5))
        let sent = try Self.object(Self.body(nucleus, Self.full))
        #expect(sent["top_p"] as? Double == 0.9)
        #expect(sent["temperature"] == nil)
    }

    @Test func `tool choice follows the tool-calling mode, and only when there are tools`() throws {
        let tool = Transcript.ToolDefinition(tool: GetWeather())
        func choice(_ mode: GenerationOptions.ToolCallingMode?, tools: [Transcript.ToolDefinition] = [tool], model: ClaudeModel = Self.plain) throws -> String? {
            let request = LanguageModelRequest(transcript: Self.transcript(Self.prompt("Hi")), options: GenerationOptions(toolCallingMode: mode), toolDefinitions: tools)
            return (try Self.object(Self.body(request, model))["tool_choice"] as? [String: Any])?["type"] as? String
        }
        #expect(try choice(nil) == nil)
        #expect(try choice(.allowed) == nil)
        #expect(try choice(.required) == "any")
        #expect(try choice(.disallowed) == "none")
        #expect(try choice(.required, tools: []) == nil)
        let unforced = ClaudeModel(id: "m", capabilities: .init(forcedToolUse: false))
        #expect(throws: ClaudeError.forcedToolUseUnsupported) { _ = try choice(.required, model: unforced) }
    }

    @Test func `a tool's schema is sent as input_schema without title or x-order`() throws {
        let request = LanguageModelRequest(transcript: Self.transcript(Self.prompt("Hi")), toolDefinitions: [Transcript.ToolDefinition(tool: GetWeather())])
        let tools = try #require(Self.object(Self.body(request))["tools"] as? [[String: Any]])
        #expect(tools.count == 1)
        #expect(tools[0]["name"] as? String == "get_weather")
        #expect(tools[0]["description"] as? String == "Gets today's weather in a city.")
        let schema = try #require(tools[0]["input_schema"] as? [String: Any])
        #expect(schema["type"] as? String == "object")
        #expect(schema["required"] as? [String] == ["city"])
        #expect(schema["additionalProperties"] as? Bool == false)
        #expect(schema["x-order"] == nil && schema["title"] == nil)
    }

    @Test func `a schema needs structured output: sent as output_config.format, or thrown before sending`() throws {
        let request = LanguageModelRequest(transcript: Self.transcript(Self.prompt("Plan")), schema: GetWeather.Weather.generationSchema)
        #expect {
            _ = try Self.body(request, Self.plain)
        } throws: { error in
            if case LanguageModelError.unsupportedGenerationGuide = error { true } else { false }
        }
        let config = try #require(Self.object(Self.body(request, Self.full, effort: .xhigh))["output_config"] as? [String: Any])
        #expect(config["effort"] as? String == "xhigh")
        let format = try #require(config["format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let schema = try #require(format["schema"] as? [String: Any])
        #expect(Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? []) == ["temperatureC", "condition"])
        #expect(schema["additionalProperties"] as? Bool == false)
    }

    @Test func `server tools follow the session's tools, sorted, with their betas; an empty allowlist is never sent`() throws {
        let request = LanguageModelRequest(transcript: Self.transcript(Self.prompt("Hi")), toolDefinitions: [Transcript.ToolDefinition(tool: GetWeather())])
        let body = try Self.body(request, serverTools: [.webSearch(domains: .blocking(["spam.example"]), maxUses: 3), .codeExecution,
                                                        .webFetch(domains: .allowing([]))])
        let tools = try #require(Self.object(body)["tools"] as? [[String: Any]])
        #expect(tools.map { $0["name"] as? String } == ["get_weather", "code_execution", "web_search"])
        #expect(tools[2]["type"] as? String == "web_search_20250305")
        #expect(tools[2]["blocked_domains"] as? [String] == ["spam.example"])
        #expect(tools[2]["max_uses"] as? Int == 3)
        #expect(body.betas == ["code-execution-2025-08-25"])
    }

    @Test func `request metadata's user_id is sent as metadata.user_id, other keys are not`() throws {
        let request = LanguageModelRequest(transcript: Self.transcript(Self.prompt("Hi")), metadata: ["user_id": "user-42", "trace": 7])
        let body = try Self.object(Self.body(request))
        #expect(body["metadata"] as? [String: String] == ["user_id": "user-42"])
        #expect(try Self.object(Self.body(LanguageModelRequest(transcript: Self.transcript(Self.prompt("Hi")))))["metadata"] == nil)
    }
}
