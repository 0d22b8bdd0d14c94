import Foundation

/// The executor of the local GGUF model (``SystemLanguageModel``), Apple's `LanguageModelExecutor` contract
/// (iOS/macOS 27): it runs one request on one of the model's conversations and streams what it generates into the
/// channel. Holds nothing itself: the loaded model, its KV caches (one per conversation, kept between requests in
/// the model's ``LocalConversationPool``, found by transcript) and the batching of concurrent requests belong to
/// the model object, so every executor the framework makes for it shares them.
public struct LocalModelExecutor: LanguageModelExecutor {
    public typealias Model = SystemLanguageModel

    /// Nothing: the executor reads everything from the model it is given.
    public struct Configuration: Hashable, Sendable {
        public init() {}
    }

    public init(configuration: Configuration) {}

    /// Generates the next step of `request` with the model's conversation for its transcript.
    ///
    /// - Throws: ``LanguageModelError/contextSizeExceeded(_:)`` when the rendered request does not fit the context,
    ///   ``SystemLanguageModel/Error/assetsUnavailable(_:)`` when the model does not load,
    ///   ``LanguageModelError/unsupportedCapability(_:)`` (`.vision`) for images without an `mmproj` file,
    ///   ``LocalModelError/tooManySessions(limit:)`` when every KV cache is busy under `.fail`, what rendering and
    ///   guided decoding throw. Cancelling the task stops generation within one token.
    public func respond(to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel,
                        streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
        let request = LanguageModelRequest(request)
        let conversation = model.local.conversations.take(for: request.transcript) { LocalConversation(local: model.local) }
        defer { model.local.conversations.put(conversation, transcript: request.transcript) }
        let writer = ChannelWriter(channel)
        for try await event in conversation.generate(request) {
            await writer.send(event)
        }
        try Task.checkCancellation()
    }

    /// Prefills `transcript` into a conversation in the background; a trailing prompt entry is taken as the start
    /// of the next prompt (its text is prefilled without the end of its turn).
    public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
        var entries = transcript.entries
        var promptPrefix: Prompt?
        if case .prompt(let prompt) = entries.last {
            entries.removeLast()
            promptPrefix = Prompt(segments: prompt.segments)
        }
        let history = Transcript(entries: entries)
        let conversation = model.local.conversations.take(for: history) { LocalConversation(local: model.local) }
        conversation.prewarm(transcript: history, promptPrefix: promptPrefix)
        model.local.conversations.put(conversation, transcript: history)
    }
}
