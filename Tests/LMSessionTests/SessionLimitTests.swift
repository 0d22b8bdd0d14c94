import Foundation
import LMSession
import Testing

/// `maximumConcurrentSessions`: the KV caches a model's sessions hold at once. Idle sessions give
/// theirs back (and prefill again later, with the same output); when every cache belongs to a
/// generating session, a request throws `LocalModelError.tooManySessions` or waits, as the policy says.
@Suite(.serialized) struct SessionLimitTests {
    static func prompt(_ i: Int) -> String { "Name an animal that starts with the letter \(["B", "C", "D"][i])." }

    /// Streams a long response until `started` has seen its first snapshot, then waits for cancellation.
    static func longStream(_ session: LanguageModelSession, started: AsyncStream<Void>.Continuation) -> Task<Void, Never> {
        Task {
            do {
                for try await _ in session.streamResponse(to: "Tell a very long story about a lighthouse.", options: RealModel.greedy(2000)) {
                    started.yield()
                }
            } catch {}
        }
    }

    @Test("idle sessions give their cache back and produce the same output after prefilling again")
    func idleCachesAreTakenBack() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 512, maximumConcurrentSessions: 2,
                                                whenSessionLimitReached: .fail)
        let sessions = (0..<3).map { _ in LanguageModelSession(model: model) }
        var first: [String] = []
        for (i, session) in sessions.enumerated() {
            first.append(try await session.respond(to: Self.prompt(i), options: RealModel.greedy(12)).content)
            #expect(model.local.heldCaches == min(i + 1, 2))
        }
        // Session 0's cache went to session 2: its next request prefills the whole transcript again.
        let again = try await sessions[0].respond(to: "And another one?", options: RealModel.greedy(12))
        #expect(again.usage.input.cachedTokenCount == 0)
        #expect(model.local.heldCaches == 2)
        let fresh = LanguageModelSession(model: model)
        #expect(try await fresh.respond(to: Self.prompt(0), options: RealModel.greedy(12)).content == first[0])
        withExtendedLifetime(sessions) {}
    }

    /// Polls `condition` for up to 5 s (a session leaves the batch just after its stream's consumer stops).
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<100 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test("with every cache generating, a request fails under .fail and waits under .wait", arguments: [SessionLimitPolicy.fail, .wait])
    func busyCachesFailOrWait(_ policy: SessionLimitPolicy) async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 2048, maximumConcurrentSessions: 2,
                                                whenSessionLimitReached: policy)
        let (started, continuation) = AsyncStream<Void>.makeStream()
        let streams = [Self.longStream(LanguageModelSession(model: model), started: continuation),
                       Self.longStream(LanguageModelSession(model: model), started: continuation)]
        var seen = 0
        for await _ in started {
            seen += 1
            if seen >= 2 { break }
        }
        let third = LanguageModelSession(model: model)
        switch policy {
        case .fail:
            await #expect(throws: LocalModelError.tooManySessions(limit: 2)) {
                try await third.respond(to: Self.prompt(0), options: RealModel.greedy(4))
            }
            #expect(third.transcript.isEmpty)
        case .wait:
            let waiting = Task { try await third.respond(to: Self.prompt(0), options: RealModel.greedy(4)).content }
            try await Task.sleep(for: .milliseconds(300))
            #expect(third.transcript.count <= 1, "still waiting for a cache")
            streams[0].cancel()
            #expect(!(try await waiting.value).isEmpty)
        }
        for stream in streams { stream.cancel() }
        for stream in streams { await stream.value }
        #expect(try await Self.eventually { model.local.batchStatistics?.active == 0 })
    }
}
