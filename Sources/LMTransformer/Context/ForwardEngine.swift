import LMKernels
import Synchronization

/// The rows of one sequence in a forward pass: `count` rows from `firstRow` of the activations, at
/// positions `firstPosition...` of that sequence's KV cache. With `bidirectional`, the rows attend to each
/// other in full (Gemma 3's image rows); otherwise causally.
struct SequenceRows {
    let cache: KVCache
    let firstRow: Int
    let count: Int
    let firstPosition: Int
    var bidirectional = false

    /// The positions whose queries see each other in full: all of the rows', or none.
    var bidirectionalPositions: Range<Int> { bidirectional ? firstPosition..<firstPosition + count : 0..<0 }
}

/// The compute one or many sequences run their forward passes on: activation scratch for up to
/// ``maxBatch`` rows, the thread pool and kernels, the RoPE tables of one context size. Allocated
/// once; a forward pass allocates nothing.
///
/// One forward pass runs rows of any number of sequences ``SequenceRows``: the matrix products
/// read each weight once for all rows, attention runs per sequence on its own KV cache at its own
/// positions. An ``InferenceContext`` made with ``InferenceContext/init(model:contextSize:threads:kernels:)``
/// has an engine of its own (one sequence: prefill chunks and the decode step); contexts made with
/// ``InferenceContext/init(engine:)`` share one, and ``decode(_:tokens:forEachLogits:)`` advances
/// many of them by one token in one pass.
///
/// Numerics: a sequence's logits from a batched decode step are bit for bit those of its one-token
/// step alone. Embedding, norms, RoPE and attention are per row or per sequence; the products run
/// with `independentRows` (``MatMul/multiply(_:quantized:into:pool:kernels:independentRows:)``),
/// because the prefill tiles (8+ rows) sum Floats in another order than the one-token kernels.
///
/// Not for concurrent use: contexts sharing an engine take turns (a scheduler runs every pass on
/// one thread at a time). `@unchecked Sendable` so that such an owner can hold it; the model it
/// reads is shared read-only.
public final class ForwardEngine: @unchecked Sendable {
    public let model: TransformerModel
    /// Positions per sequence's KV cache, in tokens (at most the model's trained length).
    public let contextSize: Int
    /// Rows per forward pass: the prefill chunk length. Prefill kernels repack each weight tile once
    /// per pass, so longer passes repack less (256 over 64: Gemma 3 prefill ~+5%, for ~10 MB more
    /// scratch per engine).
    public static let maxBatch = 256
    /// Rows of logits computed at once (`[logitRows, vocabSize]` Floats of scratch), and the most
    /// sequences one decode pass advances (more are run as several passes).
    public static let logitRows = 64

    let decoder: Decoder
    let scratch: ForwardScratch
    let compute: ComputeResources
    /// RoPE of global and local layers at this context size.
    private let ropeGlobal: RoPE, ropeLocal: RoPE
    private let usesGlobalRoPE: Bool, usesLocalRoPE: Bool
    /// The sequences of the pass being run (capacity ``maxBatch``, reused; emptied after the pass, so that a
    /// finished sequence's KV cache is not kept alive by the engine).
    private var rows: [SequenceRows] = []
    /// Contexts made on this engine that are still alive, each holding a KV cache.
    private let contexts = Atomic<Int>(0)

    /// Contexts (each with its KV cache, ``cacheBytes``) alive on this engine now: what a leak of
    /// sessions would leave behind. For tests and diagnostics.
    package var liveContexts: Int { contexts.load(ordering: .relaxed) }

    func contextOpened() { contexts.add(1, ordering: .relaxed) }
    func contextClosed() { contexts.subtract(1, ordering: .relaxed) }

