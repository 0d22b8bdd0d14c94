import Synchronization

/// One session's conversations with both models of a ``FallbackLanguageModel``.
final class FallbackConversation: LanguageModelConversation, ChecksContextBudget {
    let model: FallbackLanguageModel
    let primary: any LanguageModelConversation
    let fallback: any LanguageModelConversation
    /// How many model calls went to the fallback model (for tests and diagnostics).
    let fallbackCalls = Atomic(0)

    init(model: FallbackLanguageModel, primary: any LanguageModelConversation, fallback: any LanguageModelConversation) {
        self.model = model
        self.primary = primary
        self.fallback = fallback
    }

    var constrainsStructuredOutput: Bool { primary.constrainsStructuredOutput && fallback.constrainsStructuredOutput }

    func prewarm(transcript: Transcript, promptPrefix: Prompt?) {
        primary.prewarm(transcript: transcript, promptPrefix: promptPrefix)
    }

    func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var produced = false
                    do {
                        try await Self.checkBudget(request, on: primary, of: model.primarySeam)
                        for try await event in primary.generate(request) {
                            produced = true
                            continuation.yield(event)
                        }
                    } catch where !produced && !(error is CancellationError) && model.shouldFallBack(error) {
                        fallbackCalls.add(1, ordering: .relaxed)
                        try await Self.checkBudget(request, on: fallback, of: model.fallbackSeam)
                        for try await event in fallback.generate(request) { continuation.yield(event) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The session's budget check, for a conversation that does not check its budget itself.
    private static func checkBudget(_ request: LanguageModelRequest, on conversation: any LanguageModelConversation,
                                    of model: any ConversationModel) async throws {
        guard !(conversation is any ChecksContextBudget) else { return }
        let needed = try await model.tokenCount(for: .request(request))
        if needed > model.contextSize {
            throw LanguageModelError.contextSizeExceeded(needed: needed, contextSize: model.contextSize)
        }
    }
}
