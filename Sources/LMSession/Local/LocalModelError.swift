import LMJinja
import LMTransformer

/// Why a local model cannot be used. Carried by ``SystemLanguageModel/unavailabilityCause`` and thrown by
/// ``SystemLanguageModel/init(fileURL:contextSize:useCase:guardrails:)``.
public enum LocalModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No model file: `searched` lists every path tried, in order.
    case fileNotFound(searched: [String])
    /// The file exists but is not a model we can run (bad GGUF, unsupported architecture, missing tensor...).
    case loadFailed(path: String, reason: String)
    /// The model's chat template (GGUF `tokenizer.chat_template`) does not load: a syntax error, a construct
    /// LMJinja does not support (``JinjaError/unsupported(construct:at:)`` names it and its line), or a template
    /// that crosses its ``JinjaLimits`` rendering one user message (``JinjaError/limitExceeded(_:at:)``, e.g. a
    /// macro that calls itself twice per level), refused at load so that loading stays bounded.
    case unsupportedChatTemplate(path: String, JinjaError)
    /// Weights plus KV cache need more memory than the machine has, in bytes.
    case insufficientMemory(required: UInt64, available: UInt64)
    /// The requested context size is not usable (below 1).
    case invalidContextSize(Int)
    /// The requested thread count is outside `InferenceContext.supportedThreadCounts` (1...64).
    case invalidThreadCount(Int)
    /// Every KV cache the model allows (`maximumConcurrentSessions`) belongs to a session that is
    /// generating, and the model's ``SessionLimitPolicy`` is `.fail`; thrown by a request.
    case tooManySessions(limit: Int)

    public var description: String {
        switch self {
        case .fileNotFound(let searched) where searched.count == 1:
            "no model file at \(searched[0])"
        case .fileNotFound(let searched):
            "no model file found; searched: \(searched.joined(separator: ", ")) (set LMSESSION_MODEL to a GGUF path)"
        case let .loadFailed(path, reason):
            "cannot load \(path): \(reason)"
        case let .unsupportedChatTemplate(path, error):
            "\(path): the chat template does not load: \(error)"
        case let .insufficientMemory(required, available):
            "the model needs \(required / 1_048_576) MiB (weights and KV cache) but only \(available / 1_048_576) MiB are available"
        case .invalidContextSize(let size):
            "invalid context size \(size): it must be at least 1"
        case .tooManySessions(let limit):
            "all \(limit) sessions the model allows at once are generating"
        case .invalidThreadCount(let n):
            "invalid thread count \(n): it must be in \(InferenceContext.supportedThreadCounts.lowerBound)...\(InferenceContext.supportedThreadCounts.upperBound)"
        }
    }
}
