import Foundation
import LMSession
import LMTransformer
import Testing
import TestSupport

/// A template without a system role (Gemma 2's raises "System role not supported") still takes instructions:
/// their text opens the first user turn, as llama.cpp's minja does, instead of the session being refused.
@Suite struct SystemRolePolyfillTests {
    @Test func gemma2PutsTheInstructionsAtTheStartOfTheFirstUserTurn() throws {
        let renderer = try TemplateToolRenderingTests.renderer("google-gemma-2-2b-it", vocabulary: "gemma-4", architecture: .gemma2)
        let text = try TemplateToolRenderingTests.text(renderer, [
            .instructions(.init(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [])),
            .prompt(.init(segments: [.text(.init(content: "Hello"))])),
        ])
        #expect(text == "<bos><start_of_turn>user\nBe brief.\nHello<end_of_turn>\n<start_of_turn>model\n", "\(text)")
    }

    @Test func aTemplateWithASystemRoleKeepsIt() throws {
        let renderer = try TemplateToolRenderingTests.renderer("Qwen-Qwen2.5-7B-Instruct", vocabulary: "qwen2", architecture: .qwen2)
        let text = try TemplateToolRenderingTests.text(renderer, [
            .instructions(.init(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [])),
            .prompt(.init(segments: [.text(.init(content: "Hello"))])),
        ])
        #expect(text.hasPrefix("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHello<|im_end|>"), "\(text)")
    }

    @Test func systemTextMovesToTheNextUserMessageOrStandsAlone() {
        let merged = TranscriptRenderer.mergingSystemMessages([
            PromptMessage(role: .system, content: "S1"), PromptMessage(role: .system, content: "S2"),
            PromptMessage(role: .user, content: "U"), PromptMessage(role: .assistant, content: "A"),
            PromptMessage(role: .system, content: "S3"),
        ])
        #expect(merged.map(\.role) == [.user, .assistant, .user])
        #expect(merged.map(\.content) == ["S1\nS2\nU", "A", "S3"])
    }

    @Test func aSessionWithInstructionsAnswersOnAGemma2Template() async throws {
        let path = try TinyChatModel.write(vocabulary: "gemma-4", template: "google-gemma-2-2b-it")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = LanguageModelSession(model: try SystemLanguageModel(fileURL: URL(fileURLWithPath: path)), instructions: "Be brief.")
        // Random weights: the answer is noise; what matters is that the prompt renders.
        _ = try await session.respond(to: "Hello", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4))
        #expect(session.transcript.count == 3)
    }
}
