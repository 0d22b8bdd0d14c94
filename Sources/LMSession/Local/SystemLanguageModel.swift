import Foundation

/// The on-device language model (Apple's `SystemLanguageModel`, iOS/macOS 26): here a GGUF model run in this process
/// by LMSession's transformer runtime, with its executor, ``LocalModelExecutor``.
///
/// ``default`` is the default GGUF (see ``defaultModelCandidates(environment:)``), loaded lazily on first use and
/// once per process: every handle made with ``init(useCase:guardrails:)`` shares it. A handle made from a path or
/// file URL loads that model; sessions on one handle share its loaded model, each conversation with its own KV
/// cache. Other models (a server's, Claude, a provider written for Apple's contract) are ``LanguageModel``s of their
/// own, given to ``LanguageModelSession/init(model:tools:instructions:)`` directly. Observable only in the sense of
/// Apple's API shape: availability is recomputed on each read.
public final class SystemLanguageModel: LanguageModelDetails {
    public typealias Executor = LocalModelExecutor

    /// The loaded (or to-be-loaded) GGUF model.
    package let local: LocalModel
    /// What the model is used for (recorded; it changes nothing here, see ``UseCase``).
    public let useCase: UseCase
    /// The content checks applied to input and output (see ``Guardrails``).
    public let guardrails: Guardrails

    /// The default local model shared by the whole process.
    public static let `default` = SystemLanguageModel(local: .shared, useCase: .general, guardrails: .default)

    /// A handle to the default local model for `useCase` with `guardrails`; shares the loaded model with ``default``.
    public convenience init(useCase: UseCase = .general, guardrails: Guardrails = Guardrails.default) {
        self.init(local: .shared, useCase: useCase, guardrails: guardrails)
    }

    /// A handle to the GGUF model at `path`; nothing is read until first use (``availability`` then says whether it
    /// loads). (Not in Apple's API.)
    /// - Parameters:
    ///   - mmprojPath: an `mmproj` GGUF for the model (llama.cpp's image encoder and projector, Idefics3/SmolVLM or
    ///     Gemma 3), which gives the model the `.vision` capability; nil for text only.
    ///   - contextSize: tokens per session (default 4096), capped by the model's trained context length.
    ///   - threads: threads per forward pass, 1...64 (default: the runtime's choice).
    ///   - memoryLimit: bytes the model may use (default: physical memory); when weights plus a full KV cache
    ///     need more, ``availability`` is `.unavailable(.deviceNotEligible)`.
    ///   - maximumConcurrentSessions: KV caches the sessions hold at once (nil: no limit), each
    ///     `ForwardEngine.cacheBytes` (about 94 MB for SmolLM2 at 4096 tokens, touched as it fills).
    ///     An idle session's cache is taken back when another request needs one (it prefills again
    ///     next time); when all belong to generating sessions, a request waits or throws
    ///     ``LocalModelError/tooManySessions(limit:)``, as `whenSessionLimitReached` says. Between requests
    ///     the model keeps the caches of at most this many idle conversations, and at least 16
    ///     (``LocalConversationPool``): a session's next turn continues its own cache while it is kept.
    public convenience init(path: String, mmprojPath: String? = nil, contextSize: Int = 4096, threads: Int? = nil,
                            memoryLimit: UInt64? = nil, maximumConcurrentSessions: Int? = nil,
                            whenSessionLimitReached: SessionLimitPolicy = .wait,
                            useCase: UseCase = .general, guardrails: Guardrails = .default) {
        self.init(local: LocalModel(path: path, mmprojPath: mmprojPath, contextSize: contextSize, threads: threads,
                                    memoryLimit: memoryLimit, maximumConcurrentSessions: maximumConcurrentSessions,
                                    whenSessionLimitReached: whenSessionLimitReached),
                  useCase: useCase, guardrails: guardrails)
    }

    /// A handle to `local`, which other handles may share.
    package init(local: LocalModel, useCase: UseCase = .general, guardrails: Guardrails = .default) {
        self.local = local
        self.useCase = useCase
        self.guardrails = guardrails
    }

    /// Whether the model can be used, and if not why (see ``Availability``): `.modelNotReady` when the file is
    /// missing or does not load, `.deviceNotEligible` when weights plus a full KV cache do not fit in memory.
    /// Loads the model on first read.
    public var availability: Availability { local.availability }

    /// `availability == .available`.
    public var isAvailable: Bool { availability == .available }

    /// Tokens one session may hold: instructions, tool definitions, transcript, prompts, schemas and responses.
    /// 4096 for the default model (never more than the model's trained context). Apple 26.4 API.
    public var contextSize: Int { local.contextSize }

    /// Languages the model answers in. SmolLM2 and our Gemma 3 270M are trained on English: `["en"]`.
    public var supportedLanguages: Set<Locale.Language> { [Locale.Language(identifier: "en")] }

    /// Whether the model supports `locale`'s language (the language code is compared, not the region).
    public func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
        guard let code = locale.language.languageCode else { return false }
        return supportedLanguages.contains { $0.languageCode == code }
    }

    /// Guided generation; tool calling unless the model's chat template writes tool calls in a syntax the session
    /// cannot constrain (a session with tools is then refused with ``LanguageModelError/unsupportedCapability(_:)``,
    /// rather than showing the model's call markup as the response); `.reasoning` when the model's vocabulary has
    /// `<think>` and `</think>` tokens (Qwen3: see ``ContextOptions/reasoningLevel``); `.vision` when an `mmproj`
    /// file is loaded with the model. Reading it loads the model, as ``availability`` does; a model that does not
    /// load has the first two.
    public var capabilities: LanguageModelCapabilities { local.capabilities }

    /// The model's name (GGUF `general.name`), once loaded.
    public var assetIDs: [String] { local.assetIDs }

    /// - Throws: as a request would: ``LanguageModelError/unsupportedCapability(_:)`` (`.vision`) for entries with
    ///   attachments on a model without an image encoder, ``Transcript/ImageAttachment/LoadError`` for an image that
    ///   cannot be read, what loading the model throws, what rendering throws.
    public func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        try await local.tokenCount(for: input)
    }

    /// True: tokens that would break the response schema are masked, so a complete response follows it.
    public var constrainsStructuredOutput: Bool { true }

    /// ``LanguageModelError/unsupportedGenerationGuide(_:)``: the local model never downgrades to text.
    public func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        .schemaWithoutGuidedGeneration(schemaName: schemaName)
    }

    /// The local executor reads the model it is given; one serves every local model.
    public var executorConfiguration: LocalModelExecutor.Configuration { .init() }
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

    /// Why the model is unavailable, in detail (the searched paths, the load error...); `nil` when available.
    /// Loads the model on first read. Not in Apple's API.
    public var unavailabilityCause: LocalModelError? { local.unavailabilityCause }

    /// What the model is used for. Apple tunes its model per use case; ours has one behaviour for both.
    public struct UseCase: Sendable, Equatable {
        let name: String
        /// General prompting.
        public static let general = UseCase(name: "general")
        /// Tagging and classifying content.
        public static let contentTagging = UseCase(name: "contentTagging")
    }
}
