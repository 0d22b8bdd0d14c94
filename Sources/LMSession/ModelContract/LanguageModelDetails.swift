import Foundation

/// What a session asks of a model beyond Apple's ``LanguageModel`` protocol: whether it can run now, how many
/// tokens its context holds and how many a request takes, and what its responses record. Not in Apple's API (see
/// docs/differences.md): a provider written for Apple's contract need not adopt it, and every requirement has a
/// default, so a model adopts only what it knows.
///
/// The package's server models (``OpenAICompatibleLanguageModel``, ``ClaudeLanguageModel``,
/// ``FallbackLanguageModel``) and ``SystemLanguageModel`` adopt it. Without it a model counts as available, its
/// context as unbounded (its executor throws ``LanguageModelError/contextSizeExceeded(_:)`` when its provider says
/// so), and token counts are an estimate of 4 UTF-8 bytes a token.
public protocol LanguageModelDetails: LanguageModel {
    /// Whether the model can be used now; a request on an unavailable model throws
    /// ``SystemLanguageModel/Error/assetsUnavailable(_:)`` before the executor is called. Default `.available`.
    var availability: SystemLanguageModel.Availability { get }

    /// Tokens one session may hold: instructions, tool definitions, transcript, prompt, schema and response.
    /// Default `Int.max` (the provider decides).
    var contextSize: Int { get }

    /// Languages the model answers in. Default English.
    var supportedLanguages: Set<Locale.Language> { get }

    /// Recorded as ``Transcript/Response/assetIDs`` of every response. Default none.
    var assetIDs: [String] { get }

    /// Tokens `input` takes in a request (`.request` is what a budget check compares with ``contextSize``).
    /// Default: an estimate, 4 UTF-8 bytes a token of the text the input shows the model.
    /// - Throws: what the model's own count throws (a server's count request, a model that cannot be loaded).
    func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int

    /// True when every complete structured response follows the request's schema by construction (the local model
    /// masks tokens with the schema's grammar); the session then skips its conformance check. Default false: the
    /// session checks the complete response and throws ``GeneratedContent/ParsingError`` when it does not conform.
    var constrainsStructuredOutput: Bool { get }

    /// What a request with a response schema throws when ``LanguageModel/capabilities`` lacks guided generation.
    /// Default ``LanguageModelError/unsupportedCapability(_:)`` (`.guidedGeneration`), as Apple's framework throws.
    func unsupportedSchemaError(schemaName: String?) -> LanguageModelError

    /// Why the model is unavailable (the searched paths, the unreachable server and its error...), which the session
    /// puts in the ``SystemLanguageModel/Error/assetsUnavailable(_:)`` a request on it throws: Apple's `Availability`
    /// has three reasons and no room for a cause. Default nil (the reason alone).
    var unavailabilityDescription: String? { get }

    /// True when the model checks the context budget itself, on the very tokens it generates from, or its provider
    /// does (its errors becoming ``LanguageModelError/contextSizeExceeded(_:)``): the session then does not count the
    /// request through ``tokenCount(for:)`` first, so a request is rendered and tokenized once. Default false: the
    /// session counts every request against ``contextSize`` before the executor runs. (A model without this protocol
    /// declares no context size, so it is not counted either.)
    var checksContextBudget: Bool { get }
}

extension LanguageModelDetails {
    public var availability: SystemLanguageModel.Availability { .available }
    public var contextSize: Int { Int.max }
    public var supportedLanguages: Set<Locale.Language> { [Locale.Language(identifier: "en")] }
    public var assetIDs: [String] { [] }
    public var constrainsStructuredOutput: Bool { false }
    public var unavailabilityDescription: String? { nil }
    public var checksContextBudget: Bool { false }

    public func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        LanguageModelTokenCountInput.estimate(input)
    }

    public func unsupportedSchemaError(schemaName: String?) -> LanguageModelError { .undeclaredGuidedGeneration }
}

extension LanguageModelError {
    /// What Apple's framework throws for a response schema on a model whose capabilities lack guided generation.
    static var undeclaredGuidedGeneration: LanguageModelError {
        .unsupportedCapability(.init(capability: .guidedGeneration,
            debugDescription: "The request has a response schema, but the model does not declare guided generation."))
    }

    /// What the package's models throw for a response schema on a model without guided generation: they never
    /// downgrade to text, and name the schema.
    static func schemaWithoutGuidedGeneration(schemaName: String?) -> LanguageModelError {
        .unsupportedGenerationGuide(.init(schemaName: schemaName,
            debugDescription: "The model does not support guided generation, so it cannot follow the response schema."))
    }
}

extension LanguageModelTokenCountInput {
    /// About 4 UTF-8 bytes a token of the text `input` shows the model, for a model without a tokenizer.
    static func estimate(_ input: LanguageModelTokenCountInput) -> Int {
        let text: String = switch input {
        case .request(let request): request.transcript.entries.map(\.description).joined(separator: "\n")
        case .entries(let entries): entries.map(\.description).joined(separator: "\n")
        case .tools(let tools): tools.map { "\($0.name) \($0.description)" }.joined(separator: "\n")
        case .schema(let schema): String(describing: schema)
        }
        return (text.utf8.count + 3) / 4
    }
}
