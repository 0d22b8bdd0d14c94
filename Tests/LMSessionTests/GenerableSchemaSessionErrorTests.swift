import Foundation
import LMSession
import Testing
import TestSupport

struct MisspeltGuide: GenerableSchema {
    var name: String
    static let generationGuides = GenerationGuides<MisspeltGuide>(.init("nmae", description: "typo"))
}

/// A valid outer type whose property is a type with crossed guides: the fault is found through embedding.
struct HoldsCrossedBounds: GenerableSchema {
    var title: String
    var inner: [CrossedBounds]
}

struct CrossedBoundsTool: Tool {
    let name = "crossed"
    let description = "Takes arguments whose guides cross."
    func call(arguments: CrossedBounds) async throws -> String { "never" }
}

/// A `GenerableSchema` type with inconsistent guides, reached through a session: a typed error before any model
/// work, the transcript unchanged, and no trap (the old `preconditionFailure` died with SIGILL in release).
@Suite("Generable types with bad guides through the session")
struct GenerableSchemaSessionErrorTests {
    static func expectRejected<T: Generable>(_ type: T.Type, naming fragment: String) async {
        let model = ScriptedProvider([.text(["{}"])])
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "hi", generating: type)
        } throws: { error in
            guard case .unsupportedGenerationGuide(let guide) = error as? LanguageModelError else { return false }
            return guide.debugDescription.contains(fragment)
        }
        var stream = session.streamResponse(to: "hi", generating: type).makeAsyncIterator()
        await #expect(throws: LanguageModelError.self) { _ = try await stream.next() }
        #expect(model.requests.isEmpty)
        #expect(session.transcript.isEmpty)
    }

    @Test("crossed counts, crossed bounds, an empty anyOf and a misspelt key throw unsupportedGenerationGuide")
    func eachFault() async {
        await Self.expectRejected(CrossedCounts.self, naming: "CrossedCounts.tags")
        await Self.expectRejected(CrossedBounds.self, naming: "CrossedBounds.level")
        await Self.expectRejected(EmptyChoice.self, naming: "EmptyChoice.kind")
        await Self.expectRejected(MisspeltGuide.self, naming: "\"nmae\"")
    }

    @Test("a bad type inside an array property of a valid type is found too")
    func embedded() async {
        await Self.expectRejected(HoldsCrossedBounds.self, naming: "CrossedBounds.level")
        await Self.expectRejected([CrossedCounts].self, naming: "CrossedCounts.tags")
    }

    @Test("generationSchema does not trap; its grammar is rejected as an unsupported guide")
    func schemaPlaceholder() throws {
        let schema = CrossedBounds.generationSchema
        #expect(throws: GenerationSchema.GrammarFailure.self) { try schema.grammar() }
        var thrown: GenerableSchemaError?
        do { _ = try CrossedBounds.checkedGenerationSchema() } catch { thrown = error }
        #expect(schema.unbuildableReason == thrown?.description)
        #expect(schema.unbuildableReason?.hasPrefix("CrossedBounds.level: no value satisfies its guides") == true)
    }

    @Test("a tool whose Arguments have bad guides stops the request, naming the tool")
    func toolArguments() async {
        let model = ScriptedProvider([.text(["hello"])])
        let session = LanguageModelSession(model: model, tools: [CrossedBoundsTool()])
        let before = session.transcript
        await #expect {
            try await session.respond(to: "hi")
        } throws: { error in
            guard case .unsupportedGenerationGuide(let guide) = error as? LanguageModelError else { return false }
            return guide.schemaName == "crossed" && guide.debugDescription.contains("CrossedBounds.level")
        }
        #expect(model.requests.isEmpty)
        #expect(session.transcript == before)
    }
}
