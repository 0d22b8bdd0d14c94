import Foundation

/// A model written for Apple's contract, behind the session's internal seam: each model call gets the executor
/// of the model's configuration from ``ExecutorCache`` and coalesces what it streams (``ChannelCoalescer``).
///
/// Apple's protocol says nothing of availability, context size or token counting: they come from the model's
/// ``LanguageModelDetails`` when it adopts it, and are the protocol's defaults otherwise (available, an unbounded
/// context, estimated counts).
struct ExecutorModel<Model: LanguageModel>: ConversationModel {
    /// Runs the wrapped model's executor (for code that drives executors itself; the session uses
    /// ``makeConversation()``).
    struct Executor: LanguageModelExecutor {
        struct Configuration: Hashable, Sendable {}
        init(configuration: Configuration) {}
        func respond(to request: LanguageModelExecutorGenerationRequest, model: ExecutorModel,
                     streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
            try await model.model.respondOnItsExecutor(to: request, streamingInto: channel)
        }
        func prewarm(model: ExecutorModel, transcript: Transcript) { model.model.prewarmOnItsExecutor(transcript: transcript) }
    }

    var executorConfiguration: Executor.Configuration { .init() }

    let model: Model
    /// `model` as ``LanguageModelDetails``, when it adopts it.
    private let details: (any LanguageModelDetails)?

    init(model: Model) {
        self.model = model
        self.details = model as? any LanguageModelDetails
    }

    var capabilities: LanguageModelCapabilities { model.capabilities }
    var availability: SystemLanguageModel.Availability { details?.availability ?? .available }
    var contextSize: Int { details?.contextSize ?? Int.max }
    var supportedLanguages: Set<Locale.Language> { details?.supportedLanguages ?? [Locale.Language(identifier: "en")] }
    var assetIDs: [String] { details?.assetIDs ?? [] }

    func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        if let details { return try await details.tokenCount(for: input) }
        return LanguageModelTokenCountInput.estimate(input)
    }

    func makeConversation() -> any LanguageModelConversation {
        ExecutorConversation(model: model)
    }

    /// The model's own error when it adopts ``LanguageModelDetails``; otherwise what Apple's framework throws for
    /// a capability the model did not declare, ``LanguageModelError/unsupportedCapability(_:)``.
    func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        if let details { return details.unsupportedSchemaError(schemaName: schemaName) }
        return .unsupportedCapability(.init(capability: .guidedGeneration,
            debugDescription: "The request has a response schema, but the model does not declare guided generation."))
    }
}

extension ExecutorModel: ExplainsUnavailability, ExplainsMissingToolCalling {
    var unavailabilityDescription: String? { (model as? any ExplainsUnavailability)?.unavailabilityDescription }
    var missingToolCallingDescription: String? { (model as? any ExplainsMissingToolCalling)?.missingToolCallingDescription }
    /// A ``SystemLanguageModel``'s guardrails; none for other models.
    var guardrails: SystemLanguageModel.Guardrails { (model as? SystemLanguageModel)?.guardrails ?? .default }
}

/// One session's calls to an Apple-shaped model. It keeps nothing between calls: per-session state is the
/// executor's to keep (keyed by the transcript it is given).
final class ExecutorConversation<Model: LanguageModel>: LanguageModelConversation {
    let model: Model

    init(model: Model) {
        self.model = model
    }

    var constrainsStructuredOutput: Bool { (model as? any LanguageModelDetails)?.constrainsStructuredOutput ?? false }
    var checksContextBudget: Bool { leavesBudgetCheck(to: model) }

    /// The executor's prewarm; the start of the next prompt, when given, is a trailing prompt entry.
    func prewarm(transcript: Transcript, promptPrefix: Prompt?) {
        guard let executor = try? ExecutorCache.shared.executor(for: model) else { return }
        var transcript = transcript
        if let promptPrefix, !promptPrefix.segments.isEmpty {
            transcript.entries.append(.prompt(Transcript.Prompt(segments: promptPrefix.segments)))
        }
        executor.prewarm(model: model, transcript: transcript)
    }

    /// Runs the executor's `respond` beside a reader of its channel; terminating the stream cancels both.
    func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
        let model = self.model
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let executor = try ExecutorCache.shared.executor(for: model)
                    let channel = LanguageModelExecutorGenerationChannel()
                    async let responded: Void = Self.respond(executor, model, LanguageModelExecutorGenerationRequest(request), channel)
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

    private static func respond(_ executor: Model.Executor, _ model: Model, _ request: LanguageModelExecutorGenerationRequest,
                                _ channel: LanguageModelExecutorGenerationChannel) async throws {
        defer { channel.finish() }
        try await executor.respond(to: request, model: model, streamingInto: channel)
    }
}

extension LanguageModel {
    /// This model behind the session's seam: itself for the package's models, an ``ExecutorModel`` otherwise.
    var conversationModel: any ConversationModel {
        (self as? any ConversationModel) ?? ExecutorModel(model: self)
    }
}
