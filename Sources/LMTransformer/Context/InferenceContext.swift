import Foundation
import LMKernels

/// One sequence's state: its KV cache `[nLayer, contextSize, nKVHead * headDim]` and tokens, and the
/// ``ForwardEngine`` it computes on (activation scratch and threads), all allocated once in `init`;
/// evaluating tokens allocates nothing.
///
/// A context made from a model has an engine of its own. Contexts made with ``init(engine:)``
/// share one: they must take turns, and ``ForwardEngine/decode(_:tokens:forEachLogits:)`` advances
/// many of them in one pass.
///
/// Not for concurrent use. `@unchecked Sendable` so that one owner at a time can hand it between
/// tasks (a session keeps its context across requests); the model it reads is shared read-only.
public final class InferenceContext: @unchecked Sendable {
    public let model: TransformerModel
    /// Maximum tokens this context holds.
    public let contextSize: Int
    /// Tokens in the KV cache, at positions `0..<tokens.count`.
    public private(set) var tokens: [Int] = []
    /// The compute this context runs on (its own, or shared with other contexts).
    public let engine: ForwardEngine

    /// Tokens evaluated per forward pass during prefill.
    static var maxBatch: Int { ForwardEngine.maxBatch }
    let cache: KVCache
    private var scratch: ForwardScratch { engine.scratch }

    /// A context with an engine of its own.
    /// - Parameters:
    ///   - contextSize: positions in the KV cache, in tokens (at most the model's trained length).
    ///   - threads: compute threads including the caller, in ``supportedThreadCounts`` (default: all
    ///     cores, at most 8).
    ///   - kernels: the kernel set (default: the fastest this CPU runs, ``KernelSet/active``); another
    ///     supported set is for comparing results.
    /// - Throws: ``InferenceError/invalidContextSize(_:)`` when `contextSize` is not positive,
    ///   ``InferenceError/invalidThreadCount(_:)`` when `threads` is outside ``supportedThreadCounts``.
    public convenience init(model: TransformerModel, contextSize: Int = 4096, threads: Int? = nil,
                            kernels: KernelSet = .active) throws(InferenceError) {
        self.init(engine: try ForwardEngine(model: model, contextSize: contextSize, threads: threads, kernels: kernels))
    }

    /// A context of ``ForwardEngine/contextSize`` positions computing on `engine`, which other
    /// contexts may share (they must take turns: the engine is not for concurrent use). Allocates the
    /// KV cache (``ForwardEngine/cacheBytes``, touched only as positions fill).
    public init(engine: ForwardEngine) {
        let c = engine.model.config
        self.engine = engine
        self.model = engine.model
        self.contextSize = engine.contextSize
        cache = KVCache(nLayer: c.nLayer, contextSize: contextSize, nKVHead: c.nKVHead, headDim: c.headDim)
        tokens.reserveCapacity(contextSize)
        engine.contextOpened()
    }

    deinit { engine.contextClosed() }

    /// Thread counts a context accepts: more threads than this only contend for the cores.
    public static let supportedThreadCounts = 1...64