    /// - Parameters:
    ///   - contextSize: positions per KV cache, in tokens (capped by the model's trained length).
    ///   - threads: compute threads including the caller, in ``InferenceContext/supportedThreadCounts``
    ///     (default: all cores, at most 8).
    ///   - kernels: the kernel set (default: the fastest this CPU runs).
    /// - Throws: ``InferenceError/invalidContextSize(_:)``, ``InferenceError/invalidThreadCount(_:)``.
    public init(model: TransformerModel, contextSize: Int = 4096, threads: Int? = nil,
                kernels: KernelSet = .active) throws(InferenceError) {
        guard contextSize > 0 else { throw .invalidContextSize(contextSize) }
        if let threads, !InferenceContext.supportedThreadCounts.contains(threads) { throw .invalidThreadCount(threads) }
        let c = model.config
        self.model = model
        decoder = model.decoder
        self.contextSize = min(contextSize, c.contextLength)
        (ropeGlobal, ropeLocal) = model.decoder.ropes(contextSize: self.contextSize)
        usesGlobalRoPE = c.nLayer > 0 && (0..<c.nLayer).contains { c.ropeLayers[$0] && !c.localLayers[$0] }
        usesLocalRoPE = c.nLayer > 0 && (0..<c.nLayer).contains { c.ropeLayers[$0] && c.localLayers[$0] }
        let nThreads = threads ?? InferenceContext.defaultThreadCount
        compute = ComputeResources(threads: nThreads, maxBatch: Self.maxBatch, maxCols: max(c.nEmbd, c.nFF, c.nHead * c.headDim),
                                   kernels: kernels)
        scratch = ForwardScratch(config: c, maxBatch: Self.maxBatch, contextSize: self.contextSize, threads: compute.threads,
                                 logitRows: Self.logitRows)
        rows.reserveCapacity(Self.maxBatch)
    }

    /// Compute threads per pass, the caller included.
    public var threads: Int { compute.threads }

    /// Bytes of one sequence's KV cache (keys and values as halves, every layer, ``contextSize`` positions).
    public var cacheBytes: Int {
        let c = model.config
        return KVCache.bytes(nLayer: c.nLayer, contextSize: contextSize, nKVHead: c.nKVHead, headDim: c.headDim)
    }

    enum LogitSelection { case none, last }

    /// One forward pass over `tokens` (at most ``maxBatch``), row `i` being token `tokens[i]`, laid
    /// out as `sequences` says (they tile the rows in order). With `.last`, the last row's logits
    /// land in `scratch.logits`.
    /// - Parameter independentRows: compute every row as its own one-token product would (decode).
    func forward<Tokens: RandomAccessCollection<Int>>(_ tokens: Tokens, _ sequences: [SequenceRows],
                                                      independentRows: Bool, logits selection: LogitSelection) {
        let c = model.config, s = scratch
        for (t, id) in tokens.enumerated() {
            let row = s.x + t * c.nEmbd
            decoder.embedding.dequantizeRow(id, into: row)
            if c.embeddingScale != 1 { for i in 0..<c.nEmbd { row[i] *= c.embeddingScale } }
        }
        run(nRows: tokens.count, sequences, independentRows: independentRows, logits: selection)
    }

    /// One forward pass of one sequence whose input rows are given as embeddings (`embeddings`:
    /// `[count, nEmbd]`, at most ``maxBatch`` rows) instead of token ids: the image tokens of a
    /// vision model, at positions `firstPosition...` of `cache`. The rows enter the layers as they
    /// are: the embedding scale is for looked-up tokens only (llama.cpp's vector-input path,
    /// `build_inp_embd`; Gemma 3 scales `ubatch.token` rows only). With `bidirectional`, the rows attend to
    /// each other in full (one pass, so all their keys and values are there), otherwise causally.
    func forward(embeddings: UnsafePointer<Float>, count: Int, cache: KVCache, firstPosition: Int, bidirectional: Bool,
                 logits selection: LogitSelection) {
        scratch.x.update(from: embeddings, count: count * model.config.nEmbd)
        defer { rows.removeAll(keepingCapacity: true) }
        rows.append(SequenceRows(cache: cache, firstRow: 0, count: count, firstPosition: firstPosition, bidirectional: bidirectional))
        run(nRows: count, rows, independentRows: count == 1, logits: selection)
    }

