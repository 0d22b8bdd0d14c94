import Foundation
import Synchronization

extension LanguageModelSession {
    /// Which of Apple's two sets of error types a request throws.
    ///
    /// Apple's framework decides by the SDK an app is built with: "Apps built with Xcode 26 keep receiving
    /// `GenerationError`; Xcode 27 builds receive the new types", and the 27 SDK deprecates
    /// ``GenerationError``. LMSession ships the 27 API, so ``sdk27`` is the default; ``sdk26`` is the switch for
    /// code written against 26 that still catches `GenerationError` (on Linux there is no SDK to tell them apart).
    ///
    /// | failure | ``sdk27`` (default) | ``sdk26`` |
    /// |---|---|---|
    /// | input or response over the context | ``LanguageModelError/contextSizeExceeded(_:)`` | `exceededContextWindowSize` |
    /// | model file missing, unloadable or too big | ``SystemLanguageModel/Error/assetsUnavailable(_:)`` | `assetsUnavailable` |
    /// | a guide or schema that cannot be enforced | ``LanguageModelError/unsupportedGenerationGuide(_:)`` | `unsupportedGuide` |
    /// | structured output that does not decode | ``GeneratedContent/ParsingError`` | `decodingFailure` |
    /// | a guardrail rejected the text | ``LanguageModelError/guardrailViolation(_:)`` | `guardrailViolation` |
    /// | refusal, rate limit, language | ``LanguageModelError`` `refusal`, `rateLimited`, `unsupportedLanguageOrLocale` | the 26 case of the same name |
    /// | a second request while one runs | ``LanguageModelSession/Error/concurrentRequests`` | `concurrentRequests` |
    ///
    /// Errors with no 26 case (``LanguageModelError/timeout(_:)``, `unsupportedCapability`,
    /// `unsupportedTranscriptContent`, ``LanguageModelSession/Error/transcriptMutationWhileResponding``) are thrown
    /// as they are under both; so are ``ToolCallError``, `CancellationError` and our own typed errors
    /// (``ServerModelError``, ``ClaudeError``, ``GenerationOptions/InvalidOptionError``,
    /// ``ToolCallRoundLimitError``, the runtime's `InferenceError`).
    public enum ErrorConvention: Sendable, Hashable {
        /// Apple 27's types: ``LanguageModelError``, ``GeneratedContent/ParsingError``,
        /// ``SystemLanguageModel/Error``, ``LanguageModelSession/Error``.
        case sdk27
        /// Apple 26's ``GenerationError`` wherever it has a case for the failure.
        case sdk26
    }

    private static let defaultConvention = Mutex(ErrorConvention.sdk27)

    /// The convention of sessions created from now on (their ``errorConvention``) and of
    /// ``SystemLanguageModel``'s `tokenCount(for:)`; ``ErrorConvention/sdk27`` unless set. Process-wide: set it
    /// once at start-up, as an app picks its SDK once. Not in Apple's API.
    public static var defaultErrorConvention: ErrorConvention {
        get { defaultConvention.withLock { $0 } }
        set { defaultConvention.withLock { $0 = newValue } }
    }

    /// The error types this session's requests throw; ``defaultErrorConvention`` when the session was created.
    /// Read when a request fails. Not in Apple's API.
    public final var errorConvention: ErrorConvention {
        get { state.withLock { $0.errorConvention } }
        set { state.withLock { $0.errorConvention = newValue } }
    }
}

/// What converting an error between the 26 and 27 types needs to know about the failed request.
struct ErrorConversionContext {
    /// The model's context size (a 26 `exceededContextWindowSize` does not carry it).
    var contextSize = 0
    /// The name of the response schema, if any (a 26 `unsupportedGuide` does not carry it).
    var schemaName: String?
    /// The request's transcript: a 26 `refusal` carries it for its `explanation`.
    var transcriptEntries: [Transcript.Entry] = []
}

