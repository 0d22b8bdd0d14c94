import Foundation
import LMGrammar

// What a step produces: cumulative snapshots while it streams, and at the end of the request the checked
// response entry that joins the transcript.
extension ResponseRun {
    /// The response as generated content: the text, or the structured value (`final`: read from the whole
    /// text once; otherwise the incremental reading so far), with the response's identity.
    func rawContent(final: Bool) -> GeneratedContent? {
        if plan.responseFormat == nil { return GeneratedContent(kind: .string(text)) }
        var content = structured ?? (!final ? json.content : text.isEmpty ? nil : Self.finalContent(text))
        content?.id = generationID
        return content
    }

    /// The value of a finished response's whole text. Read as complete JSON first: a bare number at the end
    /// of the text is whole once the provider ended the response (one cut off by the token budget is the
    /// provider's to report); otherwise the deepest valid prefix, which is incomplete.
    static func finalContent(_ text: String) -> GeneratedContent? {
        if let value = try? JSONValue.parse(text) { return GeneratedContent(value) }
        return try? GeneratedContent(json: text)
    }

    func snapshot() throws -> LanguageModelSession.ResponseStream<Content>.Snapshot? {
        if plan.responseFormat == nil { try checkGuardrails(text, .output) }
        guard let raw = rawContent(final: false), let partial = try? Content.PartiallyGenerated(raw) else { return nil }
        return .init(content: partial, rawContent: raw)
    }

    /// Ends the request with the step's response: checks it, runs the profile's `onReasoning` and `onResponse`,
    /// and stores the new transcript.
    func complete() async throws {
        endStep()
        events = nil
        guard let raw = rawContent(final: true), raw.isComplete else {
            throw GeneratedContent.ParsingError(rawContent: text, debugDescription:
                "The response is not a complete \(plan.responseFormat.map { $0.name.isEmpty ? "value" : $0.name } ?? "value"); generation may have been terminated early"
                + (text.isEmpty ? " (no token was generated: is maximumResponseTokens 0?)" : ": \(text)"))
        }
        if let format = plan.responseFormat, call?.model.constrainsStructuredOutput != true {
            try format.schema.checkConformance(of: raw)
        }
        try checkGuardrails(plan.responseFormat == nil ? text : raw.jsonString, .output)
        // The transcript keeps the value without the stream's identity (transcript JSON has no place for it).
        var stored = raw
        stored.id = nil
        let segments: [Transcript.Segment] = plan.responseFormat.map {
            extraSegments.map(\.segment) + [.structure(Transcript.StructuredSegment(source: $0.name, content: stored))]
        } ?? textSegments()
        try await callbacks.reasoning(in: stepReasoning)
        newEntries += stepReasoning
        stepReasoning = []
        var response = Transcript.Response(assetIDs: model.assetIDs, segments: segments)
        if let responseDetails {
            if let id = responseDetails.entryID { response.id = id }
            response.metadata = responseDetails.metadata
        }
        try await callbacks.response(response)
        newEntries.append(.response(response))
        session.propertyValues.state.withLock { $0.request = nil }
        let transcript = Transcript(entries: base.entries + newEntries)
        guard session.endRequest(transcript: transcript, usage: usage) else {
            let error = LanguageModelSession.Error.transcriptMutationWhileResponding
            phase = .finished(.failure(error))
            throw error
        }
        phase = .finished(.success(Final(rawContent: raw, transcript: transcript, firstNewEntry: base.count, usage: usage)))
    }

    /// The text response's segments: the text, cut where other segments came and interleaved with them (one
    /// text segment, possibly empty, when there are none).
    func textSegments() -> [Transcript.Segment] {
        guard !extraSegments.isEmpty else { return [.text(Transcript.TextSegment(content: text))] }
        var segments: [Transcript.Segment] = []
        var start = text.utf8.startIndex
        for (segment, offset) in extraSegments {
            let end = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
            if start < end { segments.append(.text(Transcript.TextSegment(content: String(text[start..<end])))) }
            segments.append(segment)
            start = end
        }
        if start < text.endIndex { segments.append(.text(Transcript.TextSegment(content: String(text[start...])))) }
        return segments
    }
}
