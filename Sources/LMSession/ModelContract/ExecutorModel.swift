import Foundation

/// A model written for Apple's contract, behind the session's internal seam: each model call gets the executor
/// of the model's configuration from ``ExecutorCache`` and coalesces what it streams (``ChannelCoalescer``).
///
/// Apple's protocol says nothing of availability, context size or token counting: the model counts as
/// available, its context as unbounded (the executor throws ``LanguageModelError/contextSizeExceeded(_:)`` when
/// its provider says so), and token counts are estimated (see ``tokenCount(for:)``).
struct ExecutorModel<Model: LanguageModel>: ConversationModel {
    typealias Executor = ConversationModelExecutor<ExecutorModel<Model>>

    let model: Model

    var capabilities: LanguageModelCapabilities { model.capabilities }
    var contextSize: Int { Int.max }

    /// An estimate, about 4 UTF-8 bytes a token, of the text `input` shows the model (no tokenizer is known).
    func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        let text: String = switch input {
        case .request(let request): request.transcript.entries.map(\.description).joined(separator: "\n")
        case .entries(let entries): entries.map(\.description).joined(separator: "\n")
        case .tools(let tools): tools.map { "\($0.name) \($0.description)" }.joined(separator: "\n")
        case .schema(let schema): String(describing: schema)
        }
        return (text.utf8.count + 3) / 4
    }

    func makeConversation() -> any LanguageModelConversation { ExecutorConversation(model: model) }

    /// Apple's framework throws ``LanguageModelError/unsupportedCapability(_:)`` for a capability the model did
    /// not declare.
    func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        .unsupportedCapability(.init(capability: .guidedGeneration,
            debugDescription: "The request has a response schema, but the model does not declare guided generation."))
    }
}

/// One session's calls to an Apple-shaped model. It keeps nothing between calls: per-session state is the
/// executor's to keep (keyed by the transcript it is given).
final class ExecutorConversation<Model: LanguageModel>: LanguageModelConversation, ChecksContextBudget {
    let model: Model

    init(model: Model) {
        self.model = model
    }

    func prewarm(transcript: Transcript, promptPrefix: Prompt?) {
        guard let executor = try? ExecutorCache.shared.executor(for: model) else { return }
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
