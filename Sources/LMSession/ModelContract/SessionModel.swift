import Foundation

/// A ``LanguageModel`` as the session uses it: Apple's contract for generating (each model call gets the executor of
/// the model's configuration from ``ExecutorCache``, and what the executor streams is coalesced by
/// ``ChannelCoalescer`` into ``LanguageModelEvent``s for the request's state machine), and what LMSession asks beyond
/// it (``LanguageModelDetails``, when the model adopts it; the protocol's defaults otherwise: available, an unbounded
/// context, estimated counts).
///
/// Holds nothing between calls: a conversation's state is the executor's or the model's to keep, found by the
/// transcript each request carries, so any session may run any request on any model.
struct SessionModel: Sendable {
    let model: any LanguageModel
    /// `model` as ``LanguageModelDetails``, when it adopts it.
    private let details: (any LanguageModelDetails)?
    /// `model` when it is the local model, whose guardrails and tool-calling support the session checks.
    private let local: SystemLanguageModel?

    init(_ model: some LanguageModel) {
        self.model = model
        self.details = model as? any LanguageModelDetails
        self.local = model as? SystemLanguageModel
    }

    var capabilities: LanguageModelCapabilities { model.capabilities }
    var availability: SystemLanguageModel.Availability { details?.availability ?? .available }
    var contextSize: Int { details?.contextSize ?? Int.max }
    var supportedLanguages: Set<Locale.Language> { details?.supportedLanguages ?? [Locale.Language(identifier: "en")] }
    var assetIDs: [String] { details?.assetIDs ?? [] }

    /// The model's count, or an estimate of 4 UTF-8 bytes a token for a model without ``LanguageModelDetails``.
    /// - Throws: what the model's own count throws.
    func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        if let details { return try await details.tokenCount(for: input) }
        return LanguageModelTokenCountInput.estimate(input)
    }

    /// True when the model constrains structured output by construction (the session then skips its check).
    var constrainsStructuredOutput: Bool { details?.constrainsStructuredOutput ?? false }

    /// True when the model checks the context budget itself, or declares no context size (no ``LanguageModelDetails``):
    /// the session then does not count the request first.
    var checksContextBudget: Bool { details?.checksContextBudget ?? true }

    /// The model's own error when it adopts ``LanguageModelDetails``; otherwise what Apple's framework throws for
    /// a capability the model did not declare, ``LanguageModelError/unsupportedCapability(_:)``.
    func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        details?.unsupportedSchemaError(schemaName: schemaName) ?? .undeclaredGuidedGeneration
    }

    /// A ``SystemLanguageModel``'s guardrails (Apple's are the on-device model's); none for other models.
    var guardrails: SystemLanguageModel.Guardrails { local?.guardrails ?? .default }

    /// Why the model is unavailable, when it says (``LanguageModelDetails/unavailabilityDescription``).
    var unavailabilityDescription: String? { details?.unavailabilityDescription }

    /// Why the local model cannot call tools (``SystemLanguageModel/missingToolCallingDescription``); nil for others.
    var missingToolCallingDescription: String? { local?.missingToolCallingDescription }

    /// Starts the executor's prewarm; the start of the next prompt, when given, is a trailing prompt entry.
    /// Best effort: nothing when the executor cannot be made.
    func prewarm(transcript: Transcript, promptPrefix: Prompt?) {
        var transcript = transcript
        if let promptPrefix, !promptPrefix.segments.isEmpty {
            transcript.entries.append(.prompt(Transcript.Prompt(segments: promptPrefix.segments)))
        }
        model.prewarmOnItsExecutor(transcript: transcript)
    }

    /// Runs the executor's `respond` for `request` beside a reader of its channel, whose events come out coalesced;
    /// terminating the stream cancels both.
    ///
    /// The stream throws what the executor throws: Apple's 27 types for model-level failures (``LanguageModelError``,
    /// ``SystemLanguageModel/Error``, ``GeneratedContent/ParsingError``), converted by the session as its
    /// ``LanguageModelSession/errorConvention`` says; others stay in the model's own types.
    func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
        Self.generate(request, on: model)
    }

    private static func generate<Model: LanguageModel>(_ request: LanguageModelRequest,
                                                       on model: Model) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let executor = try ExecutorCache.shared.executor(for: model)
                    let channel = LanguageModelExecutorGenerationChannel()
                    async let responded: Void = respond(executor, model, LanguageModelExecutorGenerationRequest(request), channel)
                    var coalescer = ChannelCoalescer()
                    for await event in channel {
                        for step in coalescer.consume(event) { continuation.yield(step) }
                    }
                    try await responded
                    try Task.checkCancellation()
                    for step in try coalescer.finish() { continuation.yield(step) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func respond<Model: LanguageModel>(_ executor: Model.Executor, _ model: Model,
                                                      _ request: LanguageModelExecutorGenerationRequest,
                                                      _ channel: LanguageModelExecutorGenerationChannel) async throws {
        defer { channel.finish() }
        try await executor.respond(to: request, model: model, streamingInto: channel)
    }
}

extension LanguageModel {
    /// This model as the session uses it.
    var sessionModel: SessionModel { SessionModel(self) }
}
