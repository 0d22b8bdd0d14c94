import LMKernels

/// One sequence's state: the KV cache `[nLayer, contextSize, nKVHead * headDim]`, activation
/// scratch and compute threads, all allocated once in `init`; evaluating tokens allocates nothing.
///
/// Not for concurrent use. `@unchecked Sendable` so that one owner at a time can hand it between
/// tasks (a session keeps its context across requests); the model it reads is shared read-only.
public final class InferenceContext: @unchecked Sendable {
    public let model: TransformerModel
    /// Maximum tokens this context holds.
    public let contextSize: Int
    /// Tokens in the KV cache, at positions `0..<tokens.count`.
    public private(set) var tokens: [Int] = []

    /// Tokens evaluated per forward pass during prefill: prefill kernels repack each weight tile
    /// once per pass, so longer passes repack less (256 over 64: Gemma 3 prefill ~+5%, for ~10 MB
    /// more scratch per context).
    static let maxBatch = 256
    /// Rows of logits computed at once (`[logitRows, vocabSize]` Floats of scratch).
    static let logitRows = 64
    private let cache: KVCache
    private let scratch: ForwardScratch
    private let compute: ComputeResources
    private let decoder: Decoder
    /// RoPE of global and local layers at this context size.
    private let ropeGlobal: RoPE, ropeLocal: RoPE
    private let usesGlobalRoPE: Bool, usesLocalRoPE: Bool

    /// - Parameters:
    ///   - contextSize: positions in the KV cache, in tokens (at most the model's trained length).
    ///   - threads: compute threads including the caller, in ``supportedThreadCounts`` (default: all
    ///     cores, at most 8).
    ///   - kernels: the kernel set (default: the fastest this CPU runs, ``KernelSet/active``); another
    ///     supported set is for comparing results.
    /// - Throws: ``InferenceError/invalidContextSize(_:)`` when `contextSize` is not positive,
    ///   ``InferenceError/invalidThreadCount(_:)`` when `threads` is outside ``supportedThreadCounts``.
    public init(model: TransformerModel, contextSize: Int = 4096, threads: Int? = nil,
                kernels: KernelSet = .active) throws(InferenceError) {
        guard contextSize > 0 else { throw .invalidContextSize(contextSize) }
        if let threads, !Self.supportedThreadCounts.contains(threads) { throw .invalidThreadCount(threads) }
        let c = model.config
        self.model = model
        self.decoder = model.decoder
        self.contextSize = min(contextSize, c.contextLength)
        (ropeGlobal, ropeLocal) = model.decoder.ropes(contextSize: self.contextSize)
        usesGlobalRoPE = c.nLayer > 0 && (0..<c.nLayer).contains { c.ropeLayers[$0] && !c.localLayers[$0] }
        usesLocalRoPE = c.nLayer > 0 && (0..<c.nLayer).contains { c.ropeLayers[$0] && c.localLayers[$0] }
        let nThreads = threads ?? InferenceContext.defaultThreadCount
        cache = KVCache(nLayer: c.nLayer, contextSize: self.contextSize, nKVHead: c.nKVHead, headDim: c.headDim)
        compute = ComputeResources(threads: nThreads, maxBatch: Self.maxBatch, maxCols: max(c.nEmbd, c.nFF, c.nHead * c.headDim),
                                   kernels: kernels)
        scratch = ForwardScratch(config: c, maxBatch: Self.maxBatch, contextSize: self.contextSize, threads: compute.threads, logitRows: Self.logitRows)
        tokens.reserveCapacity(self.contextSize)
    }

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
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 1) { one in
            one[0] = token
            forward(one, logits: .last)
        }
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
                let m = min(Self.logitRows, n - t)
                logits(rows: t..<t + m)
                for i in 0..<m { body(start + t + i, UnsafeBufferPointer(start: scratch.logits + i * vocab, count: vocab)) }
                t += m
            }
            start += n
        }
    }

    private func validate(_ newTokens: [Int]) throws(InferenceError) {
        let available = contextSize - tokens.count
        guard newTokens.count <= available else { throw .contextFull(needed: newTokens.count, available: available) }
        let vocab = model.config.vocabSize
        if let bad = newTokens.first(where: { $0 < 0 || $0 >= vocab }) { throw .invalidToken(bad) }
    }

    private enum LogitSelection { case none, last }

    /// One forward pass over at most `maxBatch` tokens.
    private func forward<Batch: RandomAccessCollection<Int>>(_ batch: Batch, logits selection: LogitSelection) {
        let c = model.config, s = scratch
        let nTokens = batch.count, first = tokens.count
        for (t, id) in batch.enumerated() {
            let row = s.x + t * c.nEmbd
            decoder.embedding.dequantizeRow(id, into: row)
            if c.embeddingScale != 1 { for i in 0..<c.nEmbd { row[i] *= c.embeddingScale } }
        }
        if usesGlobalRoPE { ropeGlobal.tables(positions: first..<first + nTokens, cos: s.cosGlobal, sin: s.sinGlobal) }
        if usesLocalRoPE { ropeLocal.tables(positions: first..<first + nTokens, cos: s.cosLocal, sin: s.sinLocal) }
        for l in 0..<c.nLayer {
            decoder.layer(l, nTokens: nTokens, firstPosition: first, s, cache, compute)
        }
        tokens.append(contentsOf: batch)
        if case .last = selection { logits(rows: (nTokens - 1)..<nTokens) }
    }

    /// Logits of rows `rows` of the last forward pass into `scratch.logits` (`[rows.count, vocabSize]`,
    /// at most ``logitRows`` rows).
    private func logits(rows: Range<Int>) {
        let s = scratch
        decoder.outputNorm(s.x + rows.lowerBound * model.config.nEmbd, rows: rows.count, into: s.xn)
        decoder.output(s.xn, nTokens: rows.count, into: s.logits, compute)
        decoder.finishLogits(s.logits, rows: rows.count)
    }
}

import Foundation
