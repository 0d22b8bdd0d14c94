import Foundation
import LMSession
import Testing

@Suite struct ResponseStreamTests {
    @Test func snapshotsAreCumulativeAndTheTranscriptIsUpdatedWhenTheLoopEnds() async throws {
        let model = ScriptedProvider([.text(["Hel", "lo", ",", " world"])])
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
        let model = ScriptedProvider([.text(["a", "b"]), .text(["other"])])
        let session = LanguageModelSession(model: model)
        let stream = session.streamResponse(to: "x")
        var last = ""
        for try await snapshot in stream { last = snapshot.content }
        let response = try await stream.collect()
        #expect(last == "ab")
        #expect(response.content == "ab")
        #expect(model.requests.count == 1)
        #expect(session.transcript.count == 2)
    }

    @Test func collectWithoutIteratingRunsTheWholeRequest() async throws {
        let model = ScriptedProvider([.text(["x", "y", "z"])])
        let session = LanguageModelSession(model: model)
        let response = try await session.streamResponse(to: "go").collect()
        #expect(response.content == "xyz")
        #expect(response.transcriptEntries.count == 2)
    }

    /// With `keepStream` the stream value outlives the loop, as a `let` in top-level code (a global that
    /// is never released) does: the iterator's end must still end the request.
    @Test("leaving a stream loop early rolls back and frees the session", arguments: [false, true])
    func leavingALoopEarlyRollsBack(keepStream: Bool) async throws {
        let model = ScriptedProvider([.slow(count: 1_000, interval: .milliseconds(1)), .text(["fine"])])
        let session = LanguageModelSession(model: model)
        var kept: LanguageModelSession.ResponseStream<String>?
        do {
            let stream = session.streamResponse(to: "long")
            if keepStream { kept = stream }
            var count = 0
            for try await _ in stream {
                count += 1
                if count == 3 { break }
            }
        }
        #expect(!session.isResponding)
        #expect(session.transcript.isEmpty)
        #expect(try await session.respond(to: "again").content == "fine")
        #expect(model.slowEmitted.load(ordering: .relaxed) < 100)
        if let kept {
            await #expect(throws: CancellationError.self) { try await kept.collect() }
        }
    }

    /// Top-level code (`main.swift`) never releases a `for try await` loop's iterator, so leaving the loop tells
    /// the session nothing; here the iterator is kept alive in a variable after `break`, the same situation. The
    /// same task's next request then cancels and rolls back the left stream instead of throwing `concurrentRequests`.
    @Test func aLoopLeftWithItsIteratorAliveEndsWhenTheSameTaskAsksAgain() async throws {
        let model = ScriptedProvider([.slow(count: 1_000, interval: .milliseconds(1)), .text(["fine"])])
        let session = LanguageModelSession(model: model)
        var iterator = session.streamResponse(to: "long").makeAsyncIterator()
        var seen: [String] = []
        while let snapshot = try await iterator.next() {
            seen.append(snapshot.content)
            if seen.count == 3 { break }
        }
        #expect(seen == ["t0 ", "t0 t1 ", "t0 t1 t2 "])
        #expect(session.isResponding, "nothing has told the session that the loop was left")
        let response = try await session.respond(to: "again")
        #expect(response.content == "fine")
        #expect(!session.isResponding)
        // Only the second request is in the transcript: the left one was rolled back.
        #expect(session.transcript.count == 2)
        #expect(Array(session.transcript).first.map { entry in
            if case .prompt(let prompt) = entry { prompt.description } else { "" }
        } == "Prompt: again")
        #expect(model.slowEmitted.load(ordering: .relaxed) < 100)
        // The left stream, pulled again, says it was cancelled once, then ends.
        await #expect(throws: CancellationError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// A stream paused between snapshots is still responding for every other task: its request is not taken over.
    @Test func anotherTasksRequestWhileAStreamIsPausedThrowsConcurrentRequests() async throws {
        let model = ScriptedProvider([.text(["a", "b", "c"]), .text(["later"])])
        let session = LanguageModelSession(model: model)
        var iterator = session.streamResponse(to: "x").makeAsyncIterator()
        #expect(try await iterator.next()?.content == "a")
        let other = await Task { try await session.respond(to: "other") }.result
        #expect(throws: LanguageModelSession.Error.concurrentRequests) { try other.get() }
        var last = ""
        while let snapshot = try await iterator.next() { last = snapshot.content }
        #expect(last == "abc")
        #expect(session.transcript.count == 2)
        #expect(try await session.respond(to: "now").content == "later")
    }

    @Test func aStreamThatFailsThrowsFromTheLoopAndRollsBack() async throws {
        let model = ScriptedProvider([.fail(["half"], GeneratedContent.ParsingError(rawContent: "half", debugDescription: "cut"))])
        let session = LanguageModelSession(model: model)
        let stream = session.streamResponse(to: "x")
        var seen: [String] = []
        await #expect(throws: GeneratedContent.ParsingError.self) {
            for try await snapshot in stream { seen.append(snapshot.content) }
        }
        #expect(seen == ["half"])
        #expect(session.transcript.isEmpty)
        // The request ran once: iterating again ends at once, collecting reports the same failure.
        var again = stream.makeAsyncIterator()
        #expect(try await again.next() == nil)
        await #expect(throws: GeneratedContent.ParsingError.self) { try await stream.collect() }
    }
}