    /// The layers and logits over the `nRows` input rows already in `scratch.x`.
    private func run(nRows: Int, _ sequences: [SequenceRows], independentRows: Bool, logits selection: LogitSelection) {
        let c = model.config, s = scratch, half = c.ropeDim / 2
        for q in sequences {
            let positions = q.firstPosition..<q.firstPosition + q.count, o = q.firstRow * half
            if usesGlobalRoPE { ropeGlobal.tables(positions: positions, cos: s.cosGlobal + o, sin: s.sinGlobal + o) }
            if usesLocalRoPE { ropeLocal.tables(positions: positions, cos: s.cosLocal + o, sin: s.sinLocal + o) }
        }
        compute.independentRows = independentRows
        defer { compute.independentRows = false }
        for l in 0..<c.nLayer {
            decoder.layer(l, nRows: nRows, sequences, s, compute)
        }
        if case .last = selection { logits(rows: (nRows - 1)..<nRows) }
    }

    /// Logits of rows `rows` of the last forward pass into `scratch.logits` (`[rows.count, vocabSize]`,
    /// at most ``logitRows`` rows); with `independentRows`, each row as its own one-token product would.
    func logits(rows: Range<Int>, independentRows: Bool = false) {
        let s = scratch
        compute.independentRows = independentRows
        defer { compute.independentRows = false }
        decoder.outputNorm(s.x + rows.lowerBound * model.config.nEmbd, rows: rows.count, into: s.xn)
        decoder.output(s.xn, nTokens: rows.count, into: s.logits, compute)
        decoder.finishLogits(s.logits, rows: rows.count)
    }

    /// One forward pass over `tokens` of one sequence at positions `firstPosition...` of `cache`.
    func forward<Tokens: RandomAccessCollection<Int>>(_ tokens: Tokens, cache: KVCache, firstPosition: Int,
                                                      logits selection: LogitSelection) {
        defer { rows.removeAll(keepingCapacity: true) }
        rows.append(SequenceRows(cache: cache, firstRow: 0, count: tokens.count, firstPosition: firstPosition))
        forward(tokens, rows, independentRows: tokens.count == 1, logits: selection)
    }

    /// The batched decode step: appends `tokens[i]` to `contexts[i]` for every `i`, all in one forward
    /// pass (several when there are more than ``logitRows``), and calls `body(i, logits)` with the
    /// logits `[vocabSize]` after each, in order; the buffer is valid only inside `body`.
    ///
    /// Each context's logits are bit for bit those of `contexts[i].evaluate(token: tokens[i])` on a
    /// context of its own with the same threads and kernels.
    /// - Precondition: every context shares this engine (``InferenceContext/init(engine:)``), none
    ///   appears twice, `tokens.count == contexts.count` (programmer errors; they trap).
    /// - Throws: ``InferenceError/contextFull(needed:available:)`` or ``InferenceError/invalidToken(_:)``
    ///   for the first context that cannot take its token; no cache is changed then.
    public func decode(_ contexts: [InferenceContext], tokens: [Int],
                       forEachLogits body: (Int, UnsafeBufferPointer<Float>) -> Void) throws(InferenceError) {
        precondition(tokens.count == contexts.count, "\(tokens.count) tokens for \(contexts.count) contexts")
        for (i, context) in contexts.enumerated() {
            precondition(context.engine === self, "context \(i) runs on another engine")
            precondition(!contexts[..<i].contains { $0 === context }, "context \(i) appears twice")
            guard context.tokens.count < context.contextSize else { throw .contextFull(needed: 1, available: 0) }
            guard tokens[i] >= 0, tokens[i] < model.config.vocabSize else { throw .invalidToken(tokens[i]) }
        }
        let vocab = model.config.vocabSize
        defer { rows.removeAll(keepingCapacity: true) }
        var start = 0
        while start < contexts.count {
            let n = min(Self.logitRows, contexts.count - start)
            rows.removeAll(keepingCapacity: true)
            for t in 0..<n {
                let context = contexts[start + t]
                rows.append(SequenceRows(cache: context.cache, firstRow: t, count: 1, firstPosition: context.tokens.count))
            }
            forward(tokens[start..<start + n], rows, independentRows: true, logits: .none)
            logits(rows: 0..<n, independentRows: true)
            for t in 0..<n {
                contexts[start + t].appendEvaluated(tokens[start + t])
                body(start + t, UnsafeBufferPointer(start: scratch.logits + t * vocab, count: vocab))
            }
            start += n
        }
    }
}
