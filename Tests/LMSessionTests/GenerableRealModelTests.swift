import Foundation
import LMSession
import Testing

/// Scenarios 4-8 on the real SmolLM2 model through `respond(to:generating:)` and
/// `streamResponse(to:generating:)`: whatever the model writes, the value follows the schema.
@Suite(.serialized) struct GenerableRealModelTests {
    @Test("scenario 4: a recipe comes back as a populated value with minutes in 5...240")
    func recipe() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let recipe = try await session.respond(to: "A weeknight pasta for two.", generating: Recipe.self,
                                               options: RealModel.greedy(200)).content
        #expect(!recipe.title.isEmpty)
        #expect((5...240).contains(recipe.minutes))
        guard case .response(let entry) = session.transcript.last, case .structure(let segment) = entry.segments.first else {
            Issue.record("no structured response entry")
            return
        }
        #expect(try Recipe(segment.content).title == recipe.title)
    }

    @Test("scenario 5: urgency is always low, medium or high")
    func actionItems() async throws {
        let notes = "Dana will send the slides by Friday. Sam books the room. The launch slipped a week."
        let items = try await LanguageModelSession(model: RealModel.model)
            .respond(to: "Turn these meeting notes into action items: \(notes)", generating: ActionItems.self,
                     options: RealModel.greedy(160)).content
        #expect(["low", "medium", "high"].contains(items.urgency))
        #expect(!items.summary.isEmpty)
    }

    @Test("scenario 6: an enum classifier returns a case and stars in 1...5")
    func classifier() async throws {
        let review = try await LanguageModelSession(model: RealModel.model).respond(generating: Review.self, options: RealModel.greedy(120)) {
            "Classify this review: \"The battery died after one day. Useless.\""
        }.content
        #expect(Sentiment.allCases.contains(review.sentiment))
        #expect((1...5).contains(review.stars))
    }

    @Test("scenario 7: exactly three key points, written before the summary")
    func digest() async throws {
        let response = try await LanguageModelSession(model: RealModel.model)
            .respond(to: "Summarize: Swift 6 adds strict concurrency, typed throws and better C++ interop.",
                     generating: Digest.self, options: RealModel.greedy(200))
        #expect(response.content.keyPoints.count == 3)
        guard case .structure(_, let keys) = response.rawContent.kind else { Issue.record("not a structure"); return }
        #expect(keys == ["keyPoints", "summary"])
    }

    @Test("scenario 8: streamed snapshots are partial recipes that fill in, ending complete")
    func streamedRecipe() async throws {
        let stream = LanguageModelSession(model: RealModel.model)
            .streamResponse(to: "A weeknight pasta for two.", generating: Recipe.self, options: RealModel.greedy(200))
        var snapshots: [Recipe.PartiallyGenerated] = []
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        let last = try #require(snapshots.last)
        #expect(snapshots.count > 3)
        #expect(snapshots.first?.minutes == nil)
        #expect(last.isComplete)
        #expect(try last.completed().title == last.title)
        // Cumulative: a title once seen only grows.
        let titles = snapshots.compactMap(\.title)
        #expect(zip(titles, titles.dropFirst()).allSatisfy { $1.hasPrefix($0) })
    }

    @Test("a schema given at run time constrains the response")
    func dynamicSchema() async throws {
        let schema = try GenerationSchema(root: DynamicGenerationSchema(name: "Answer", properties: [
            .init(name: "color", schema: DynamicGenerationSchema(name: "Color", anyOf: ["red", "green", "blue"])),
        ]), dependencies: [])
        let response = try await LanguageModelSession(model: RealModel.model)
            .respond(to: "What color is the sky?", schema: schema, options: RealModel.greedy(20))
        #expect(["red", "green", "blue"].contains(try response.content.value(String.self, forProperty: "color")))
    }
}

/// Bug report: a bare number as the whole response used to fail as "not a complete Int" (the final read
/// treated a number at the end of the text as still growing).
@Suite(.serialized) struct BareNumberRealModelTests {
    @Test("respond generating Int returns the number the transcript holds")
    func int() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let response = try await session.respond(to: "Give a number", generating: Int.self, options: RealModel.greedy(32))
        #expect(Double(response.rawContent.jsonString) == Double(response.content))
        guard case .response(let entry) = session.transcript.last, case .structure(let segment) = entry.segments.first else {
            Issue.record("no structured response entry")
            return
        }
        #expect(try Int(segment.content) == response.content)
    }

    @Test("respond and streamResponse generating Double return the number the text holds")
    func double() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let response = try await session.respond(to: "Give a number", generating: Double.self, options: RealModel.greedy(32))
        #expect(Double(response.rawContent.jsonString) == response.content)
        // The stream's snapshots read the text as it comes (IncrementalJSONReader, another parser): the last
        // one holds the whole text's number, which must be the final value.
        var lastSnapshot: Double?
        let stream = LanguageModelSession(model: RealModel.model)
            .streamResponse(to: "Give a number", generating: Double.self, options: RealModel.greedy(32))
        for try await snapshot in stream { lastSnapshot = snapshot.content }
        let streamed = try await stream.collect()
        #expect(streamed.content == response.content)
        #expect(lastSnapshot == response.content)
    }

    @Test("a number the token budget stops is cut off, not complete")
    func cutOff() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: "Write the number 1234567890123", generating: Int.self, options: RealModel.greedy(1))
        }
        #expect(session.transcript.isEmpty)
    }
}
