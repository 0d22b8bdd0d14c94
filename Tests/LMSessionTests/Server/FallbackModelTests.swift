import Foundation
import LMSession
import Testing

/// `FallbackLanguageModel`: the same model call retried on the fallback after a transient failure.
@Suite struct FallbackModelTests {
    static let limited = LanguageModelError.rateLimited(.init(debugDescription: "scripted 429"))

    @Test func aRateLimitedCallIsAnsweredByTheFallbackAndTheNextCallTriesThePrimaryAgain() async throws {
        let primary = ScriptedProvider([.fail([], Self.limited), .text(["primary"])])
        let fallback = ScriptedProvider([.text(["fallback"])])
        let session = LanguageModelSession(model: FallbackLanguageModel(primary, fallback: fallback), instructions: "Be brief.")

        let first = try await session.respond(to: "one")
        #expect(first.content == "fallback")
        let second = try await session.respond(to: "two")
        #expect(second.content == "primary")
        #expect(primary.requests.count == 2)
        #expect(fallback.requests.count == 1)
        #expect(fallback.requests[0].transcript.map(\.description) == primary.requests[0].transcript.map(\.description),
                "the fallback gets the same call")
        #expect(session.transcript.count == 5)
    }

    @Test func aFailureAfterPartOfTheAnswerOrANonTransientErrorIsNotRetried() async throws {
        let midStream = ScriptedProvider([.fail(["half an"], Self.limited)])
        let unused = ScriptedProvider([.text(["fallback"])])
        let session = LanguageModelSession(model: FallbackLanguageModel(midStream, fallback: unused))
        await #expect(throws: LanguageModelError.self) { try await session.respond(to: "one") }
        #expect(session.transcript.isEmpty)

        let refused = ScriptedProvider([.fail([], LanguageModelError.guardrailViolation(.init(debugDescription: "no")))])
        let session2 = LanguageModelSession(model: FallbackLanguageModel(refused, fallback: unused))
        await #expect(throws: LanguageModelError.self) { try await session2.respond(to: "two") }
        #expect(unused.requests.isEmpty)
    }

    @Test func theCombinedModelReportsWhatBothCanDo() {
        let big = ScriptedProvider([], contextSize: 32_768)
        let small = ScriptedProvider([], contextSize: 4096)
        let model = FallbackLanguageModel(big, fallback: small)
        #expect(model.contextSize == 4096)
        #expect(model.capabilities.contains(.toolCalling))
        #expect(!model.capabilities.contains(.reasoning))
        #expect(FallbackLanguageModel.isTransient(LanguageModelError.rateLimited(.init(debugDescription: "x"))))
        #expect(FallbackLanguageModel.isTransient(ServerModelError.httpStatus(code: 503, bodyExcerpt: "")))
        #expect(!FallbackLanguageModel.isTransient(ServerModelError.httpStatus(code: 400, bodyExcerpt: "")))
        #expect(!FallbackLanguageModel.isTransient(LanguageModelError.contextSizeExceeded(.init(contextSize: 1, tokenCount: 2, debugDescription: "x"))))
    }
}
