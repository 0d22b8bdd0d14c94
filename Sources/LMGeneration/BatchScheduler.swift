import Foundation
import LMTransformer

/// Runs the forward passes of many sequences on one shared ``ForwardEngine``: every sequence that
/// is decoding waits for its next logits in the same batched step (each weight read once for all
/// of them), and prompts are prefilled in chunks between steps, so a long prompt delays the others
/// by at most one chunk per step.
///
/// There is no scheduler thread: the caller whose submission completes a step runs it (the
/// leader) while the others wait, and a sequence leaving the batch lets the remaining ones step.
/// A step runs when every sequence decoding (``BatchedSequence`` from its first
/// ``BatchedSequence/evaluate(token:)`` until ``BatchedSequence/close()``) has submitted its token,
/// so a sequence sampling slowly holds the others up by that time.
///
/// Turns alternate when both are waiting: one decode step, one prefill chunk.
///
/// Each sequence's logits are bit for bit those of its context decoding alone on an engine of the
/// same threads and kernels (``ForwardEngine/decode(_:tokens:forEachLogits:)``), so greedy output
/// does not depend on what else is running.
///
/// `@unchecked Sendable`: all state is guarded by `condition`, and the engine and the step's buffers
/// are used only by the holder of the turn (`busy`).
public final class BatchScheduler: @unchecked Sendable {
    public let engine: ForwardEngine
    private let condition = NSCondition()
    // Guarded by `condition`:
    /// Sequences decoding (registered).
    private var active = 0
    /// Sequences that submitted a token for the next step.
    private var pending: [BatchedSequence] = []
    /// Whether a step or a prefill chunk is using the engine.
    private var busy = false
    /// Prefill chunks waiting for a turn.
    private var waitingPrefills = 0
    /// Whether a decode step goes before waiting prefill chunks (set after a chunk).
    private var decodeTurn = true
    /// Steps run so far (for tests and statistics).
    private var stepCount = 0
    /// The largest batch stepped so far.
    private var largestBatch = 0
    // Used by the step's leader only (while `busy`), reused so that a step allocates nothing once the
    // buffers have grown to the largest batch: the batch (swapped with `pending`, whose buffer a copy
    // would have duplicated), and its contexts and tokens as the engine takes them.
    private var stepping: [BatchedSequence] = []
    private var stepContexts: [InferenceContext] = []
    private var stepTokens: [Int] = []

    public init(engine: ForwardEngine) {
        self.engine = engine
    }

    /// Batched decode steps run so far, and the most sequences one of them advanced.
    public var statistics: (steps: Int, largestBatch: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (stepCount, largestBatch)
    }

    /// Sequences decoding now.
    public var activeCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return active
    }

    private var stepReady: Bool { !pending.isEmpty && pending.count == active }

    /// Runs `body` with the engine to itself, between decode steps (a prefill chunk): waits for a turn.
    func withEngine<R>(_ body: () throws -> R) rethrows -> R {
        condition.lock()
        waitingPrefills += 1
        while busy || (stepReady && decodeTurn) { condition.wait() }
        waitingPrefills -= 1
        busy = true
        condition.unlock()
        defer {
            condition.lock()
            busy = false
            decodeTurn = true
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    func register() {
        condition.lock()
        active += 1
        condition.unlock()
    }

    func deregister() {
        condition.lock()
        active -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Submits `sequence`'s token (``BatchedSequence/submitted``) and returns once a step has
    /// evaluated it (its logits or error are in the sequence).
    func submit(_ sequence: BatchedSequence) {
        condition.lock()
        sequence.stepped = false
        pending.append(sequence)
        condition.broadcast()
        while !sequence.stepped {
            if !busy && stepReady && (decodeTurn || waitingPrefills == 0) {
                swap(&pending, &stepping)
                busy = true
                stepCount += 1
                largestBatch = max(largestBatch, stepping.count)
                condition.unlock()
                step()
                condition.lock()
                busy = false
                decodeTurn = false
                for s in stepping { s.stepped = true }
                stepping.removeAll(keepingCapacity: true)
                condition.broadcast()
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    /// One batched pass over ``stepping`` (on the leader's thread, holding the turn).
    private func step() {
        // Emptied after the step (so empty at the next): a context kept here would outlive its session.
        defer {
            stepContexts.removeAll(keepingCapacity: true)
            stepTokens.removeAll(keepingCapacity: true)
        }
        for s in stepping {
            stepContexts.append(s.context)
            stepTokens.append(s.submitted)
        }
        do {
            try engine.decode(stepContexts, tokens: stepTokens) { i, logits in
                stepping[i].store(logits)
            }
        } catch {
            for s in stepping { s.failure = error }
        }
    }
}
