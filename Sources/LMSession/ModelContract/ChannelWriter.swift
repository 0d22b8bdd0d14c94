import Foundation

/// Sends the events of the package's own generators (``LanguageModelEvent``s: the server models' stream decoders,
/// the local model's ``LocalConversation``) into an executor's channel, with one response entry id and one tool-calls entry
/// id for the model call, as Apple's guide asks: text appends to the response, a whole value or a replacement
/// replaces its text segment, tool calls open one call each (per-call metadata first), usage and metadata replace
/// earlier reports, each reasoning block is one reasoning entry.
///
/// A segment other than an attachment (Claude's server tool activity, a structured segment) has no event in Apple's
/// API; it goes as an LMSession-internal ``ResponseSegmentEvent``, which the session places where it came.
struct ChannelWriter {
    typealias Channel = LanguageModelExecutorGenerationChannel

    let channel: Channel
    let responseEntryID = UUID().uuidString
    let toolCallsEntryID = UUID().uuidString

    init(_ channel: Channel) {
        self.channel = channel
    }

    func send(_ event: LanguageModelEvent) async {
        switch event {
        case .text(let delta):
            await channel.send(.response(entryID: responseEntryID, action: .appendText(delta, tokenCount: 0)))
        case .replaceText(let text):
            await channel.send(.response(entryID: responseEntryID, action: .replaceTextSegment(text, tokenCount: 0)))
        case .content(let content):
            await channel.send(.response(entryID: responseEntryID, action: .replaceTextSegment(content.jsonString, tokenCount: 0)))
        case .toolCalls(let calls):
            for call in calls {
                if !call.metadata.isEmpty {
                    await channel.send(.toolCalls(entryID: toolCallsEntryID, action: .toolCall(id: call.id, name: call.toolName,
                        action: .updateMetadata(Self.metadata(call.metadata)))))
                }
                await channel.send(.toolCalls(entryID: toolCallsEntryID, action: .toolCall(id: call.id, name: call.toolName,
                    action: .appendArguments(call.arguments.jsonString, tokenCount: 0))))
            }
        case .usage(let usage):
            await channel.send(.response(entryID: responseEntryID, action: .updateUsage(
                input: .init(totalTokenCount: usage.inputTokens, cachedTokenCount: usage.cachedInputTokens),
                output: .init(totalTokenCount: usage.outputTokens, reasoningTokenCount: usage.reasoningTokens))))
        case .reasoning(let text, let signature):
            await send(Transcript.Reasoning(segments: [.text(Transcript.TextSegment(content: text))], signature: signature))
        case .reasoningEntry(let reasoning):
            await send(reasoning)
        case .segment(.attachment(let attachment)):
            await channel.send(.response(entryID: responseEntryID, action: .addAttachmentSegment(attachment)))
        case .segment(let segment):
            await channel.send(ResponseSegmentEvent(entryID: responseEntryID, segment: segment))
        case .responseDetails(let details):
            await channel.send(.response(entryID: responseEntryID, action: .updateMetadata(Self.metadata(details.metadata))))
        }
    }

    private func send(_ reasoning: Transcript.Reasoning) async {
        let text = reasoning.segments.compactMap { if case .text(let t) = $0 { t.content } else { nil } }.joined()
        await channel.send(.reasoning(entryID: reasoning.id, action: .appendText(text, tokenCount: 0)))
        if let signature = reasoning.signature {
            await channel.send(.reasoning(entryID: reasoning.id, action: .updateSignature(signature, tokenCount: 0)))
        }
        if !reasoning.metadata.isEmpty {
            await channel.send(.reasoning(entryID: reasoning.id, action: .updateMetadata(Self.metadata(reasoning.metadata))))
        }
    }

    static func metadata(_ values: [String: any Sendable & Codable & Equatable]) -> Channel.Metadata {
        Channel.Metadata(values: values.mapValues { GeneratedContent(metadataValue: $0) })
    }
}

/// A segment of the response other than text or an attachment (a Claude server tool's call or result), placed
/// after the response text sent so far. LMSession-internal: Apple's channel has no such event (its 27.2 data
/// attachments need `UTType`). Read by ``ChannelCoalescer``; to any other reader it is an empty text append.
struct ResponseSegmentEvent: LanguageModelExecutorGenerationChannel.Event {
    let entryID: String
    let segment: Transcript.Segment

    var kind: LanguageModelExecutorGenerationChannel.EventKind {
        .init(storage: .response(.init(entryID: entryID, action: .appendText("", tokenCount: 0))))
    }
}
