import Foundation
import LMSession
import Testing

@Suite struct SessionTranscriptTests {
    @Test func aCompletedRequestAppendsItsPromptAndResponseToTheTranscript() async throws {
        let model = ScriptedProvider([.text(["Paris", "."])])
        let session = LanguageModelSession(model: model, instructions: "Answer in one word.")
        let response = try await session.respond(to: "Capital of France?")

        #expect(response.content == "Paris.")
        #expect(session.transcript.count == 3)
        guard case .instructions(let instructions) = session.transcript[0],
              case .prompt(let prompt) = session.transcript[1],
              case .response(let answer) = session.transcript[2] else {
            Issue.record("unexpected entries: \(session.transcript)")
            return
        }
        #expect(instructions.segments.map(\.description) == ["Answer in one word."])
        #expect(prompt.segments.map(\.description) == ["Capital of France?"])
        #expect(answer.segments.map(\.description) == ["Paris."])
        #expect(answer.assetIDs == ["scripted"])
        #expect(response.transcriptEntries.map(\.id) == [prompt.id, answer.id])
        #expect(response.transcriptEntries.startIndex == 1)
        // The model saw the complete transcript with the new prompt last.
        #expect(model.requests.count == 1)
        #expect(model.requests[0].transcript.map(\.id) == [instructions.id, prompt.id])
    }

    @Test func theSecondTurnSendsTheWholeHistory() async throws {
        let model = ScriptedProvider([.text(["Hi Ada."]), .text(["Your name is Ada."])])
        let session = LanguageModelSession(model: model)
        try await session.respond(to: "My name is Ada.")
        let second = try await session.respond(to: "What is my name?")

        #expect(second.content == "Your name is Ada.")
        #expect(session.transcript.count == 4)
        let seen = model.requests[1].transcript.map(\.description)
        #expect(seen == ["Prompt: My name is Ada.", "Response: Hi Ada.", "Prompt: What is my name?"])
    }

    @Test func aSessionWithoutInstructionsOrToolsStartsEmpty() {
        let model = ScriptedProvider([])
        #expect(LanguageModelSession(model: model).transcript.isEmpty)
        #expect(LanguageModelSession(model: model, instructions: nil as String?).transcript.isEmpty)
        #expect(LanguageModelSession(model: model, instructions: "x").transcript.count == 1)
    }

    @Test func aSessionFromATranscriptSendsTheSameHistory() async throws {
        let model = ScriptedProvider([.text(["A"]), .text(["B"]), .text(["B"])])
        let original = LanguageModelSession(model: model, instructions: "Be brief.")
        try await original.respond(to: "First?")
        let data = try JSONEncoder().encode(original.transcript)
        let restored = LanguageModelSession(model: model, transcript: try JSONDecoder().decode(Transcript.self, from: data))

        try await original.respond(to: "Second?")
        try await restored.respond(to: "Second?")
        let sent = model.requests.suffix(2).map { $0.transcript.map(\.description) }
        #expect(sent[0] == sent[1])
        #expect(sent[0].count == 4)
    }

    @Test func usageIsReportedPerResponseAndAccumulatedPerSession() async throws {
        let model = ScriptedProvider([.text(["one", " two"]), .text(["three"])])
        let session = LanguageModelSession(model: model)
        let first = try await session.respond(to: "a b c")
        // "a b c" = 3 words + 2 markers + 1 opening.
        #expect(first.usage.input.totalTokenCount == 6)
        #expect(first.usage.output.totalTokenCount == 2)
        let second = try await session.respond(to: "d")
        #expect(second.usage.output.totalTokenCount == 1)
        #expect(session.usage.output.totalTokenCount == 3)
        #expect(session.usage.input.totalTokenCount == first.usage.input.totalTokenCount + second.usage.input.totalTokenCount)
    }
}
