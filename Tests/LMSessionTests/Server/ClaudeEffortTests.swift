import Foundation
import LMSession
import Testing
import TestSupport

/// Reasoning levels and `fixedEffort` mapped to `output_config.effort` (and `thinking`), only as far as the model
/// accepts them.
@Suite struct ClaudeEffortTests {
    static let model = ClaudeRequestBodyTests.full // efforts low, high, xhigh; adaptive thinking

    @Test(arguments: [
        (ContextOptions.ReasoningLevel?.none, ClaudeModel.Effort?.none),
        (.light, .low),
        (.moderate, nil), // medium is not one of this model's levels: dropped
        (.deep, .high),
        (.custom("xhigh"), .xhigh),
        (.custom("XHIGH"), .xhigh),
        (.custom("max"), nil),
        (.custom("turbo"), nil),
    ])
    func `a reasoning level maps to an effort the model accepts, or none`(level: ContextOptions.ReasoningLevel?, effort: ClaudeModel.Effort?) {
        #expect(ClaudeRequestBody.effort(fixed: nil, level: level, model: Self.model) == effort)
    }

    @Test func `fixedEffort wins over the request's reasoning level`() {
        #expect(ClaudeRequestBody.effort(fixed: .xhigh, level: .light, model: Self.model) == .xhigh)
    }

    static func body(_ level: ContextOptions.ReasoningLevel?, model: ClaudeModel = model, mode: GenerationOptions.ToolCallingMode? = nil) throws -> [String: Any] {
        let request = LanguageModelRequest(transcript: ClaudeRequestBodyTests.transcript(ClaudeRequestBodyTests.prompt("Think.")),
                                           options: GenerationOptions(toolCallingMode: mode),
                                           toolDefinitions: mode == nil ? [] : [Transcript.ToolDefinition(tool: GetWeather())],
                                           contextOptions: ContextOptions(reasoningLevel: level))
        return try ClaudeRequestBodyTests.object(ClaudeRequestBodyTests.body(request, model))
    }

    @Test func `a reasoning level turns adaptive thinking on where the model has it and no tool call is forced`() throws {
        let on = try Self.body(.custom("xhigh"))
        #expect((on["thinking"] as? [String: Any])?["type"] as? String == "adaptive")
        #expect((on["output_config"] as? [String: Any])?["effort"] as? String == "xhigh")
        #expect(try Self.body(nil)["thinking"] == nil)
        #expect(try Self.body(.deep, model: ClaudeRequestBodyTests.plain)["thinking"] == nil)
        #expect(try Self.body(.deep, model: ClaudeRequestBodyTests.plain)["output_config"] == nil)
        #expect(try Self.body(.deep, mode: .required)["thinking"] == nil)
        #expect(try Self.body(.deep, mode: .allowed)["thinking"] != nil)
    }

    @Test func `a session's reasoning level reaches the wire as effort and adaptive thinking`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [Data(ClaudeRecordedStreams.thinking.utf8)]), .stream(chunks: [Data(ClaudeRecordedStreams.thinking.utf8)]))
        let session = LanguageModelSession(model: ClaudeLanguageModel(name: Self.model, auth: .apiKey("k"), baseURL: proxy.baseURL))
        _ = try await session.respond(to: "Think hard.", contextOptions: ContextOptions(reasoningLevel: .custom("xhigh")))
        _ = try await session.respond(to: "Think less.", contextOptions: ContextOptions(reasoningLevel: .moderate))
        let first = try #require(proxy.requests.first?.json)
        #expect((first["output_config"] as? [String: Any])?["effort"] as? String == "xhigh")
        #expect((first["thinking"] as? [String: Any])?["type"] as? String == "adaptive")
        // medium is not one of this model's levels: no effort, thinking still on.
        let second = try #require(proxy.requests.last?.json)
        #expect(second["output_config"] == nil)
        #expect(second["thinking"] != nil)
    }
}
