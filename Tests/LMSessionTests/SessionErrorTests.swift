import Foundation
import LMSession
import Testing

@Suite struct SessionErrorTests {
    @Test(arguments: [[String](), ["partial", " answer"]])
    func aFailedRequestLeavesTheTranscriptAsBeforeAndTheSessionUsable(deltasBeforeFailure: [String]) async throws {
        let failure = LanguageModelError.rateLimited(.init(debugDescription: "scripted"))
        let model = ScriptedProvider([.text(["one"]), .fail(deltasBeforeFailure, failure), .text(["three"])])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        try await session.respond(to: "first")
        let before = session.transcript

        await #expect(throws: LanguageModelError.self) { try await session.respond(to: "second") }
        #expect(session.transcript == before)
        #expect(!session.isResponding)

        let third = try await session.respond(to: "third")
        #expect(third.content == "three")
        #expect(session.transcript.count == before.count + 2)
    }

    @Test func cancellingARequestRollsBackAndStopsGenerationWithinOneToken() async throws {
        let model = ScriptedProvider([.slow(count: 10_000, interval: .milliseconds(2))])
        let session = LanguageModelSession(model: model)
        let task = Task { try await session.respond(to: "go on forever") }
        while model.slowEmitted.load(ordering: .relaxed) < 3 { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()

        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)
        try await Task.sleep(for: .milliseconds(30))
        #expect(model.emittedAfterStop.load(ordering: .relaxed) <= 1)
        #expect(model.slowEmitted.load(ordering: .relaxed) < 100)
    }

    @Test func aSecondRequestWhileRespondingThrowsConcurrentRequests() async throws {
        let model = ScriptedProvider([.slow(count: 20, interval: .milliseconds(2)), .text(["later"])])
        let session = LanguageModelSession(model: model)
        let first = Task { try await session.respond(to: "slow") }
        while model.slowEmitted.load(ordering: .relaxed) < 1 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(session.isResponding)

        do {
            try await session.respond(to: "too soon")
            Issue.record("the second request did not throw")
        } catch let error as LanguageModelSession.Error {
            #expect(error == .concurrentRequests)
            #expect(error.debugDescription == "The session is already responding to a request.")
        }
        let firstResponse = try await first.value
        #expect(firstResponse.content.hasPrefix("t0 t1 "))
        #expect(session.transcript.count == 2)
        #expect(try await session.respond(to: "now").content == "later")
    }

    /// (prompt words, context size, fits): a prompt of n words needs n + 3 scripted tokens.
    @Test(arguments: [(5, 8, true), (5, 7, false), (100, 50, false)])
    func aRequestOverTheBudgetThrowsWithBothNumbers(words: Int, contextSize: Int, fits: Bool) async throws {
        let model = ScriptedProvider([.text(["ok"])], contextSize: contextSize)
        let session = LanguageModelSession(model: model)
        let prompt = Array(repeating: "word", count: words).joined(separator: " ")
        if fits {
            #expect(try await session.respond(to: prompt).content == "ok")
            return
        }
        do {
            try await session.respond(to: prompt)
            Issue.record("no error for \(words + 3) tokens in \(contextSize)")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.debugDescription == "Content contains \(words + 3) tokens, which exceeds the maximum allowed context size of \(contextSize).")
            #expect(overflow.tokenCount == words + 3)
            #expect(overflow.contextSize == contextSize)
        }
        #expect(session.transcript.isEmpty)
        #expect(model.requests.isEmpty, "the model must not be called over budget")
    }

    @Test func anUnavailableModelThrowsAssetsUnavailable() async throws {
        let provider = ScriptedProvider([.text(["never"])], availability: .unavailable(.modelNotReady))
        let session = LanguageModelSession(model: provider)
        do {
            try await session.respond(to: "hello")
            Issue.record("no error")
        } catch SystemLanguageModel.Error.assetsUnavailable(let assets) {
            #expect(assets.debugDescription == "The model is unavailable (modelNotReady).")
        }
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)
    }

    /// Guardrails belong to the local model (Apple's `SystemLanguageModel`): a model of its own, so its decode steps
    /// count only this request's.
    @Test(arguments: [SystemLanguageModel.Guardrails.Direction.input, .output])
    func aGuardrailRejectionThrowsAndRollsBack(direction: SystemLanguageModel.Guardrails.Direction) async throws {
        let guardrails = SystemLanguageModel.Guardrails { text, side in
            side == direction && (side == .output ? !text.isEmpty : text.contains("forbidden")) ? .rejected(reason: "\(side) mentions it") : .allowed
        }
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 256, guardrails: guardrails)
        let session = LanguageModelSession(model: model)
        do {
            try await session.respond(to: direction == .input ? "say forbidden" : "say it", options: RealModel.greedy(8))
            Issue.record("no error")
        } catch LanguageModelError.guardrailViolation(let violation) {
            #expect(violation.debugDescription == "\(direction) mentions it")
        }
        #expect(session.transcript.isEmpty)
        let steps = try #require(model.local.batchStatistics).steps
        #expect(direction == .input ? steps == 0 : steps > 0, "decode steps: \(steps)")
    }

    @Test func errorsDescribeThemselvesForUsers() {
        let error = LanguageModelError.contextSizeExceeded(.init(contextSize: 4096, tokenCount: 5000, debugDescription: "Content contains 5000 tokens."))
        #expect(error.errorDescription == "The content exceeds the model's context size. Content contains 5000 tokens.")
        #expect(error.recoverySuggestion == "Remove entries from the transcript, or start a new session, and try again.")
        let assets = SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "no model file found"))
        #expect(assets.errorDescription == "The model's assets are unavailable. no model file found")
        #expect(assets.debugDescription == "no model file found")
        // A schema no value satisfies is not a matter of the model: the suggestion does not point to another one.
        let empty = LanguageModelError.unsupportedGenerationGuide(.init(schemaName: nil, debugDescription:
            "The schema cannot be enforced: no value satisfies the grammar: no complete value is reachable"))
        #expect(empty.recoverySuggestion == "Change the schema or guide: no value satisfies it, whichever model generates.")
        let tooLarge = LanguageModelError.unsupportedGenerationGuide(.init(schemaName: nil, debugDescription: "schema too large"))
        #expect(tooLarge.recoverySuggestion == "Simplify the schema or guide (a pattern, a size), or use a model that supports it.")
        let parsing = GeneratedContent.ParsingError(rawContent: "{\"a\":", debugDescription: "cut off")
        #expect(parsing.errorDescription == "The generated content could not be parsed. cut off")
    }
}
