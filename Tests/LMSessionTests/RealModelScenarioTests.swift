import Foundation
import LMSession
import Testing

/// Scenarios 1-3 and 14 of scenarios.md on SmolLM2-135M (greedy, short answers).
@Suite(.serialized) struct RealModelScenarioTests {
    @Test func aOneShotSummaryAnswersInAFreshSession() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let review = "The pasta was fresh and the sauce rich, but we waited forty minutes for a table."
        let response = try await session.respond(to: "Summarize this review in one sentence: \(review)", options: RealModel.greedy(40))

        #expect(response.content.count > 10)
        #expect(response.usage.output.totalTokenCount <= 40)
        #expect(response.usage.input.cachedTokenCount == 0)
        #expect(session.transcript.count == 2)
        guard case .response(let entry) = session.transcript.last else { Issue.record("no response entry"); return }
        #expect(entry.segments.map(\.description) == [response.content])
        #expect(entry.assetIDs.first?.isEmpty == false)
    }

    @Test func aKeptSessionRemembersTheFirstTurnAndReusesItsCache() async throws {
        let session = LanguageModelSession(model: RealModel.model, instructions: "You are a helpful assistant.")
        let first = try await session.respond(to: "I have a dog named Zorro.", options: RealModel.greedy(20))
        let second = try await session.respond(to: "What is my dog's name?", options: RealModel.greedy(20))
        let control = try await LanguageModelSession(model: RealModel.model, instructions: "You are a helpful assistant.")
            .respond(to: "What is my dog's name?", options: RealModel.greedy(20))

        #expect(second.content.contains("Zorro"), "answer: \(second.content)")
        #expect(!control.content.contains("Zorro"), "without the first turn: \(control.content)")
        // The second turn re-uses everything up to the end of the first answer from the KV cache.
        #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
        #expect(second.usage.input.cachedTokenCount < second.usage.input.totalTokenCount)
        // Instructions are one entry, counted once.
        #expect(session.transcript.filter { if case .instructions = $0 { true } else { false } }.count == 1)
        #expect(session.transcript.count == 5)
    }

    @Test func streamingYieldsCumulativeSnapshotsAndEndsWithTheTranscriptUpdated() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Name three colors.", options: RealModel.greedy(24)) {
            if let previous = snapshots.last { #expect(snapshot.content.hasPrefix(previous)) }
            snapshots.append(snapshot.content)
        }
        #expect(snapshots.count >= 2)
        guard case .response(let entry) = session.transcript.last else { Issue.record("no response entry"); return }
        #expect(entry.segments.map(\.description) == [snapshots.last ?? ""])
    }

    @Test func greedyOutputIsTheSameWithAndWithoutCacheReuseAndAfterAJSONRoundTrip() async throws {
        let kept = LanguageModelSession(model: RealModel.model, instructions: "Answer in one short sentence.")
        try await kept.respond(to: "What is the capital of France?", options: RealModel.greedy(16))
        // The fresh session starts from the transcript after a JSON round trip: same rendered prompt, no cache.
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(kept.transcript))
        let fresh = LanguageModelSession(model: RealModel.model, transcript: decoded)

        let reused = try await kept.respond(to: "And of Italy?", options: RealModel.greedy(24))
        let recomputed = try await fresh.respond(to: "And of Italy?", options: RealModel.greedy(24))

        #expect(reused.usage.input.cachedTokenCount > 0)
        #expect(recomputed.usage.input.cachedTokenCount == 0)
        #expect(reused.usage.input.totalTokenCount == recomputed.usage.input.totalTokenCount)
        #expect(reused.content == recomputed.content)
    }

    @Test func prewarmProcessesTheInstructionsBeforeTheFirstRequest() async throws {
        let instructions = "You are a concise technical editor. Rewrite sentences to be shorter."
        let session = LanguageModelSession(model: RealModel.model, instructions: instructions)
        session.prewarm(promptPrefix: Prompt("Rewrite:"))
        // prewarm returns at once; the first request waits for it on the session's queue.
        let response = try await session.respond(to: "Rewrite: The meeting that we had was very long.", options: RealModel.greedy(16))
        let instructionTokens = try await RealModel.model.tokenCount(for: Instructions(instructions))
        #expect(response.usage.input.cachedTokenCount >= instructionTokens)
    }

    @Test func concurrentSessionsOnOneModelGiveTheSameGreedyAnswers() async throws {
        let prompt = "Name a fruit."
        let alone = try await LanguageModelSession(model: RealModel.model).respond(to: prompt, options: RealModel.greedy(12)).content
        let together = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await LanguageModelSession(model: RealModel.model).respond(to: prompt, options: RealModel.greedy(12)).content
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(together == [alone, alone, alone])
    }
}
