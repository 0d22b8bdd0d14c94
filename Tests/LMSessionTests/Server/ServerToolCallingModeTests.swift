import Foundation
import LMSession
import Testing
import TestSupport

/// `toolCallingMode: .required` on a server that ignores `tool_choice`: the answer without a tool call is a
/// `GeneratedContent.ParsingError` carrying ``ServerModelError/requiredToolCallMissing(answer:)``, never a
/// response.
@Suite("Server models: required tool calls", .timeLimit(.minutes(2)))
struct ServerToolCallingModeTests {
    static func textAnswer(_ server: String, _ text: String) -> FaultProxy.Fault {
        server == "openai" ? .stream(chunks: OpenAIStreams.text([text]))
            : .stream(chunks: ServerTokenLimitTests.claudeStream([text], stopReason: "end_turn"))
    }

    static let required = GenerationOptions(toolCallingMode: .required)

    @Test("an answer without a tool call under .required is a ParsingError; the same answer is kept when calls are allowed",
          arguments: ["openai", "claude"])
    func requiredWithoutACallThrows(server: String) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(Self.textAnswer(server, "Sunny, I think."), Self.textAnswer(server, "Sunny, I think."))
        let weather = GetWeather()
        let session = LanguageModelSession(model: ServerTokenLimitTests.model(server, proxy), tools: [weather])
        let error = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: "Weather in Oslo?", options: Self.required)
        }
        #expect(error?.underlyingError as? ServerModelError == .requiredToolCallMissing(answer: "Sunny, I think."))
        #expect(error?.rawContent == "Sunny, I think.")
        #expect(error?.debugDescription == "The request requires a tool call (toolCallingMode .required), but the server answered without one: Sunny, I think.")
        #expect(session.transcript.map(\.kindLabel) == ["instructions"])
        // What went out asked for a call: the server ignored it.
        let body = try #require(proxy.requests.first?.json)
        if server == "openai" {
            #expect(body["tool_choice"] as? String == "required")
        } else {
            #expect((body["tool_choice"] as? [String: Any])?["type"] as? String == "any")
        }
        #expect(try await session.respond(to: "Weather in Oslo?").content == "Sunny, I think.")
        #expect(weather.cities.values.isEmpty)
    }
}

/// llama-server (b11312) with SmolLM2 ignores `tool_choice: "required"` (and `/v1/messages`' `tool_choice: any`): it
/// answers in text. The request fails as above instead of returning that text as the answer.
@Suite("Required tool calls on llama-server", .enabled(if: LlamaServer.enabled), .timeLimit(.minutes(5)))
struct ServerToolCallingModeRealTests {
    @Test(arguments: ["openai", "claude"])
    func llamaServerIgnoringRequiredIsAParsingError(server: String) async throws {
        let proxy = try FaultProxy(upstream: try LlamaServer.baseURL())
        defer { proxy.stop() }
        let model: any LanguageModel = server == "openai"
            ? OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "smollm2", contextSize: 4096, timeout: 120)
            : ClaudeTestServer.model(proxy: proxy)
        let session = LanguageModelSession(model: model, tools: [GetWeather()])
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24, toolCallingMode: .required)
        let error = await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "What is the weather in Paris?", options: options) }
        guard case .requiredToolCallMissing(let answer)? = error?.underlyingError as? ServerModelError else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(!answer.isEmpty && error?.rawContent.hasPrefix(answer.replacingOccurrences(of: "…", with: "")) == true)
        #expect(session.transcript.map(\.kindLabel) == ["instructions"])
        #expect(proxy.requests.count == 1)
    }
}
