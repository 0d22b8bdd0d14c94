import LMSession
import Testing

@Suite struct PromptBuilderTests {
    @Test(arguments: [(true, 2, ["Summarize:", "short text", "in French", "bullet 0", "bullet 1"]),
                      (false, 0, ["Summarize:", "short text", "in English"])])
    func aPromptBuilderKeepsEveryComponentInOrder(french: Bool, bullets: Int, expected: [String]) async throws {
        let model = ScriptedProvider([.text(["ok"])])
        let session = LanguageModelSession(model: model)
        try await session.respond {
            "Summarize:"
            "short text"
            if french { "in French" } else { "in English" }
            for index in 0..<bullets { "bullet \(index)" }
        }
        guard case .prompt(let prompt) = try #require(model.requests.first).transcript.last else {
            Issue.record("no prompt entry"); return
        }
        #expect(prompt.segments.map(\.description) == expected)
    }

    @Test func instructionsBuildersNestAndSkipFalseConditions() {
        let model = ScriptedProvider([])
        let strict = false
        let inner = Instructions {
            "You are a concise technical editor."
            ["Use short sentences.", "Prefer active voice."]
        }
        let session = LanguageModelSession(model: model) {
            inner
            if strict { "Never use adverbs." }
            "Answer in English."
        }
        guard case .instructions(let instructions) = session.transcript.first else { Issue.record("no instructions"); return }
        #expect(instructions.segments.map(\.description) == [
            "You are a concise technical editor.", "Use short sentences.", "Prefer active voice.", "Answer in English.",
        ])
    }

    struct Failure: Error, PromptRepresentable {
        var promptRepresentation: Prompt { "it failed" }
    }

    @Test(arguments: [(Result<String, Failure>.success("it worked"), "it worked"), (.failure(Failure()), "it failed")])
    func aResultPromptIsItsValueOrItsError(result: Result<String, Failure>, expected: String) {
        #expect(Prompt(result).segments.map(\.description) == [expected])
    }

    @Test func aCustomTypeBuildsItsPromptFromSeveralComponents() {
        struct Review: PromptRepresentable {
            var stars: Int
            var text: String
            var promptRepresentation: Prompt {
                "Stars: \(stars)"
                text
            }
        }
        let prompt = Prompt {
            "Summarize this review in one sentence:"
            Review(stars: 4, text: "Great pasta, slow service.")
        }
        #expect(prompt.segments.map(\.description) == ["Summarize this review in one sentence:", "Stars: 4", "Great pasta, slow service."])
    }
}
