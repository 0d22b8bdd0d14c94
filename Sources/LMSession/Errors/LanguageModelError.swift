import Foundation

/// Why a model call failed (Apple's 27 `LanguageModelError`).
///
/// Thrown by requests on every model (the local one, ``OpenAICompatibleLanguageModel``, ``ClaudeLanguageModel``)
/// and by the session's checks (context budget, capabilities, guardrails). With the 26 convention
/// (``LanguageModelSession/ErrorConvention/sdk26``) a case that has a 26 counterpart is thrown as
/// ``LanguageModelSession/GenerationError`` instead. A failed request leaves the transcript as it was (unless
/// ``TranscriptErrorHandlingPolicy/preserveTranscript``).
public enum LanguageModelError: Error, LocalizedError, CustomDebugStringConvertible {
    /// Input and response need more tokens than the model's context holds. Recover by removing entries from
    /// the transcript and trying again.
    case contextSizeExceeded(ContextSizeExceeded)
    /// The model's service refused more requests for now; `resetDate` is when to retry, when the service said.
    case rateLimited(RateLimited)
    /// A content check rejected the input or the output.
    case guardrailViolation(GuardrailViolation)
    /// The model declined to answer.
    case refusal(Refusal)
    /// The request needs something the model cannot do (a schema, tools, images, reasoning).
    case unsupportedCapability(UnsupportedCapability)
    /// The transcript holds entries the model cannot take (for example images for a text-only model).
    case unsupportedTranscriptContent(UnsupportedTranscriptContent)
    /// The model cannot follow the schema's generation guides (or structured output at all).
    case unsupportedGenerationGuide(UnsupportedGenerationGuide)
    /// The model does not support the language of the request.
    case unsupportedLanguageOrLocale(UnsupportedLanguageOrLocale)
    /// The model did not answer in time.
    case timeout(Timeout)

    /// Token counts of a request over the context size.
    public struct ContextSizeExceeded: Sendable {
        /// Tokens the model holds (input and output).
        public var contextSize: Int
        /// Tokens the request needed (0 when the service did not say).
        public var tokenCount: Int
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(contextSize: Int, tokenCount: Int, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.contextSize = contextSize
            self.tokenCount = tokenCount
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// When a rate-limited request may be retried.
    public struct RateLimited: Sendable {
        /// From the service's `retry-after` (seconds or an HTTP date) or reset header; nil when not sent.
        public var resetDate: Date?
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(resetDate: Date? = nil, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.resetDate = resetDate
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public struct GuardrailViolation: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public struct Refusal: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public struct UnsupportedCapability: Sendable {
        /// The capability the request needed.
        public var capability: LanguageModelCapabilities.Capability
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(capability: LanguageModelCapabilities.Capability, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.capability = capability
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public struct UnsupportedTranscriptContent: Sendable {
        /// The entries the model cannot take.
        public var unsupportedContent: [Transcript.Entry]
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(unsupportedContent: [Transcript.Entry], debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.unsupportedContent = unsupportedContent
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public struct UnsupportedGenerationGuide: Sendable {
        /// The schema whose guides cannot be followed.
        public var schemaName: String?
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(schemaName: String?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.schemaName = schemaName
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public struct UnsupportedLanguageOrLocale: Sendable {
        public var languageCode: Locale.LanguageCode?
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(languageCode: Locale.LanguageCode?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.languageCode = languageCode
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public struct Timeout: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]
        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    public var debugDescription: String {
        switch self {
        case .contextSizeExceeded(let p): p.debugDescription
        case .rateLimited(let p): p.debugDescription
        case .guardrailViolation(let p): p.debugDescription
        case .refusal(let p): p.debugDescription
        case .unsupportedCapability(let p): p.debugDescription
        case .unsupportedTranscriptContent(let p): p.debugDescription
        case .unsupportedGenerationGuide(let p): p.debugDescription
        case .unsupportedLanguageOrLocale(let p): p.debugDescription
        case .timeout(let p): p.debugDescription
        }
    }

    public var errorDescription: String? {
        let what = switch self {
        case .contextSizeExceeded: "The content exceeds the model's context size."
        case .rateLimited: "Too many requests."
        case .guardrailViolation: "The content was rejected by the guardrails."
        case .refusal: "The model refused to respond."
        case .unsupportedCapability: "The model does not support a capability the request needs."
        case .unsupportedTranscriptContent: "The model cannot take some of the transcript's content."
        case .unsupportedGenerationGuide: "The model cannot follow the response schema."
        case .unsupportedLanguageOrLocale: "The language or locale is not supported."
        case .timeout: "The model did not respond in time."
        }
        let ended = debugDescription.last.map { ".!?".contains($0) } ?? true
        return "\(what) \(debugDescription)\(ended ? "" : ".")"
    }

    public var recoverySuggestion: String? {
        switch self {
        case .contextSizeExceeded: "Remove entries from the transcript, or start a new session, and try again."
        case .rateLimited(let p): p.resetDate.map { "Retry after \($0)." } ?? "Retry later."
        case .guardrailViolation, .refusal: "Rephrase the prompt."
        case .unsupportedCapability, .unsupportedTranscriptContent: "Use a model that supports it, or change the request."
        case .unsupportedGenerationGuide(let c) where c.debugDescription.contains("no value satisfies"):
            "Change the schema or guide: no value satisfies it, whichever model generates."
        case .unsupportedGenerationGuide: "Simplify the schema or guide (a pattern, a size), or use a model that supports it."
        case .unsupportedLanguageOrLocale: "Use a supported language."
        case .timeout: "Retry, or raise the model's timeout."
        }
    }
}

extension LanguageModelError {
    /// The budget error of the session and the local model: the request needed `needed` tokens and the context
    /// holds `contextSize`, in the words Apple's framework uses ("Content contains 4098 tokens, which exceeds the
    /// maximum allowed context size of 4096.").
    static func contextSizeExceeded(needed: Int, contextSize: Int) -> LanguageModelError {
        .contextSizeExceeded(ContextSizeExceeded(contextSize: contextSize, tokenCount: needed, debugDescription:
            "Content contains \(needed) tokens, which exceeds the maximum allowed context size of \(contextSize)."))
    }
}
