import Foundation

/// The executor of the package's models that keep per-session state (``SystemLanguageModel`` and the local model
/// behind it) until they move onto executors of their own: it runs the model's per-session conversation for one
/// call and sends what it generates into the channel. Not in Apple's API (see docs/differences.md).
///
/// A session does not use it (it keeps one conversation per session, with the local model's KV cache); code
/// that drives executors itself (``FallbackLanguageModel``) does. Each call starts a fresh conversation, so
/// nothing is cached between calls; a conversation that does not check the context budget itself
/// (``LanguageModelConversation/checksContextBudget``) is checked here first, as the session would.
public struct ConversationModelExecutor<Model: LanguageModel>: LanguageModelExecutor {
    /// Nothing: everything the executor needs is in the model.
    public struct Configuration: Hashable, Sendable {
        public init() {}
    }

    public init(configuration: Configuration) {}

    /// - Throws: what the model's conversation throws; ``LanguageModelError/contextSizeExceeded(_:)`` when the
    ///   request needs more tokens than the model's context holds; ``LanguageModelError/unsupportedCapability(_:)``
    ///   for a model that is not one of the package's.
    public func respond(to request: LanguageModelExecutorGenerationRequest, model: Model,
                        streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
        guard let model = model as? any ConversationModel else {
            throw LanguageModelError.unsupportedCapability(.init(capability: .toolCalling,
                debugDescription: "\(Model.self) is not one of LMSession's models, so ConversationModelExecutor cannot run it."))
        }
        let request = LanguageModelRequest(request)
        let conversation = model.makeConversation()
        if !conversation.checksContextBudget {
            let needed = try await model.tokenCount(for: .request(request))
            if needed > model.contextSize {
                throw LanguageModelError.contextSizeExceeded(needed: needed, contextSize: model.contextSize)
            }
        }
        let writer = ChannelWriter(channel)
        for try await event in conversation.generate(request) {
            try Task.checkCancellation()
            await writer.send(event)
        }
    }

    public func prewarm(model: Model, transcript: Transcript) {
        (model as? any ConversationModel)?.makeConversation().prewarm(transcript: transcript, promptPrefix: nil)
    }
}

extension LanguageModel where Executor == ConversationModelExecutor<Self> {
    /// The package's models need no configuration: their executor reads the model.
    public var executorConfiguration: ConversationModelExecutor<Self>.Configuration { .init() }
}
