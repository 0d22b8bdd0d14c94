import Foundation
import LMSession
import Testing

/// Code written for Apple's 26 SDK: it catches `LanguageModelSession.GenerationError`, which the 27 SDK deprecates.
/// It keeps working with the 26 convention (Apple: apps built with Xcode 26 keep receiving `GenerationError`),
/// and a model that still throws `GenerationError` reaches 27 code as the 27 types. (Naming the deprecated type
/// warns here, as it does in such code built against the 27 SDK; swift-testing refuses deprecated tests.)
@Suite struct GenerationError26Tests {
    typealias GenerationError = LanguageModelSession.GenerationError

    @Test func everyGenerationErrorCaseCanBeMatched() {
        let context = GenerationError.Context(debugDescription: "d")
        let errors: [GenerationError] = [
            .exceededContextWindowSize(context), .assetsUnavailable(context), .guardrailViolation(context),
            .unsupportedGuide(context), .unsupportedLanguageOrLocale(context), .decodingFailure(context),
            .rateLimited(context), .concurrentRequests(context),
            .refusal(.init(transcriptEntries: []), context),
        ]
        let names = errors.map { error -> String in
            switch error {
            case .exceededContextWindowSize: "window"
            case .assetsUnavailable: "assets"
            case .guardrailViolation: "guardrail"
            case .unsupportedGuide: "guide"
            case .unsupportedLanguageOrLocale: "locale"
            case .decodingFailure: "decoding"
            case .rateLimited: "rate"
            case .concurrentRequests: "concurrent"
            case .refusal: "refusal"
            @unknown default: "unknown"
            }
        }
        #expect(names == ["window", "assets", "guardrail", "guide", "locale", "decoding", "rate", "concurrent", "refusal"])
        #expect(errors.allSatisfy { $0.errorDescription?.hasSuffix(" d") == true })
    }


    @Test func codeWrittenFor26CatchesGenerationErrorWithThe26Convention() async throws {
        let model = SystemLanguageModel(path: RealModel.path, contextSize: 40)
        let session = LanguageModelSession(model: model)
        session.errorConvention = .sdk26
        do {
            try await session.respond(to: "Write a long story about a dragon.", options: GenerationOptions(samplingMode: .greedy))
            Issue.record("no error")
        } catch GenerationError.exceededContextWindowSize(let context) {
            #expect(context.debugDescription == "Content contains 41 tokens, which exceeds the maximum allowed context size of 40.")
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func aRefusalUnderThe26ConventionCarriesARefusalToExplain() async throws {
        let failure = LanguageModelError.refusal(.init(debugDescription: "scripted refusal"))
        let model = ScriptedProvider([.fail(["I can"], failure)])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        session.errorConvention = .sdk26
        do {
            try await session.respond(to: "Do the forbidden thing.")
            Issue.record("no error")
        } catch GenerationError.refusal(_, let context) {
            #expect(context.debugDescription == "scripted refusal")
        }
    }

    /// A model written against 26 that throws `GenerationError` from its conversation.
    @Test(arguments: [LanguageModelSession.ErrorConvention.sdk27, .sdk26])
    func aModelThrowing26ErrorsIsConvertedToTheSessionsConvention(convention: LanguageModelSession.ErrorConvention) async throws {
        let thrown: [GenerationError] = [
            .rateLimited(.init(debugDescription: "slow down")),
            .exceededContextWindowSize(.init(debugDescription: "too long")),
            .unsupportedGuide(.init(debugDescription: "no lookahead")),
            .decodingFailure(.init(debugDescription: "cut off")),
            .assetsUnavailable(.init(debugDescription: "no file")),
        ]
        var caught: [any Error] = []
        for error in thrown {
            let model = ScriptedProvider([.fail([], error)], contextSize: 512)
            let session = LanguageModelSession(model: model)
            session.errorConvention = convention
            do {
                _ = try await session.respond(to: "A recipe", generating: Recipe.self)
                Issue.record("no error")
            } catch {
                caught.append(error)
            }
        }
        let labels = caught.map(ErrorMappingTests.label)
        switch convention {
        case .sdk26:
            #expect(labels == ["rateLimited", "exceededContextWindowSize", "unsupportedGuide", "decodingFailure", "assetsUnavailable"]
                .map { "LanguageModelSession.GenerationError." + $0 })
        case .sdk27:
            #expect(labels == ["LanguageModelError.rateLimited", "LanguageModelError.contextSizeExceeded",
                               "LanguageModelError.unsupportedGenerationGuide", "GeneratedContent.ParsingError",
                               "SystemLanguageModel.Error.assetsUnavailable"])
            guard case LanguageModelError.contextSizeExceeded(let overflow) = caught[1],
                  case LanguageModelError.unsupportedGenerationGuide(let guide) = caught[2] else { return }
            #expect(overflow.contextSize == 512, "the session's model says its context size")
            #expect(overflow.debugDescription == "too long")
            #expect(guide.schemaName == "Recipe", "the request's schema is named")
            #expect((caught[3] as? GeneratedContent.ParsingError)?.debugDescription == "cut off")
        }
    }

    @Test func aRateLimitIsTransientForTheFallbackInEitherType() {
        #expect(FallbackLanguageModel.isTransient(GenerationError.rateLimited(.init(debugDescription: "x"))))
        #expect(FallbackLanguageModel.isTransient(LanguageModelError.rateLimited(.init(debugDescription: "x"))))
        #expect(!FallbackLanguageModel.isTransient(GenerationError.guardrailViolation(.init(debugDescription: "x"))))
    }
}
