import LMTransformer

/// One sequence's forward pass through a ``BatchScheduler``: its prompt is prefilled in turns
/// between decode steps, and each ``evaluate(token:)`` joins the next batched step of every
/// sequence decoding on the scheduler. A ``ForwardPass``, so ``Decoding/run(_:on:from:isCancelled:onText:)``
/// and everything above it (guides, sampler, stop rules) work unchanged.
///
/// The sequence joins the batch at its first ``evaluate(token:)`` and leaves it at ``close()``
/// (or when released); close it as soon as it stops (finished, cancelled or failed), or the others
/// wait for it. Logits are copied into a buffer of the sequence's own (`[vocabSize]`, allocated
/// once), since the engine's are overwritten by the next pass.
///
/// Used by one thread at a time (the sequence's decode loop). `@unchecked Sendable`: the fields the
/// scheduler writes (`stepped`, `failure`, the logits) are written by the step's leader while this
/// sequence's thread waits in ``BatchScheduler/submit(_:)``, ordered by the scheduler's lock.
public final class BatchedSequence: ForwardPass, @unchecked Sendable {
    public let scheduler: BatchScheduler
    /// The KV cache and tokens (on the scheduler's engine).
    public let context: InferenceContext
    private let logits: UnsafeMutableBufferPointer<Float>
    private var registered = false
    /// The token submitted for the next step.
    var submitted = 0
    /// Set by the step that evaluated ``submitted``.
    var stepped = false
    var failure: (any Error)?

    /// - Parameter context: a context made on `scheduler.engine` (``InferenceContext/init(engine:)``);
    ///   a sequence keeps it across requests (prefix reuse).
    /// - Precondition: `context.engine === scheduler.engine` (a programmer error; it traps).
    public init(context: InferenceContext, scheduler: BatchScheduler) {
        precondition(context.engine === scheduler.engine, "the context runs on another engine")
        self.context = context
        self.scheduler = scheduler
        logits = .allocate(capacity: context.model.config.vocabSize)
        logits.initialize(repeating: 0)
    }

    deinit {
        close()
        logits.deallocate()
    }

    public var tokens: [Int] { context.tokens }
    public var contextSize: Int { context.contextSize }

    /// Appends `newTokens` in one turn of the engine (call with chunks to let decode steps run in
    /// between) and returns the logits of the last one, `[vocabSize]`, valid until the next call.
    /// - Throws: as ``InferenceContext/evaluate(_:)``; the cache is unchanged then.
    public func prefill(_ newTokens: [Int]) throws(InferenceError) -> UnsafeBufferPointer<Float> {
        let result = scheduler.withEngine { () -> Result<Void, InferenceError> in
            Result { () throws(InferenceError) in
                let out = try context.evaluate(newTokens)
                if out.count == logits.count { store(out) }
            }
        }
        try result.get()
        return UnsafeBufferPointer(logits)
    }

    /// Appends rows given as embeddings (image tokens) in one turn of the engine, as ``prefill(_:)``
    /// appends tokens: see ``InferenceContext/evaluate(embeddings:ids:bidirectional:)``.
    /// - Throws: as ``InferenceContext/evaluate(embeddings:ids:bidirectional:)``; the cache is unchanged then.
    public func prefill(embeddings: [Float], ids: [Int], bidirectional: Bool = false) throws(InferenceError) -> UnsafeBufferPointer<Float> {
        let result = scheduler.withEngine { () -> Result<Void, InferenceError> in
            Result { () throws(InferenceError) in
                let out = try context.evaluate(embeddings: embeddings, ids: ids, bidirectional: bidirectional)
                if out.count == logits.count { store(out) }
            }
        }
        try result.get()
        return UnsafeBufferPointer(logits)
    }

    /// Keeps the first `count` cached tokens (prefix reuse). Only between requests, not while decoding.
    public func truncate(to count: Int) { context.truncate(to: count) }

    /// Appends `token` in the next batched step and returns the logits after it, `[vocabSize]`,
    /// valid until the next call. Joins the batch on the first call.
    /// - Throws: `InferenceError` (`contextFull`, `invalidToken`); the cache is then unchanged.
    public func evaluate(token: Int) throws(InferenceError) -> UnsafeBufferPointer<Float> {
        guard context.tokens.count < context.contextSize else { throw .contextFull(needed: 1, available: 0) }
        guard token >= 0, token < context.model.config.vocabSize else { throw .invalidToken(token) }
        if !registered {
            registered = true
            scheduler.register()
        }
        submitted = token
        failure = nil
        scheduler.submit(self)
        if let failure {
            throw failure as? InferenceError ?? .contextFull(needed: 1, available: 0)
        }
        return UnsafeBufferPointer(logits)
    }

    /// Leaves the batch (the others no longer wait for this sequence). Idempotent; the next
    /// ``evaluate(token:)`` joins again.
    public func close() {
        guard registered else { return }
        registered = false
        scheduler.deregister()
    }

    func store(_ source: UnsafeBufferPointer<Float>) {
        _ = logits.update(fromContentsOf: source)
    }
}
