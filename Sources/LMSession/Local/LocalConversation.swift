import Foundation
import LMGeneration
import LMTokenizer
import LMTransformer
import Synchronization

/// One conversation's state on a local model (``LocalModel``): its KV cache, re-used across turns, as a
/// sequence of the model's ``BatchScheduler``: its prompt is prefilled in chunks between the decode
/// steps of the other sessions, and its tokens are decoded in the same batched steps as theirs.
///
/// Work runs on a private serial queue (not the Swift concurrency pool, which long forward passes would
/// starve, and whose threads must not block waiting for a batched step), so prewarming and generation of
/// one session never overlap.
final class LocalConversation: @unchecked Sendable {
    // @unchecked: `slot.sequence` is read and written on `queue` while this session holds its cache in the
    // model's budget, or set to nil by the budget (under its lock) while the session is idle.
    let local: LocalModel
    private let queue = DispatchQueue(label: "LMSession.LocalConversation")
    private let slot = SequenceSlot()

    /// The session's sequence, boxed so that the budget's evict closure holds the box, not the conversation:
    /// a conversation released while that closure held it would run its deinit, which takes the budget's
    /// lock, under that lock, and wait for itself for ever.
    private final class SequenceSlot: @unchecked Sendable {
        var sequence: BatchedSequence?
    }

    /// Tokens per prefill batch: large enough for batched matmuls, small enough to notice cancellation quickly.
    static let prefillChunk = 128

    init(local: LocalModel) {
        self.local = local
    }

    deinit { local.budget.remove(ObjectIdentifier(self)) }

    /// Takes this session's KV cache from the model's budget for a request (or keeps the one it has).
    /// - Returns: false when stopped while waiting.
    private func acquireCache(wait: Bool, stop: StopFlag) throws(LocalModelError) -> Bool {
        try local.budget.acquire(self, wait: wait, evict: { [slot] in slot.sequence = nil }, isCancelled: { stop.isSet })
    }

