import Foundation
import LMSession
import Testing

/// Apple 27's mutable transcript, `TranscriptErrorHandlingPolicy` and `LanguageModelSession.Error`.
@Suite struct TranscriptMutationTests {
    static func text(_ s: String) -> Transcript.Segment { .text(Transcript.TextSegment(content: s)) }
    static func prompt(_ s: String) -> Transcript.Entry { .prompt(Transcript.Prompt(segments: [text(s)])) }
    static func response(_ s: String) -> Transcript.Entry { .response(Transcript.Response(assetIDs: [], segments: [text(s)])) }
    static let instructions = Transcript.Entry.instructions(Transcript.Instructions(segments: [text("Be brief.")], toolDefinitions: []))

    @Test func aTranscriptIsEditedLikeAnArrayAndHistoryKeepsTheInstructions() throws {
        var transcript = Transcript()
        #expect(transcript.isEmpty)
        transcript.append(Self.instructions)
        transcript.append(contentsOf: [Self.prompt("one"), Self.response("1"), Self.prompt("two"), Self.response("2")])
        #expect(transcript.count == 5)
        #expect(transcript.history.map(\.description) == ["Prompt: one", "Response: 1", "Prompt: two", "Response: 2"])

        transcript.history.removeFirst(2)
        #expect(transcript.count == 3)
        #expect(transcript.first == Self.instructions)
        #expect(transcript.history.map(\.description) == ["Prompt: two", "Response: 2"])

        transcript[2] = Self.response("two!")
        transcript.replaceSubrange(1..<2, with: [Self.prompt("deux")])
        #expect(transcript.map(\.description) == ["Instructions: Be brief.", "Prompt: deux", "Response: two!"])

        var bare = Transcript(entries: [Self.prompt("a"), Self.response("b")])
        bare.history = [Self.prompt("c")][...]
        #expect(bare.map(\.description) == ["Prompt: c"], "without instructions the history is every entry")

        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(transcript))
        #expect(decoded.map(\.description) == transcript.map(\.description))
    }

    @Test func aSetTranscriptIsWhatTheNextRequestSees() async throws {
        let model = ScriptedProvider([.text(["a"]), .text(["b"]), .text(["c"])])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        try await session.respond(to: "first")
        try await session.respond(to: "second")
        #expect(session.transcript.count == 5)

        session.transcript.history.removeFirst(2)
        #expect(session.transcript.map(\.description) == ["Instructions: Be brief.", "Prompt: second", "Response: b"])
        try await session.respond(to: "third")
        #expect(model.requests.last?.transcript.map(\.description) == ["Instructions: Be brief.", "Prompt: second", "Response: b", "Prompt: third"])
        #expect(session.transcript.map(\.description) == ["Instructions: Be brief.", "Prompt: second", "Response: b", "Prompt: third", "Response: c"])
    }

    @Test func settingTheTranscriptWhileRespondingFailsThatRequestAndKeepsTheSetValue() async throws {
        let model = ScriptedProvider([.slow(count: 40, interval: .milliseconds(5)), .text(["after"])])
        let session = LanguageModelSession(model: model)
        let running = Task { try await session.respond(to: "go") }
        while model.slowEmitted.load(ordering: .relaxed) < 2 { try await Task.sleep(for: .milliseconds(1)) }
        let edited = Transcript(entries: [Self.prompt("earlier"), Self.response("answer")])
        session.transcript = edited

        let result = await running.result
        #expect(throws: LanguageModelSession.Error.transcriptMutationWhileResponding) { try result.get() }
        #expect(session.transcript == edited)
        #expect(!session.isResponding)
        let next = try await session.respond(to: "again")
        #expect(next.content == "after")
        #expect(session.transcript.count == 4)
    }

    @Test func preserveTranscriptKeepsThePromptAndCompletedToolRoundsOfAFailedRequest() async throws {
        let call = Transcript.ToolCall(id: "c1", toolName: "FindContacts", arguments: try GeneratedContent(json: #"{"count":2}"#))
        let failure = LanguageModelError.rateLimited(.init(debugDescription: "scripted"))
        let steps: [ScriptedProvider.Step] = [.toolCalls([call]), .fail(["par"], failure)]

        let model = ScriptedProvider(steps)
        let reverting = LanguageModelSession(model: model, tools: [FindContacts()])
        let before = reverting.transcript
        await #expect(throws: LanguageModelError.self) { try await reverting.respond(to: "Who?") }
        #expect(reverting.transcript == before, "the default policy reverts")

        let model2 = ScriptedProvider(steps)
        let preserving = LanguageModelSession(model: model2, tools: [FindContacts()])
        preserving.transcriptErrorHandlingPolicy = .preserveTranscript
        await #expect(throws: LanguageModelError.self) { try await preserving.respond(to: "Who?") }
        #expect(preserving.transcript.map(\.kindLabel) == before.map(\.kindLabel) + ["prompt", "toolCalls", "toolOutput"])
        #expect(preserving.transcript.last.map { if case .toolOutput(let o) = $0 { o.id } else { "" } } == "c1")
    }

    @Test func trimmingTheTranscriptAfterContextSizeExceededLetsTheSameSessionGoOn() async throws {
        // Scripted words as tokens: each exchange adds about 12 tokens to a 40-token window.
        let model = ScriptedProvider(Array(repeating: .text(["five words of answer here"]), count: 6), contextSize: 40)
        let session = LanguageModelSession(model: model, instructions: "Answer.")
        var exceeded = false
        for turn in 1...6 where !exceeded {
            do {
                try await session.respond(to: "question number \(turn) please")
            } catch LanguageModelError.contextSizeExceeded {
                exceeded = true
            }
        }
        #expect(exceeded)
        let full = session.transcript.count
        session.transcript.history.removeFirst(2)
        let response = try await session.respond(to: "one more question please")
        #expect(response.content == "five words of answer here")
        #expect(session.transcript.count == full)
    }
}

/// The same on the local model: after trimming, the KV cache is kept up to the first changed token.
@Suite struct RealModelTranscriptMutationTests {
    @Test func trimmingOldTurnsKeepsTheInstructionsInTheKVCacheAndAnswers() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 160)
        let session = LanguageModelSession(model: model, instructions: "You are a helpful assistant. Answer in one short sentence.")
        let instructionTokens = try await model.tokenCount(for: Instructions("You are a helpful assistant. Answer in one short sentence."))
        var exceeded = false
        for question in ["What is the capital of France?", "What is the capital of Italy?", "What is the capital of Spain?",
                         "What is the capital of Germany?", "What is the capital of Japan?", "What is the capital of Peru?"] where !exceeded {
            do {
                try await session.respond(to: question, options: RealModel.greedy(24))
            } catch LanguageModelError.contextSizeExceeded {
                exceeded = true
            }
        }
        #expect(exceeded, "six turns of up to 24 tokens overflow 160 tokens")
        let turns = session.transcript.history.count
        session.transcript.history.removeFirst(turns - 2)
        let response = try await session.respond(to: "What is the capital of France?", options: RealModel.greedy(24))
        #expect(response.content.contains("Paris"), "\(response.content)")
        #expect(response.usage.input.cachedTokenCount >= instructionTokens)
        #expect(response.usage.input.cachedTokenCount < response.usage.input.totalTokenCount)
    }
}
