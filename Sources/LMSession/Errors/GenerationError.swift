import Foundation

extension LanguageModelSession {
    /// Why a request failed (Apple's 26 `GenerationError`), deprecated as in Apple's 27 SDK. A failed request
    /// leaves the transcript as it was before the request and the session usable.
    ///
    /// Thrown only by sessions whose ``LanguageModelSession/errorConvention`` is
    /// ``LanguageModelSession/ErrorConvention/sdk26`` (Apple: apps built with Xcode 26). By default a request
    /// throws the 27 types instead: ``LanguageModelError``, ``GeneratedContent/ParsingError`` (for
    /// `decodingFailure`), ``SystemLanguageModel/Error`` (for `assetsUnavailable`) and
    /// ``LanguageModelSession/Error`` (for `concurrentRequests`); the table on ``ErrorConvention`` maps each case.
    @available(*, deprecated, message: "Apple 27 throws LanguageModelError, GeneratedContent.ParsingError, SystemLanguageModel.Error and LanguageModelSession.Error; set LanguageModelSession.defaultErrorConvention = .sdk26 to keep receiving GenerationError")
    public enum GenerationError: Swift.Error, LocalizedError {
        /// Instructions, tool definitions, transcript, prompt and schema (or those plus the response so far)
        /// need more tokens than ``SystemLanguageModel/contextSize``. The context's `debugDescription` gives both
        /// numbers. Recover with a new session or a shorter transcript.
        case exceededContextWindowSize(Context)
        /// The model cannot be loaded (file missing or invalid, not enough memory).
        case assetsUnavailable(Context)
        /// A ``SystemLanguageModel/Guardrails`` check rejected the input or the output.
        case guardrailViolation(Context)
        /// A generation guide cannot be enforced.
        case unsupportedGuide(Context)
        /// The prompt's language is not supported. Never produced by the local model (it does not detect
        /// languages); kept for Apple's API.
        case unsupportedLanguageOrLocale(Context)
        /// A structured response could not be decoded (for example cut off by `maximumResponseTokens`).
        case decodingFailure(Context)
        /// Too many requests. Never produced by the local model; a remote provider may.
        case rateLimited(Context)
        /// The session was asked to respond while it was already responding.
        case concurrentRequests(Context)
        /// The model refused. Never produced by the local model (it has no refusal detection); kept for
        /// Apple's API and for providers that detect refusals.
        case refusal(Refusal, Context)

        /// What went wrong, with details for developers.
        public struct Context: Sendable {
            public let debugDescription: String

            public init(debugDescription: String) {
                self.debugDescription = debugDescription
            }
        }

        var context: Context {
            switch self {
            case .exceededContextWindowSize(let c), .assetsUnavailable(let c), .guardrailViolation(let c),
                 .unsupportedGuide(let c), .unsupportedLanguageOrLocale(let c), .decodingFailure(let c),
                 .rateLimited(let c), .concurrentRequests(let c), .refusal(_, let c):
                c
            }
        }

        public var errorDescription: String? {
            switch self {
            case .exceededContextWindowSize: "The content exceeds the model's context window. \(context.debugDescription)"
            case .assetsUnavailable: "The model's assets are unavailable. \(context.debugDescription)"
            case .guardrailViolation: "The content was rejected by the guardrails. \(context.debugDescription)"
            case .unsupportedGuide: "A generation guide is not supported. \(context.debugDescription)"
            case .unsupportedLanguageOrLocale: "The language or locale is not supported. \(context.debugDescription)"
            case .decodingFailure: "The response could not be decoded. \(context.debugDescription)"
            case .rateLimited: "Too many requests. \(context.debugDescription)"
            case .concurrentRequests: "The session is already responding to a request. \(context.debugDescription)"
            case .refusal: "The model refused to respond. \(context.debugDescription)"
            }
        }

        public var failureReason: String? { context.debugDescription }

        public var recoverySuggestion: String? {
            switch self {
            case .exceededContextWindowSize: "Start a new session, or remove entries from the transcript, and try again."
            case .assetsUnavailable: "Check the model file (LMSESSION_MODEL or Models/) and the available memory."
            case .guardrailViolation: "Rephrase the prompt."
            case .unsupportedGuide: "Remove or change the generation guide."
            case .unsupportedLanguageOrLocale: "Use a supported language (see SystemLanguageModel.supportedLanguages)."
            case .decodingFailure: "Retry, or raise maximumResponseTokens."
            case .rateLimited: "Retry later."
            case .concurrentRequests: "Wait until isResponding is false, or use another session."
            case .refusal: "Rephrase the prompt."
            }
        }
    }
}

@available(*, deprecated)
extension LanguageModelSession.GenerationError {
    /// A refusal by the model, with the transcript entries that led to it.
    public struct Refusal: Sendable {
        let transcriptEntries: [Transcript.Entry]

        public init(transcriptEntries: [Transcript.Entry]) {
            self.transcriptEntries = transcriptEntries
        }
    }
}
