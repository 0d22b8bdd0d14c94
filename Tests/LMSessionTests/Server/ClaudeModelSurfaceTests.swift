import Foundation
import LMSession
import Testing

/// The published package's surface: initializer labels in its order, model constants and declared models,
/// and the session capabilities that follow from a model's.
@Suite struct ClaudeModelSurfaceTests {
    @Test func `the published initializer, in its label order, with its defaults`() {
        let model = ClaudeLanguageModel(name: .sonnet4_6, auth: .apiKey("k"), fixedEffort: .high, serverTools: [.webSearch(), .codeExecution],
                                        baseURL: URL(string: "https://relay.example")!, timeout: 30)
        #expect(model.model.id == "claude-sonnet-4-6")
        #expect(model.fixedEffort == .high && model.serverTools.count == 2 && model.timeout == 30)
        let defaults = ClaudeLanguageModel(name: .haiku4_5, auth: .proxied(headers: [:]))
        #expect(defaults.baseURL == ClaudeLanguageModel.defaultBaseURL && defaults.timeout == 60 && defaults.fixedEffort == nil)
        #expect(defaults.assetIDs == ["claude-haiku-4-5"])
        #expect(defaults.availability == .available)
    }

    @Test func `session capabilities follow the model's declared ones`() {
        let full = ClaudeLanguageModel(name: .opus5, auth: .apiKey("k"))
        for capability in [LanguageModelCapabilities.Capability.toolCalling, .guidedGeneration, .vision, .reasoning] {
            #expect(full.capabilities.contains(capability))
        }
        #expect(full.contextSize == 1_000_000)
        let bare = ClaudeLanguageModel(name: ClaudeModel(id: "claude-next", capabilities: .init()), auth: .apiKey("k"))
        #expect(bare.capabilities.contains(.toolCalling))
        for capability in [LanguageModelCapabilities.Capability.guidedGeneration, .vision, .reasoning] {
            #expect(!bare.capabilities.contains(capability))
        }
        #expect(bare.contextSize == 200_000)
    }

    @Test func `the parts of a request are estimated from their JSON, a quarter of its bytes`() async throws {
        let model = ClaudeLanguageModel(name: .haiku4_5, auth: .apiKey("k"))
        let tools = try await model.tokenCount(for: .tools([Transcript.ToolDefinition(tool: GetWeather())]))
        let none = try await model.tokenCount(for: .tools([]))
        #expect(none == 0)
        #expect(tools > 20 && tools < 100)
    }
}
