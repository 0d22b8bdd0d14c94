import Foundation
import LMSession
import Testing
import TestSupport

/// A model whose chat template writes tool calls in a syntax LMSession does not constrain (Qwen 3 Coder's
/// `<function=…><parameter=…>`) has no tool calling: a session with tools is refused with a typed error naming
/// the syntax, rather than answering with the model's call markup as text. Without tools it chats as usual.
@Suite struct TemplateToolSupportTests {
    static func model(vocabulary: String, template: String) throws -> (SystemLanguageModel, String) {
        let path = try TinyChatModel.write(vocabulary: vocabulary, template: template)
        return (try SystemLanguageModel(fileURL: URL(fileURLWithPath: path)), path)
    }

    @Test func aTemplateWithAnUnsupportedCallSyntaxRefusesToolsWithATypedError() async throws {
        let (model, path) = try Self.model(vocabulary: "qwen2", template: "Qwen3-Coder")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(!model.capabilities.contains(.toolCalling))
        #expect(model.capabilities.contains(.guidedGeneration))
        let session = LanguageModelSession(model: model, tools: [GetWeather()])
        do {
            _ = try await session.respond(to: "Weather in Oslo?", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4))
            Issue.record("not refused")
        } catch let error as LanguageModelError {
            guard case .unsupportedCapability(let context) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(context.capability == .toolCalling)
            #expect(context.debugDescription.contains("<function=probe_tool_1>"), "\(context.debugDescription)")
        }
        let plain = LanguageModelSession(model: model)
        // Without tools it answers (noise, from random weights).
        _ = try await plain.respond(to: "Hello", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4))
    }

    @Test(arguments: [("llama-spm", "mistralai-Mistral-Nemo-Instruct-2407"), ("llama-spm", "mistralai-Ministral-3-14B-Reasoning-2512"),
                      ("gpt-2", "ibm-granite-granite-3.3-2B-Instruct")])
    func aTemplateWithASupportedSyntaxHasToolCalling(vocabulary: String, template: String) throws {
        let (model, path) = try Self.model(vocabulary: vocabulary, template: template)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(model.capabilities.contains(.toolCalling))
    }
}