    public static var defaultThreadCount: Int {
        min(8, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Keeps the first `count` cached tokens and forgets the rest (prefix reuse, rollback).
    public func truncate(to count: Int) {
        if count < tokens.count { tokens.removeSubrange(max(0, count)...) }
    }

    /// Length of the longest common prefix of `other` and the cached tokens.
    public func commonPrefixLength(with other: [Int]) -> Int {
        var n = 0
        while n < min(other.count, tokens.count), other[n] == tokens[n] { n += 1 }
        return n
    }

    /// Appends `newTokens` at positions `tokens.count...` (batched prefill) and returns the logits of
    /// the last one, `[vocabSize]`, valid until the next call on this context.
    /// - Throws: ``InferenceError/contextFull(needed:available:)`` or ``InferenceError/invalidToken(_:)``;
    ///   the cache is unchanged then.
    @discardableResult
    public func evaluate(_ newTokens: [Int]) throws(InferenceError) -> UnsafeBufferPointer<Float> {
        try validate(newTokens)
        guard !newTokens.isEmpty else { return UnsafeBufferPointer(start: scratch.logits, count: 0) }
        var start = 0
        while start < newTokens.count {
            let n = min(Self.maxBatch, newTokens.count - start)
            let isLast = start + n == newTokens.count
            forward(newTokens[start..<start + n], logits: isLast ? .last : .none)
            start += n
        }
        return UnsafeBufferPointer(start: scratch.logits, count: model.config.vocabSize)
    }

    /// Appends one token and returns the next-token logits `[vocabSize]`, valid until the next call.
    /// The decode step: it allocates nothing.
    /// - Throws: as ``evaluate(_:)``.
    @discardableResult
    public func evaluate(token: Int) throws(InferenceError) -> UnsafeBufferPointer<Float> {
        guard tokens.count < contextSize else { throw .contextFull(needed: 1, available: 0) }
        guard token >= 0, token < model.config.vocabSize else { throw .invalidToken(token) }
        engine.forward(CollectionOfOne(token), cache: cache, firstPosition: tokens.count, logits: .last)
        tokens.append(token)
        return UnsafeBufferPointer(start: scratch.logits, count: model.config.vocabSize)
    }

    /// Appends `newTokens` and calls `body(i, logits)` with the logits `[vocabSize]` after token `i`
    /// for every `i` in `firstLogits..<newTokens.count` (perplexity scores only part of a chunk, and
    /// the output head is the costliest matmul). The buffer is valid only inside `body`.
    /// - Throws: as ``evaluate(_:)``.
    public func evaluate(_ newTokens: [Int], logitsFrom firstLogits: Int = 0,
                         forEachLogits body: (Int, UnsafeBufferPointer<Float>) -> Void) throws(InferenceError) {
        try validate(newTokens)
        var start = 0
        let vocab = model.config.vocabSize
        while start < newTokens.count {
            let n = min(Self.maxBatch, newTokens.count - start)
            var t = min(n, max(0, firstLogits - start))
            forward(newTokens[start..<start + n], logits: .none)
            while t < n {
                let m = min(ForwardEngine.logitRows, n - t)
                engine.logits(rows: t..<t + m)
                for i in 0..<m { body(start + t + i, UnsafeBufferPointer(start: scratch.logits + i * vocab, count: vocab)) }
                t += m
            }
            start += n
        }
    }

    /// Appends rows given as embeddings instead of token ids (the image tokens of a vision model,
    /// as llama.cpp's `mtmd` decodes an image chunk) at positions `tokens.count...`, and returns the
    /// logits after the last one, `[vocabSize]`, valid until the next call on this context.
    ///
    /// `ids` name the rows in ``tokens`` (one per row, each negative so that it is never a vocabulary
    /// id): a later prompt whose ids match reuses these rows' keys and values
    /// (``commonPrefixLength(with:)``), so the caller gives the same image the same ids.
    /// - Parameters:
    ///   - embeddings: `[ids.count, nEmbd]` row-major.
    ///   - ids: the rows' placeholder ids, all negative.
    ///   - bidirectional: the rows attend to each other in full, as llama.cpp's `mtmd` decodes Gemma 3's image
    ///     tokens (`mtmd_decode_use_non_causal`); the sliding window still applies. Otherwise causally.
    /// - Throws: ``InferenceError/embeddingShape(expected:found:)`` when `embeddings` is not
    ///   `ids.count` rows of `nEmbd`, ``InferenceError/invalidToken(_:)`` for an id that is not
    ///   negative, ``InferenceError/contextFull(needed:available:)``,
    ///   ``InferenceError/bidirectionalSpanTooLong(count:limit:)`` for bidirectional rows that do not fit in one
    ///   pass (``maxBatch``); the cache is unchanged then.
    @discardableResult
    public func evaluate(embeddings: [Float], ids: [Int], bidirectional: Bool = false) throws(InferenceError) -> UnsafeBufferPointer<Float> {
        let nEmbd = model.config.nEmbd
        guard embeddings.count == ids.count * nEmbd else { throw .embeddingShape(expected: ids.count * nEmbd, found: embeddings.count) }
        if let bad = ids.first(where: { $0 >= 0 }) { throw .invalidToken(bad) }
        let available = contextSize - tokens.count
        guard ids.count <= available else { throw .contextFull(needed: ids.count, available: available) }
        guard !bidirectional || ids.count <= Self.maxBatch else { throw .bidirectionalSpanTooLong(count: ids.count, limit: Self.maxBatch) }
        guard !ids.isEmpty else { return UnsafeBufferPointer(start: scratch.logits, count: 0) }
        embeddings.withUnsafeBufferPointer { rows in
            var start = 0
            while start < ids.count {
                let n = min(Self.maxBatch, ids.count - start)
                engine.forward(embeddings: rows.baseAddress! + start * nEmbd, count: n, cache: cache, firstPosition: tokens.count,
                               bidirectional: bidirectional, logits: start + n == ids.count ? .last : .none)
                tokens.append(contentsOf: ids[start..<start + n])
                start += n
            }
        }
        return UnsafeBufferPointer(start: scratch.logits, count: model.config.vocabSize)
    }

    private func validate(_ newTokens: [Int]) throws(InferenceError) {
        let available = contextSize - tokens.count
        guard newTokens.count <= available else { throw .contextFull(needed: newTokens.count, available: available) }
        let vocab = model.config.vocabSize
        if let bad = newTokens.first(where: { $0 < 0 || $0 >= vocab }) { throw .invalidToken(bad) }
    }

    /// One forward pass over at most `maxBatch` tokens, appended to the cache.
    private func forward(_ batch: ArraySlice<Int>, logits selection: ForwardEngine.LogitSelection) {
        engine.forward(batch, cache: cache, firstPosition: tokens.count, logits: selection)
        tokens.append(contentsOf: batch)
    }

    /// Sets the cached tokens to `restored`, whose keys and values were just copied into the cache.
    func replaceTokens(with restored: ArraySlice<Int>) {
        tokens.removeAll(keepingCapacity: true)
        tokens.append(contentsOf: restored)
    }

    /// Records `token` as evaluated at position `tokens.count` (by a batched pass of the engine).
    func appendEvaluated(_ token: Int) { tokens.append(token) }
}
