import Foundation
import LMSession
import Testing

/// The local provider constrains decoding to the response schema (through LMGrammar's token masks).
@Suite(.serialized) struct RealModelGuidedTests {
    static let recipe = GenerationSchema(type: GeneratedContent.self, description: "A recipe", properties: [
        .init(name: "title", description: "The dish name", type: String.self),
        .init(name: "minutes", description: "Total minutes", type: Int.self, guides: [.range(5...240)]),
    ])

    func request(_ session: LanguageModelSession, tokens: Int) -> LanguageModelSession.ResponseStream<GeneratedContent> {
        session.makeStream(prompt: Prompt("A weeknight pasta for two."), responseFormat: Transcript.ResponseFormat(schema: Self.recipe),
                           includeSchemaInPrompt: true, options: RealModel.greedy(tokens), generating: GeneratedContent.self)
    }

    @Test func aStructuredResponseFollowsTheSchemaAndIsStoredAsAStructure() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let response = try await request(session, tokens: 40).collect()

        let title = try response.content.value(String.self, forProperty: "title")
        let minutes = try response.content.value(Int.self, forProperty: "minutes")
        #expect(!title.isEmpty)
        #expect((5...240).contains(minutes))
        guard case .structure(let properties, let keys) = response.content.kind else { Issue.record("not a structure"); return }
        #expect(keys == ["title", "minutes"])
        #expect(properties.count == 2)
        guard case .response(let entry) = session.transcript.last, case .structure(let segment) = entry.segments.first else {
            Issue.record("no structured response entry")
            return
        }
        #expect(segment.content.jsonString == response.rawContent.jsonString)
        guard case .prompt(let prompt) = session.transcript.first else { Issue.record("no prompt"); return }
        #expect(prompt.responseFormat == Transcript.ResponseFormat(schema: Self.recipe))
    }

    @Test func aStructuredResponseCutByMaximumResponseTokensFailsToDecode() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let error = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await request(session, tokens: 3).collect()
        }
        #expect(error?.debugDescription.hasPrefix("The response cannot be completed within maximumResponseTokens: 3 tokens left") == true,
                "\(String(describing: error))")
        #expect(session.transcript.isEmpty)
    }
}