    func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
        AsyncThrowingStream { continuation in
            let stop = StopFlag()
            continuation.onTermination = { _ in stop.set() }
            queue.async {
                do {
                    try self.run(request, stop: stop) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    func prewarm(transcript: Transcript, promptPrefix: Prompt?) {
        queue.async {
            try? self.prefill(transcript: transcript, promptPrefix: promptPrefix)
        }
    }

    // MARK: - On `queue`

    private func batchedSequence(_ loaded: LoadedModel) -> BatchedSequence {
        if let sequence = slot.sequence { return sequence }
        let created = BatchedSequence(context: InferenceContext(engine: loaded.scheduler.engine), scheduler: loaded.scheduler)
        slot.sequence = created
        return created
    }

    /// Puts `tokens` in the KV cache, re-using the longest cached prefix, and returns the logits of the last one.
    /// - Returns: the logits and how many tokens came from the cache; nil when stopped.
    /// A prefix kept in `prefixes` that covers more than the context's own cache is copied in first.
    /// Image rows (negative placeholder ids, ``LocalVision``) are prefilled from their embeddings, a run of one
    /// image's rows at a time.
    private func load(_ tokens: [Int], into context: BatchedSequence, prefixes: PrefixCache, vision: LocalVision?,
                      stop: StopFlag) throws -> (logits: UnsafeBufferPointer<Float>, cached: Int)? {
        // At least the last token is evaluated again: its logits are needed.
        var cached = min(context.context.commonPrefixLength(with: tokens), tokens.count - 1)
        if let shared = prefixes.longestMatch(tokens), min(shared.count, tokens.count - 1) > cached {
            cached = min(shared.count, tokens.count - 1)
            context.context.restore(shared.prefix, count: cached)
        }
        // Rows that attend to each other in full are evaluated together: a cached part of such an image is redone.
        if vision?.bidirectional == true { cached = LocalVision.imageStart(tokens, at: cached) }
        context.truncate(to: cached)
        guard let logits = try Self.prefill(tokens, from: cached, into: context, vision: vision, stop: stop) else { return nil }
        return (logits, cached)
    }

    /// Prefills `tokens[start...]` into `context` in chunks of at most ``prefillChunk`` rows (a run of one image's
    /// rows at a time; a whole image when its rows attend to each other in full) and returns the logits after the
    /// last; nil when stopped.
    static func prefill(_ tokens: [Int], from start: Int, into context: BatchedSequence, vision: LocalVision?,
                        stop: StopFlag) throws -> UnsafeBufferPointer<Float>? {
        var start = start
        var logits = UnsafeBufferPointer<Float>(start: nil, count: 0)
        let bidirectional = vision?.bidirectional == true
        while start < tokens.count {
            if stop.isSet { return nil }
            let isImage = tokens[start] < 0
            var end = start + 1
            while end < tokens.count, (isImage && bidirectional) || end - start < Self.prefillChunk,
                  isImage ? LocalVision.continuesImage(tokens[end - 1], tokens[end]) : tokens[end] >= 0 { end += 1 }
            if isImage {
                guard let rows = try Self.imageRows(tokens[start..<end], vision: vision, nEmbd: context.context.model.config.nEmbd,
                                                    stop: stop) else { return nil }
                logits = try context.prefill(embeddings: rows, ids: Array(tokens[start..<end]), bidirectional: bidirectional)
            } else {
                logits = try context.prefill(Array(tokens[start..<end]))
            }
            start = end
        }
        return logits
    }

    /// The embeddings of placeholder ids of one image, `[ids.count, nEmbd]`; nil when `stop` was set while encoding.
    /// - Throws: ``LanguageModelError/unsupportedTranscriptContent(_:)`` when there is no vision encoder or the
    ///   image cannot be encoded.
    private static func imageRows(_ ids: ArraySlice<Int>, vision: LocalVision?, nEmbd: Int, stop: StopFlag) throws -> [Float]? {
        guard let vision, let first = ids.first else {
            throw LanguageModelError.unsupportedTranscriptContent(.init(unsupportedContent: [], debugDescription: "The prompt holds image rows but the model has no image encoder."))
        }
        guard let all = try vision.embeddings(key: LocalVision.split(first).key, isCancelled: { stop.isSet }) else { return nil }
        var rows: [Float] = []
        rows.reserveCapacity(ids.count * nEmbd)
        for id in ids {
            let r = LocalVision.split(id).row
            guard (r + 1) * nEmbd <= all.count else {
                throw LanguageModelError.unsupportedTranscriptContent(.init(unsupportedContent: [], debugDescription: "Image row \(r) is beyond the image's \(all.count / nEmbd) embeddings."))
            }
            rows += all[(r * nEmbd)..<((r + 1) * nEmbd)]
        }
        return rows
    }

    /// Renders and tokenizes the request once: the budget check (``LanguageModelDetails/checksContextBudget``) and the prompt use
    /// the same tokens, and the KV cache keeps their longest common prefix with the last request's.
    /// - Throws: ``LanguageModelError/unsupportedCapability(_:)`` (`.vision`) when the transcript holds attachments
    ///   and the model has no image encoder (a session turns them away earlier; this guards direct calls).
    private func run(_ request: LanguageModelRequest, stop: StopFlag, emit: (LanguageModelEvent) -> Void) throws {
        try local.refuseImagesWithoutEncoder(request.transcript)
        let loaded = try local.loadedForGeneration()
        let prompt = try loaded.renderer.promptTokens(for: request, contextSize: loaded.contextSize)
        guard !prompt.isEmpty else {
            throw LanguageModelError.unsupportedTranscriptContent(.init(unsupportedContent: Array(request.transcript),
                debugDescription: "The model's chat template renders this transcript as no tokens."))
        }
        let vocabulary = DecodeVocabulary(tokenizer: loaded.model.tokenizer, toolSyntax: loaded.renderer.toolSyntax,
                                          indexCache: loaded.tokenIndex)
        let schemaGuide = try LocalDecoding.schemaGuideWithinBudget(request, vocabulary: vocabulary)
        guard try acquireCache(wait: true, stop: stop) else { return }
        defer { local.budget.release(self) }
        let context = batchedSequence(loaded)
        defer { context.close() }
        guard let (logits, cached) = try load(prompt, into: context, prefixes: loaded.prefixCache, vision: loaded.renderer.vision,
                                              stop: stop) else { return }
        loaded.keepInstructionPrefix(of: request.transcript, prompt: prompt, context: context.context)
        let promptEnd = ReasoningPromptEnd(prompt, markers: vocabulary.reasoningMarkers, isWhitespace: vocabulary.isWhitespace)
        try LocalDecoding.run(request, vocabulary: vocabulary, forward: context, logits: logits, promptCount: prompt.count,
                              cached: cached, promptEnd: promptEnd, schemaGuide: schemaGuide, isCancelled: { stop.isSet }, emit: emit)
    }

    private func prefill(transcript: Transcript, promptPrefix: Prompt?) throws {
        let loaded = try local.loadedForGeneration()
        // Prewarming never waits for a cache (it may take back an idle session's).
        guard (try? acquireCache(wait: false, stop: StopFlag())) == true else { return }
        defer { local.budget.release(self) }
        let context = batchedSequence(loaded)
        let tokens = loaded.renderer.prewarmTokens(transcript: transcript, promptPrefix: promptPrefix)
        guard !tokens.isEmpty, tokens.count <= loaded.contextSize else { return }
        _ = try load(tokens, into: context, prefixes: loaded.prefixCache, vision: loaded.renderer.vision, stop: StopFlag())
    }
}

/// Set once to stop generation; read between tokens.
final class StopFlag: Sendable {
    private let flag = Atomic(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
