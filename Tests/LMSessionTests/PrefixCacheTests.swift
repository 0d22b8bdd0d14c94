import Foundation
import LMSession
import Testing

/// The KV of a rendered instructions prefix is kept on the model and shared: a new session with the
/// same instructions as a finished one prefills only what differs, reports the restored tokens as
/// cached, and answers exactly as a session that prefilled everything.
@Suite(.serialized) struct PrefixCacheTests {
    static let instructions = """
        You are a support assistant for a bicycle shop. Answer in one short sentence. Prices are in euros. \
        The shop opens at nine and closes at six, Monday to Saturday. Repairs take two days.
        """

    @Test func aSecondSessionWithTheSameInstructionsReusesTheirKVCache() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 512)
        let instructionTokens = try await model.tokenCount(for: Instructions(Self.instructions))
        let first = try await LanguageModelSession(model: model, instructions: Self.instructions)
            .respond(to: "When do you open?", options: RealModel.greedy(16))
        #expect(first.usage.input.cachedTokenCount == 0)

        let second = try await LanguageModelSession(model: model, instructions: Self.instructions)
            .respond(to: "How long does a repair take?", options: RealModel.greedy(16))
        #expect(second.usage.input.cachedTokenCount >= instructionTokens - 4, "restored \(second.usage.input.cachedTokenCount) of \(instructionTokens)")
        #expect(second.usage.input.cachedTokenCount < second.usage.input.totalTokenCount)

        // The same request on a model with nothing kept: the same tokens, the same answer.
        let control = SystemLanguageModel(path: RealModel.path, contextSize: 512)
        let recomputed = try await LanguageModelSession(model: control, instructions: Self.instructions)
            .respond(to: "How long does a repair take?", options: RealModel.greedy(16))
        #expect(recomputed.usage.input.cachedTokenCount == 0)
        #expect(recomputed.usage.input.totalTokenCount == second.usage.input.totalTokenCount)
        #expect(recomputed.content == second.content)
    }

    @Test func otherInstructionsShareNothing() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 512)
        _ = try await LanguageModelSession(model: model, instructions: Self.instructions)
            .respond(to: "When do you open?", options: RealModel.greedy(8))
        let other = try await LanguageModelSession(model: model, instructions: "Reply in French. " + Self.instructions)
            .respond(to: "When do you open?", options: RealModel.greedy(8))
        // Only the template's opening markup is shared, under the prefix cache's minimum.
        #expect(other.usage.input.cachedTokenCount < 16)
    }
}
