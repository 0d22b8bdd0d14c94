import Foundation

/// Folds one model call's channel events into the session's step events, the way Apple's guide says the
/// framework builds transcript entries from them:
///
/// - Response text appends to the entry's current text segment (a new `segmentID` opens a segment); a
///   replacement rewrites a segment. Text at the end streams as ``LanguageModelEvent/text(_:)`` deltas; a change
///   before the end sends the whole text again (``LanguageModelEvent/replaceText(_:)``).
/// - Reasoning events with one `entryID` build one reasoning entry; `entryID: nil` joins the trailing reasoning
///   entry when the previous event was reasoning, and opens a new entry otherwise. Signatures and metadata
///   replace earlier ones. Entries are reported when the call ends (the session records a step's reasoning
///   with its response or tool calls).
/// - Tool calls accumulate their argument text by call id, in the order the calls opened; a removed call is
///   dropped. They are reported, with their arguments parsed, when the call ends.
/// - Usage reports replace the earlier report of the same entry; the step's usage is the sum over entries.
///   Without any report, output tokens are the sum of the events' token counts (reasoning ones apart).
/// - Metadata snapshots replace the entry's earlier metadata.
/// - A package model's non-text segment (``ResponseSegmentEvent``) streams at once, so it sits where it came.
struct ChannelCoalescer {
    typealias Channel = LanguageModelExecutorGenerationChannel

    private enum EntryKind: Hashable { case response, reasoning, toolCalls }

    private struct TextSegments {
        var segments: [(id: String?, text: String)] = []
        var text: String { segments.map(\.text).joined() }

        /// Appends `fragment`; true when it went to the end of the text.
        mutating func append(_ fragment: Channel.TextFragment) -> Bool {
            if let id = fragment.segmentID, let index = segments.firstIndex(where: { $0.id == id }) {
                segments[index].text += fragment.content
                return index == segments.count - 1
            }
            if segments.isEmpty || fragment.segmentID != nil {
                segments.append((fragment.segmentID, fragment.content))
            } else {
                segments[segments.count - 1].text += fragment.content
            }
            return true
        }

        mutating func replace(_ replacement: Channel.TextSegmentReplacement) {
            if let id = replacement.segmentID, let index = segments.firstIndex(where: { $0.id == id }) {
                segments[index].text = replacement.content
            } else if replacement.segmentID == nil, !segments.isEmpty {
                segments[segments.count - 1].text = replacement.content
            } else {
                segments.append((replacement.segmentID, replacement.content))
            }
        }
    }

    private struct ReasoningDraft {
        var id: String
        var text = TextSegments()
        var signature: Data?
        var metadata: [String: GeneratedContent] = [:]
    }

    private struct ToolCallDraft {
        var id: String
        var name: String
        var arguments = ""
        var metadata: [String: GeneratedContent] = [:]
    }

    private var previous: EntryKind?
    private var responseEntryID: String?
    private var response = TextSegments()
    private var responseMetadata: [String: GeneratedContent]?
    private var attachments: [Transcript.AttachmentSegment] = []
    private var reasoning: [ReasoningDraft] = []
    private var calls: [ToolCallDraft] = []
    private var usageReports: [String: Channel.Usage] = [:]
    private var countedOutputTokens = 0
    private var countedReasoningTokens = 0

    /// The step events `event` makes now (text deltas and usage stream; the rest waits for ``finish()``).
    mutating func consume(_ event: any Channel.Event) -> [LanguageModelEvent] {
        if let segment = event as? ResponseSegmentEvent {
            previous = .response
            if responseEntryID == nil { responseEntryID = segment.entryID }
            return [.segment(segment.segment)]
        }
        switch event.kind.storage {
        case .response(let response): return consume(response)
        case .reasoning(let reasoning): return consume(reasoning)
        case .toolCalls(let toolCalls): return consume(toolCalls)
        }
    }

    private mutating func consume(_ event: Channel.Response) -> [LanguageModelEvent] {
        previous = .response
        if responseEntryID == nil { responseEntryID = event.entryID }
        switch event.action {
        case .appendText(let fragment):
            countedOutputTokens += fragment.tokenCount
            return response.append(fragment) ? [.text(fragment.content)] : [.replaceText(response.text)]
        case .replaceTextSegment(let replacement):
            response.replace(replacement)
            return [.replaceText(response.text)]
        case .addAttachmentSegment(let segment):
            attachments.append(segment)
        case .removeAttachmentSegment(let id):
            attachments.removeAll { $0.id == id }
        case .updateMetadata(let metadata):
            responseMetadata = metadata.values
        case .updateUsage(let usage):
            return report(usage, for: .response, entryID: event.entryID)
        }
        return []
    }

