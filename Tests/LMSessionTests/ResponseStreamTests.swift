import Foundation
import LMSession
import Testing

@Suite struct ResponseStreamTests {
    @Test func snapshotsAreCumulativeAndTheTranscriptIsUpdatedWhenTheLoopEnds() async throws {
        let (model, _) = SystemLanguageModel.scripted([.text(["Hel", "lo", ",", " world"])])
        let session = LanguageModelSession(model: model)
        var seen: [String] = []
        for try await snapshot in session.streamResponse(to: "Greet") {
            seen.append(snapshot.content)
            #expect(snapshot.rawContent == GeneratedContent(kind: .string(snapshot.content)))
            #expect(session.transcript.isEmpty, "the transcript changes only when the response is complete")
        }
        #expect(seen == ["Hel", "Hello", "Hello,", "Hello, world"])
        #expect(session.transcript.count == 2)
        #expect(!session.isResponding)
    }

    @Test func collectAfterIteratingReturnsTheSameResponseWithoutAskingAgain() async throws {
        let (model, provider) = SystemLanguageModel.scripted([.text(["a", "b"]), .text(["other"])])
        let session = LanguageModelSession(model: model)
        let stream = session.streamResponse(to: "x")
        var last = ""
        for try await snapshot in stream { last = snapshot.content }
        let response = try await stream.collect()
        #expect(last == "ab")
        #expect(response.content == "ab")
        #expect(provider.requests.count == 1)
        #expect(session.transcript.count == 2)
    }

    @Test func collectWithoutIteratingRunsTheWholeRequest() async throws {
        let (model, _) = SystemLanguageModel.scripted([.text(["x", "y", "z"])])
        let session = LanguageModelSession(model: model)
        let response = try await session.streamResponse(to: "go").collect()
        #expect(response.content == "xyz")
        #expect(response.transcriptEntries.count == 2)
    }

    @Test func droppingAnUnfinishedStreamRollsBack() async throws {
        let (model, provider) = SystemLanguageModel.scripted([.slow(count: 1_000, interval: .milliseconds(1)), .text(["fine"])])
        let session = LanguageModelSession(model: model)
        do {
            var count = 0
            for try await _ in session.streamResponse(to: "long") {
                count += 1
                if count == 3 { break }
            }
        }
        #expect(!session.isResponding)
        #expect(session.transcript.isEmpty)
        #expect(try await session.respond(to: "again").content == "fine")
        #expect(provider.slowEmitted.load(ordering: .relaxed) < 100)
    }

    @Test func leavingALoopEarlyFreesTheSessionWhileTheStreamValueLivesOn() async throws {
        // As in top-level code, where a stream in a `let` is a global that is never released.
        let (model, provider) = SystemLanguageModel.scripted([.slow(count: 1_000, interval: .milliseconds(1)), .text(["fine"])])
        let session = LanguageModelSession(model: model)
        let stream = session.streamResponse(to: "long")
        var count = 0
        for try await _ in stream {
            count += 1
            if count == 3 { break }
        }
        #expect(!session.isResponding)
        #expect(session.transcript.isEmpty)
        #expect(try await session.respond(to: "again").content == "fine")
        #expect(provider.slowEmitted.load(ordering: .relaxed) < 100)
        await #expect(throws: CancellationError.self) { try await stream.collect() }
        withExtendedLifetime(stream) {}
    }

    @Test func aStreamThatFailsThrowsFromTheLoopAndRollsBack() async throws {
        let (model, _) = SystemLanguageModel.scripted([.fail(["half"], .decodingFailure(.init(debugDescription: "cut")))])
        let session = LanguageModelSession(model: model)
        let stream = session.streamResponse(to: "x")
        var seen: [String] = []
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            for try await snapshot in stream { seen.append(snapshot.content) }
        }
        #expect(seen == ["half"])
        #expect(session.transcript.isEmpty)
        // The request ran once: iterating again ends at once, collecting reports the same failure.
        var again = stream.makeAsyncIterator()
        #expect(try await again.next() == nil)
        await #expect(throws: LanguageModelSession.GenerationError.self) { try await stream.collect() }
    }
}
