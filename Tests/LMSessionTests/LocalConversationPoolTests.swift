import Foundation
import LMSession
import Testing

/// The local model's executor keeps conversations (KV caches) between requests and finds them by transcript: a
/// session's next turn continues its own cache whatever ran between, and idle caches are bounded.
@Suite(.serialized) struct LocalConversationPoolTests {
    @Test func `a session's next turn continues its own KV cache while another session runs between`() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 512)
        let instructions = "Answer in one short sentence."
        let a = LanguageModelSession(model: model, instructions: instructions)
        let b = LanguageModelSession(model: model, instructions: instructions)
        let first = try await a.respond(to: "Name a red fruit.", options: RealModel.greedy(8))
        _ = try await b.respond(to: "Name a green vegetable.", options: RealModel.greedy(8))
        let second = try await a.respond(to: "And a yellow one?", options: RealModel.greedy(8))
        // The whole first prompt is cached, not only the instructions both sessions share.
        #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount,
                "cached \(second.usage.input.cachedTokenCount), first prompt \(first.usage.input.totalTokenCount)")
    }

    @Test func `idle conversations are bounded and give their caches back when dropped`() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 256)
        for i in 0..<20 {
            _ = try await LanguageModelSession(model: model).respond(to: "Say \(i).", options: RealModel.greedy(1))
        }
        #expect(model.local.idleConversationCount == 16)
        #expect(try await SessionLimitTests.eventually { model.local.heldCaches == 16 }, "held \(model.local.heldCaches)")
        model.local.dropIdleConversations()
        #expect(try await SessionLimitTests.eventually { model.local.heldCaches == 0 && model.local.liveContexts == 0 })
    }
}