    private mutating func consume(_ event: Channel.Reasoning) -> [LanguageModelEvent] {
        let index: Int
        if let id = event.entryID, let found = reasoning.firstIndex(where: { $0.id == id }) {
            index = found
        } else if event.entryID == nil, previous == .reasoning, !reasoning.isEmpty {
            index = reasoning.count - 1
        } else {
            reasoning.append(ReasoningDraft(id: event.entryID ?? UUID().uuidString))
            index = reasoning.count - 1
        }
        previous = .reasoning
        switch event.action {
        case .appendText(let fragment):
            countedReasoningTokens += fragment.tokenCount
            _ = reasoning[index].text.append(fragment)
        case .replaceTextSegment(let replacement):
            reasoning[index].text.replace(replacement)
        case .updateSignature(let signature):
            countedReasoningTokens += signature.tokenCount
            reasoning[index].signature = signature.signature
        case .updateMetadata(let metadata):
            reasoning[index].metadata = metadata.values
        case .updateUsage(let usage):
            return report(usage, for: .reasoning, entryID: reasoning[index].id)
        }
        return []
    }

    private mutating func consume(_ event: Channel.ToolCalls) -> [LanguageModelEvent] {
        previous = .toolCalls
        switch event.action {
        case .toolCall(let call):
            let index = calls.firstIndex { $0.id == call.id } ?? {
                calls.append(ToolCallDraft(id: call.id, name: call.name))
                return calls.count - 1
            }()
            switch call.action {
            case .appendArguments(let fragment):
                countedOutputTokens += fragment.tokenCount
                calls[index].arguments += fragment.content
            case .updateMetadata(let metadata):
                calls[index].metadata = metadata.values
            }
        case .removeToolCall(let id):
            calls.removeAll { $0.id == id }
        case .updateMetadata:
            // The session makes the tool-calls entry from the calls alone (docs/differences.md).
            break
        case .updateUsage(let usage):
            return report(usage, for: .toolCalls, entryID: event.entryID)
        }
        return []
    }

    private mutating func report(_ usage: Channel.Usage, for kind: EntryKind, entryID: String?) -> [LanguageModelEvent] {
        usageReports["\(kind):\(entryID ?? "")"] = usage
        return [.usage(reportedUsage)]
    }

    private var reportedUsage: LanguageModelUsage {
        var total = LanguageModelUsage(inputTokens: 0, outputTokens: 0)
        for usage in usageReports.values {
            total.inputTokens += usage.input.totalTokenCount
            total.cachedInputTokens += usage.input.cachedTokenCount
            total.outputTokens += usage.output.totalTokenCount
            total.reasoningTokens += usage.output.reasoningTokenCount
        }
        return total
    }

    /// The step events of the call's end: its reasoning entries, the response's id, metadata and attachments,
    /// its tool calls, and the usage counted from token counts when no usage was reported.
    /// - Throws: ``GeneratedContent/ParsingError`` when a tool call's arguments are not a complete JSON value.
    func finish() throws -> [LanguageModelEvent] {
        var events: [LanguageModelEvent] = reasoning.map { draft in
            .reasoningEntry(Transcript.Reasoning(
                id: draft.id, metadata: draft.metadata.mapValues(\.metadataValue),
                segments: draft.text.segments.map { .text(Transcript.TextSegment(content: $0.text)) }, signature: draft.signature))
        }
        if responseEntryID != nil || responseMetadata != nil {
            events.append(.responseDetails(LanguageModelResponseDetails(
                entryID: responseEntryID, metadata: (responseMetadata ?? [:]).mapValues(\.metadataValue))))
        }
        events += attachments.map { .segment(.attachment($0)) }
        if !calls.isEmpty {
            events.append(.toolCalls(try calls.map { call in
                let text = call.arguments.trimmingCharacters(in: .whitespacesAndNewlines)
                let arguments = try GeneratedContent(json: text.isEmpty ? "{}" : text)
                guard arguments.isComplete else {
                    throw GeneratedContent.ParsingError(rawContent: call.arguments,
                        debugDescription: "The arguments of tool call \(call.id) to \(call.name) are not a complete JSON value.")
                }
                return Transcript.ToolCall(id: call.id, metadata: call.metadata.mapValues(\.metadataValue),
                                           toolName: call.name, arguments: arguments)
            }))
        }
        if usageReports.isEmpty {
            events.append(.usage(LanguageModelUsage(inputTokens: 0, outputTokens: countedOutputTokens + countedReasoningTokens,
                                                    reasoningTokens: countedReasoningTokens)))
        }
        return events
    }
}
