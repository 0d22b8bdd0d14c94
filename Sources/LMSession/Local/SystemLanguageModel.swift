import Foundation

/// The language model a session talks to (Apple's `SystemLanguageModel`): on Linux, a handle to a local GGUF
/// model run by our transformer runtime, or to any ``LanguageModel`` given as its provider.
///
/// ``default`` is the default GGUF (see ``LocalTransformerProvider/defaultModelPath()``), loaded lazily on
/// first use and once per process: every session shares one loaded model, each with its own KV cache.
/// Observable only in the sense of Apple's API shape: availability is recomputed on each read.
public final class SystemLanguageModel: Sendable {
    /// The provider that runs this model.
    public let provider: any LanguageModel
    /// What ``provider`` says beyond Apple's protocol (its own ``LanguageModelDetails``, or their defaults).
    let providerDetails: any LanguageModelDetails
    /// What the model is used for (recorded; it changes nothing here, see ``UseCase``).
    public let useCase: UseCase
    /// The content checks applied to input and output (see ``Guardrails``).
    public let guardrails: Guardrails

    /// The default local model shared by the whole process.
    public static let `default` = SystemLanguageModel(provider: LocalTransformerProvider.shared, useCase: .general, guardrails: .default)

    /// A handle to the default local model for `useCase` with `guardrails`; shares the loaded model with ``default``.
    public convenience init(useCase: UseCase = .general, guardrails: Guardrails = Guardrails.default) {
        self.init(provider: LocalTransformerProvider.shared, useCase: useCase, guardrails: guardrails)
    }

    /// A handle to any provider: a local model, a remote one, or a scripted one in tests. (Not in Apple's API.)
    public init(provider: some LanguageModel, useCase: UseCase = .general, guardrails: Guardrails = .default) {
        self.provider = provider
        self.providerDetails = provider.conversationModel
        self.useCase = useCase
        self.guardrails = guardrails
    }

    /// Whether the model can be used, and if not why (see ``Availability``).
    public final var availability: Availability { providerDetails.availability }

    /// `availability == .available`.
    public final var isAvailable: Bool { availability == .available }

    /// Tokens one session may hold: instructions, tool definitions, transcript, prompts, schemas and responses.
    /// 4096 for the default model (never more than the model's trained context). Apple 26.4 API.
    public final var contextSize: Int { providerDetails.contextSize }

    /// Languages the model answers in. SmolLM2 and our Gemma 3 270M are trained on English: `["en"]`.
    public final var supportedLanguages: Set<Locale.Language> { providerDetails.supportedLanguages }

    /// Whether the model supports `locale`'s language (the language code is compared, not the region).
    public final func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
        guard let code = locale.language.languageCode else { return false }
        return supportedLanguages.contains { $0.languageCode == code }
    }
}

extension SystemLanguageModel: LanguageModelDetails {
    /// The provider's capabilities (the local model: guided generation, tool calling, and reasoning when its vocabulary has `<think>`).
    public var capabilities: LanguageModelCapabilities { provider.capabilities }
    public var assetIDs: [String] { providerDetails.assetIDs }
    public func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        try await providerDetails.tokenCount(for: input)
    }
    public var constrainsStructuredOutput: Bool { providerDetails.constrainsStructuredOutput }
    public func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        providerDetails.unsupportedSchemaError(schemaName: schemaName)
    }
    public var executorConfiguration: Executor.Configuration { .init() }

    /// Runs a ``SystemLanguageModel``'s calls on its provider's executor (the one the process keeps for the
    /// provider's configuration, as if the provider were asked directly). Keeps nothing itself. Not in Apple's API.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = SystemLanguageModel

        /// Nothing: the provider is the model's.
        public struct Configuration: Hashable, Sendable {
            public init() {}
        }

        public init(configuration: Configuration) {}

        /// - Throws: what the provider's executor throws (and what making it throws).
        public func respond(to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel,
                            streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
            try await model.provider.respondOnItsExecutor(to: request, streamingInto: channel)
        }

        public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
            model.provider.prewarmOnItsExecutor(transcript: transcript)
        }
    }
}

extension SystemLanguageModel {
    /// Whether the model is ready, and if not why (Apple's three reasons).
    @frozen
    public enum Availability: Equatable, Sendable {
        case available
        case unavailable(UnavailableReason)

        public enum UnavailableReason: Equatable, Sendable, Hashable {
            /// The machine cannot run the model (for a local model: not enough memory for weights and KV cache).
            case deviceNotEligible
            /// Never produced here: there is no Apple Intelligence switch on Linux. Kept so `switch`
            /// statements written for Apple's API compile unchanged.
            case appleIntelligenceNotEnabled
            /// The model is not there yet, or cannot be loaded (missing or invalid GGUF file).
            /// ``SystemLanguageModel/unavailabilityCause`` says which.
            case modelNotReady
        }
    }

    /// Why the model is unavailable, in detail (the searched paths, the load error...); `nil` when available
    /// or when the provider does not say. Not in Apple's API.
    public var unavailabilityCause: LocalModelError? {
        (provider as? LocalTransformerProvider)?.unavailabilityCause
    }

    /// What the model is used for. Apple tunes its model per use case; ours has one behaviour for both.
    public struct UseCase: Sendable, Equatable {
        let name: String
        /// General prompting.
        public static let general = UseCase(name: "general")
        /// Tagging and classifying content.
        public static let contentTagging = UseCase(name: "contentTagging")
    }
}
