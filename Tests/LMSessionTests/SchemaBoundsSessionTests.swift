import Foundation
import LMSession
import Testing

struct HugeMinimum: GenerableSchema {
    var amount: Double
    static let generationGuides = GenerationGuides<HugeMinimum>(.init(\.amount, .minimum(1e20)))
}

struct FarRange: GenerableSchema {
    var amount: Double
    static let generationGuides = GenerationGuides<FarRange>(.init(\.amount, .range(1e300...1e301)))
}

struct NearIntMax: GenerableSchema {
    var id: Int
    static let generationGuides = GenerationGuides<NearIntMax>(.init(\.id, .range(9_000_000_000_000_000_000...9_000_000_000_000_000_100)))
}

/// A new user's reports on SmolLM2-135M: numeric guides past the plain digits are enforced or refused
/// before decoding (never a value outside them, never a `ParsingError` blaming the response), and a
/// schema too large to describe in the prompt says so and what to do.
@Suite("Schema bounds and sizes through a session", .serialized)
struct SchemaBoundsSessionTests {
    @Test("a Double guided to at least 1e20 is generated at or above it")
    func hugeMinimum() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let value = try await session.respond(to: "A very large amount.", generating: HugeMinimum.self, options: RealModel.greedy(40)).content
        #expect(value.amount >= 1e20, "\(value.amount)")
        #expect(value.amount.isFinite)
    }

    @Test("a Double guided to 1e300...1e301 is generated inside it")
    func farRange() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        let value = try await session.respond(to: "An astronomically large amount.", generating: FarRange.self, options: RealModel.greedy(40)).content
        #expect(value.amount >= 1e300 && value.amount <= 1e301, "\(value.amount)")
    }

    @Test("an Int range past 2^53 is unsupportedGenerationGuide before any token")
    func intRangePastDoublePrecision() async throws {
        let session = LanguageModelSession(model: RealModel.model)
        var snapshots = 0
        do {
            for try await _ in session.streamResponse(to: "An id.", generating: NearIntMax.self, options: RealModel.greedy(40)) { snapshots += 1 }
            Issue.record("no error")
        } catch LanguageModelError.unsupportedGenerationGuide(let guide) {
            #expect(guide.debugDescription.contains("minimum"), "\(guide.debugDescription)")
            #expect(guide.debugDescription.contains("9007199254740991"), "\(guide.debugDescription)")
        }
        #expect(snapshots == 0)
    }

    /// An enum of `count` strings of about `width` characters.
    static func bigEnum(count: Int, width: Int) throws -> GenerationSchema {
        let choices = (0..<count).map { i in "choice \(i) " + String(repeating: "x", count: max(0, width - 12)) }
        return try GenerationSchema(root: DynamicGenerationSchema(name: "Choice", anyOf: choices), dependencies: [])
    }

    @Test("a schema whose description exceeds the context says so and what to do; without it in the prompt it generates")
    func schemaOverTheContext() async throws {
        let schema = try Self.bigEnum(count: 2000, width: 12)
        let session = LanguageModelSession(model: RealModel.model)
        do {
            _ = try await session.respond(to: "Pick one.", schema: schema, options: RealModel.greedy(16))
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.contextSize == 4096)
            #expect(overflow.tokenCount > 4096)
            #expect(overflow.debugDescription.contains("describing the response schema in the prompt takes"), "\(overflow.debugDescription)")
            #expect(overflow.debugDescription.contains("includeSchemaInPrompt: false"), "\(overflow.debugDescription)")
            #expect(overflow.debugDescription.contains("larger context size"), "\(overflow.debugDescription)")
        }
        let fresh = LanguageModelSession(model: RealModel.model)
        let response = try await fresh.respond(to: "Pick one.", schema: schema, includeSchemaInPrompt: false, options: RealModel.greedy(16))
        let picked = try response.content.value(String.self)
        #expect(picked.hasPrefix("choice "), "\(picked)")
    }

    @Test("a schema too large for the chat template to render is named as the cause, not the template")
    func schemaTooLargeToRender() async throws {
        // 50,000 values of 100 characters: 5 MB of schema text, past the template's 4 MiB output limit.
        let schema = try Self.bigEnum(count: 50_000, width: 100)
        let session = LanguageModelSession(model: RealModel.model)
        do {
            _ = try await session.respond(to: "Pick one.", schema: schema, options: RealModel.greedy(16))
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let overflow) {
            #expect(overflow.debugDescription.hasPrefix("The response schema, described in the prompt, makes the prompt too long to render"),
                    "\(overflow.debugDescription)")
            #expect(overflow.debugDescription.contains("includeSchemaInPrompt: false"), "\(overflow.debugDescription)")
        }
    }
}
