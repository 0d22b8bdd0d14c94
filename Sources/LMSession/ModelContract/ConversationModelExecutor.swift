import Foundation

/// The executor of the package's own models (``SystemLanguageModel``, ``OpenAICompatibleLanguageModel``,
/// ``ClaudeLanguageModel``, ``FallbackLanguageModel``) until they move onto executors of their own: it runs the
/// model's per-session conversation for one call and sends what it generates into the channel. Not in Apple's
/// API (see docs/differences.md).
///
/// A session does not use it (it keeps one conversation per session, with the local model's KV cache); code
/// that drives executors itself (a model that wraps another) does. Each call starts a fresh conversation, so
/// nothing is cached between calls.
public struct ConversationModelExecutor<Model: LanguageModel>: LanguageModelExecutor {
    /// Nothing: everything the executor needs is in the model.
    public struct Configuration: Hashable, Sendable {
        public init() {}
    }

    public init(configuration: Configuration) {}

    /// - Throws: what the model's conversation throws; ``LanguageModelError/unsupportedCapability(_:)`` for a
    ///   model that is not one of the package's.
    public func respond(to request: LanguageModelExecutorGenerationRequest, model: Model,
                        streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
        guard let model = model as? any ConversationModel else {
            throw LanguageModelError.unsupportedCapability(.init(capability: .toolCalling,
                debugDescription: "\(Model.self) is not one of LMSession's models, so ConversationModelExecutor cannot run it."))
        }
        let responseID = UUID().uuidString
        let toolCallsID = UUID().uuidString
        for try await event in model.makeConversation().generate(LanguageModelRequest(request)) {
            try Task.checkCancellation()
            switch event {
            case .text(let delta):
                await channel.send(.response(entryID: responseID, action: .appendText(delta, tokenCount: 0)))
            case .replaceText(let text):
                await channel.send(.response(entryID: responseID, action: .replaceTextSegment(text, tokenCount: 0)))
            case .content(let content):
                await channel.send(.response(entryID: responseID, action: .replaceTextSegment(content.jsonString, tokenCount: 0)))
            case .toolCalls(let calls):
                for call in calls {
                    if !call.metadata.isEmpty {
                        await channel.send(.toolCalls(entryID: toolCallsID, action: .toolCall(id: call.id, name: call.toolName,
                            action: .updateMetadata(Self.metadata(call.metadata)))))
                    }
                    await channel.send(.toolCalls(entryID: toolCallsID, action: .toolCall(id: call.id, name: call.toolName,
                        action: .appendArguments(call.arguments.jsonString, tokenCount: 0))))
                }
            case .usage(let usage):
                await channel.send(.response(entryID: responseID, action: .updateUsage(
                    input: .init(totalTokenCount: usage.inputTokens, cachedTokenCount: usage.cachedInputTokens),
                    output: .init(totalTokenCount: usage.outputTokens, reasoningTokenCount: usage.reasoningTokens))))
            case .reasoning(let text, let signature):
                await send(Transcript.Reasoning(segments: [.text(Transcript.TextSegment(content: text))], signature: signature), to: channel)
            case .reasoningEntry(let reasoning):
                await send(reasoning, to: channel)
            case .segment(.attachment(let attachment)):
                await channel.send(.response(entryID: responseID, action: .addAttachmentSegment(attachment)))
            case .segment:
                break  // a server tool's segments have no channel event
            case .responseDetails(let details):
                await channel.send(.response(entryID: responseID, action: .updateMetadata(Self.metadata(details.metadata))))
            }
        }
    }

    private func send(_ reasoning: Transcript.Reasoning, to channel: LanguageModelExecutorGenerationChannel) async {
        let text = reasoning.segments.compactMap { if case .text(let t) = $0 { t.content } else { nil } }.joined()
        await channel.send(.reasoning(entryID: reasoning.id, action: .appendText(text, tokenCount: 0)))
        if let signature = reasoning.signature {
            await channel.send(.reasoning(entryID: reasoning.id, action: .updateSignature(signature, tokenCount: 0)))
        }
        if !reasoning.metadata.isEmpty {
            await channel.send(.reasoning(entryID: reasoning.id, action: .updateMetadata(Self.metadata(reasoning.metadata))))
        }
    }

    private static func metadata(_ values: [String: any Sendable & Codable & Equatable]) -> LanguageModelExecutorGenerationChannel.Metadata {
        LanguageModelExecutorGenerationChannel.Metadata(values: values.mapValues { GeneratedContent(metadataValue: $0) })
    }
}

extension LanguageModel where Executor == ConversationModelExecutor<Self> {
    /// The package's models need no configuration: their executor reads the model.
    public var executorConfiguration: ConversationModelExecutor<Self>.Configuration { .init() }
}
