import Foundation

/// A model that answers with `primary` and, when a model call of `primary` fails with a transient error before
/// it produced anything, makes the same call on `fallback` (by default the local ``SystemLanguageModel``).
///
/// Typical use: a server model first, the on-device model when the server is rate-limited or unreachable:
/// ```swift
/// let model = FallbackLanguageModel(OpenAICompatibleLanguageModel(baseURL: url, model: "qwen3"))
/// let session = LanguageModelSession(model: model)
/// ```
/// The switch is per model call: the next call tries `primary` again. A failure after `primary` streamed
/// part of its answer is not retried (the part cannot be taken back); it ends the request, and the
/// transcript rolls back as for any failure. Not in Apple's API.
public struct FallbackLanguageModel: LanguageModelDetails {
    /// The model asked first.
    public let primary: any LanguageModel
    /// The model asked when `primary` fails with an error `shouldFallBack` accepts.
    public let fallback: any LanguageModel
    let shouldFallBack: @Sendable (any Error) -> Bool
    /// ``primary`` and ``fallback`` as the session uses them, for what they say beyond Apple's protocol (their defaults when they do not adopt ``LanguageModelDetails``).
    let primarySeam: SessionModel
    let fallbackSeam: SessionModel

    /// - Parameters:
    ///   - primary: the model asked first.
    ///   - fallback: the model asked instead; default ``SystemLanguageModel/default``.
    ///   - shouldFallBack: which errors of `primary` switch to `fallback`; default ``isTransient(_:)``.
    public init(_ primary: some LanguageModel, fallback: some LanguageModel = SystemLanguageModel.default,
                when shouldFallBack: @escaping @Sendable (any Error) -> Bool = FallbackLanguageModel.isTransient) {
        self.primary = primary
        self.fallback = fallback
        self.shouldFallBack = shouldFallBack
        self.primarySeam = primary.sessionModel
        self.fallbackSeam = fallback.sessionModel
    }

    /// True for errors that say "try elsewhere", not "this request is wrong": rate limits (27's
    /// ``LanguageModelError/rateLimited(_:)``, or 26's `GenerationError.rateLimited`), timeouts, an unreachable
    /// server or a lost connection, HTTP 5xx, and `URLError`s.
    public static func isTransient(_ error: any Error) -> Bool {
        switch LanguageModelSession.ErrorConvention.sdk27.converting(error) {
        case LanguageModelError.rateLimited, LanguageModelError.timeout: return true
        case ServerModelError.unreachable, ServerModelError.connectionLost: return true
        case ServerModelError.httpStatus(let code, _): return code >= 500
        case is URLError: return true
        default: return false
        }
    }

    /// Available when either model is.
    public var availability: SystemLanguageModel.Availability {
        primarySeam.availability == .available ? .available : fallbackSeam.availability
    }

    /// The smaller of the two: a transcript must fit the model that may have to take it over.
    public var contextSize: Int { min(primarySeam.contextSize, fallbackSeam.contextSize) }

    /// What both models can do.
    public var capabilities: LanguageModelCapabilities {
        let all: [LanguageModelCapabilities.Capability] = [.vision, .guidedGeneration, .reasoning, .toolCalling]
        return LanguageModelCapabilities(capabilities: all.filter { primary.capabilities.contains($0) && fallback.capabilities.contains($0) })
    }

    public var supportedLanguages: Set<Locale.Language> { primarySeam.supportedLanguages.intersection(fallbackSeam.supportedLanguages) }

    public var assetIDs: [String] { primarySeam.assetIDs }

    /// `primary`'s count, or `fallback`'s when `primary` cannot count.
    public func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        do {
            return try await primarySeam.tokenCount(for: input)
        } catch {
            return try await fallbackSeam.tokenCount(for: input)
        }
    }

    /// Nothing: the executor reads the two models from the model it is given.
    public var executorConfiguration: Executor.Configuration { Executor.Configuration() }

    /// ``LanguageModelError/unsupportedGenerationGuide(_:)`` naming the schema: the model never downgrades to text.
    public func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        .schemaWithoutGuidedGeneration(schemaName: schemaName)
    }
}