extension LanguageModelSession.ErrorConvention {
    /// `error` as this convention throws it: the other convention's type converted where both have a case,
    /// anything else unchanged. Converting twice changes nothing.
    /// - Parameter context: read only when a conversion needs it.
    func converting(_ error: any Swift.Error, context: @autoclosure () -> ErrorConversionContext = ErrorConversionContext()) -> any Swift.Error {
        let bridge: any GenerationErrorBridge = GenerationErrorBridging()
        switch self {
        case .sdk27: return bridge.to27(error, context: context) ?? error
        case .sdk26: return bridge.to26(error, context: context) ?? error
        }
    }
}

/// The conversions to and from the deprecated 26 ``LanguageModelSession/GenerationError``, the one place in the
/// package that names it. Called through this protocol because a deprecated method that satisfies a requirement
/// does not make its callers warn: the package builds without deprecation warnings while the type stays
/// deprecated for its users, as in Apple's 27 SDK.
private protocol GenerationErrorBridge {
    /// The 27 error for a 26 `GenerationError`; nil for any other error.
    func to27(_ error: any Swift.Error, context: () -> ErrorConversionContext) -> (any Swift.Error)?
    /// The 26 `GenerationError` for a 27 error that has a 26 case; nil for any other error.
    func to26(_ error: any Swift.Error, context: () -> ErrorConversionContext) -> (any Swift.Error)?
}

private struct GenerationErrorBridging: GenerationErrorBridge {
    @available(*, deprecated, message: "names the deprecated GenerationError")
    func to27(_ error: any Swift.Error, context: () -> ErrorConversionContext) -> (any Swift.Error)? {
        guard let error = error as? LanguageModelSession.GenerationError else { return nil }
        let text = error.context.debugDescription
        switch error {
        case .exceededContextWindowSize:
            return LanguageModelError.contextSizeExceeded(.init(contextSize: context().contextSize, tokenCount: 0, debugDescription: text))
        case .assetsUnavailable:
            return SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: text))
        case .guardrailViolation:
            return LanguageModelError.guardrailViolation(.init(debugDescription: text))
        case .unsupportedGuide:
            return LanguageModelError.unsupportedGenerationGuide(.init(schemaName: context().schemaName, debugDescription: text))
        case .unsupportedLanguageOrLocale:
            return LanguageModelError.unsupportedLanguageOrLocale(.init(languageCode: nil, debugDescription: text))
        case .decodingFailure:
            return GeneratedContent.ParsingError(rawContent: "", debugDescription: text)
        case .rateLimited:
            return LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: text))
        case .concurrentRequests:
            return LanguageModelSession.Error.concurrentRequests
        case .refusal:
            return LanguageModelError.refusal(.init(debugDescription: text))
        }
    }

    @available(*, deprecated, message: "names the deprecated GenerationError")
    func to26(_ error: any Swift.Error, context: () -> ErrorConversionContext) -> (any Swift.Error)? {
        typealias GenerationError = LanguageModelSession.GenerationError
        switch error {
        case let error as LanguageModelError:
            let reason = GenerationError.Context(debugDescription: error.debugDescription)
            switch error {
            case .contextSizeExceeded: return GenerationError.exceededContextWindowSize(reason)
            case .rateLimited: return GenerationError.rateLimited(reason)
            case .guardrailViolation: return GenerationError.guardrailViolation(reason)
            case .refusal: return GenerationError.refusal(.init(transcriptEntries: context().transcriptEntries), reason)
            case .unsupportedGenerationGuide: return GenerationError.unsupportedGuide(reason)
            case .unsupportedLanguageOrLocale: return GenerationError.unsupportedLanguageOrLocale(reason)
            case .unsupportedCapability, .unsupportedTranscriptContent, .timeout: return nil
            }
        case let error as GeneratedContent.ParsingError:
            return GenerationError.decodingFailure(.init(debugDescription: error.debugDescription))
        case SystemLanguageModel.Error.assetsUnavailable(let payload):
            return GenerationError.assetsUnavailable(.init(debugDescription: payload.debugDescription))
        case LanguageModelSession.Error.concurrentRequests:
            return GenerationError.concurrentRequests(.init(debugDescription: LanguageModelSession.Error.concurrentRequests.debugDescription))
        default:
            return nil
        }
    }
}
