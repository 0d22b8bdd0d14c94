import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LMKernelsCore

/// A persistent pool of worker threads for the per-token matmuls, cheap enough to dispatch ~200
/// times per decoded token (Dispatch costs 30-110 us a dispatch here).
///
/// A job is split into parts; the calling thread and the workers claim parts with one atomic
/// compare-and-swap each until none are left, so the caller never waits for a worker that has
/// not started (on a loaded machine it simply runs every part itself). Workers spin briefly on
/// the atomic job word before parking on a condition variable.
///
/// `run` is not reentrant across threads: a `run` issued while another is in flight (from a
/// body, or from a second thread) executes all its parts on the calling thread, so it never
/// deadlocks.
public final class ThreadPool: Sendable {
    /// Threads that execute a job, including the caller.
    public let threadCount: Int
    private let state: PoolState

    /// Starts `threads - 1` workers (the caller is the remaining thread).
    /// - Precondition: `threads >= 1`.
    public init(threads: Int) {
        precondition(threads >= 1, "ThreadPool needs at least one thread")
        threadCount = threads
        state = PoolState()
        for index in 1..<threads {
            let state = self.state
            let thread = Thread { state.workerLoop() }
            thread.name = "LMKernels.worker.\(index)"
            thread.start()
        }
    }

    deinit {
        state.shutDown(workers: threadCount - 1)
    }

    /// Runs `body(part, threadCount)` once for each `part` in `0..<threadCount`, in parallel on
    /// the pool's threads, and returns when all parts have finished. Which thread runs which part
    /// is not fixed; parts run concurrently with each other, so `body` must only write memory
    /// disjoint per part.
    public func run(_ body: (_ part: Int, _ parts: Int) -> Void) {
        run(parts: threadCount, body)
    }

    /// Runs `body(part, parts)` once for each `part` in `0..<parts` across the pool (more parts
    /// than threads balances load when a thread is slow or descheduled).
    /// - Precondition: `1 <= parts <= 65535`.
    public func run(parts: Int, _ body: (_ part: Int, _ parts: Int) -> Void) {
        precondition(parts >= 1 && parts <= 0xffff, "parts \(parts) out of 1...65535")
        guard threadCount > 1, parts > 1,
              state.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for part in 0..<parts { body(part, parts) }
            return
        }
        // The closure reaches the workers as a context like any job (it needs a heap context to be
        // made escaping, which is why the hot paths use ``run(parts:job:)``).
        withoutActuallyEscaping(body) { escaping in
            withUnsafePointer(to: escaping) { pointer in
                state.dispatch(PoolState.Job(invoke: { context, part, parts in
                    context.assumingMemoryBound(to: ((Int, Int) -> Void).self).pointee(part, parts)
                }, context: UnsafeRawPointer(pointer)), parts: parts)
            }
        }
        state.busy.store(false, ordering: .releasing)
    }

    /// Runs `invoke(context, part, parts)` for each part, as ``run(parts:_:)``. With a closure
    /// literal that captures nothing this allocates nothing (``run(parts:job:)`` is built on it).
    @usableFromInline
    func run(parts: Int, context: UnsafeRawPointer,
             invoke: @escaping (_ context: UnsafeRawPointer, _ part: Int, _ parts: Int) -> Void) {
        precondition(parts >= 1 && parts <= 0xffff, "parts \(parts) out of 1...65535")
        guard threadCount > 1, parts > 1,
              state.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for part in 0..<parts { invoke(context, part, parts) }
            return
        }
        state.dispatch(PoolState.Job(invoke: invoke, context: context), parts: parts)
        state.busy.store(false, ordering: .releasing)
    }

    /// Splits `range` into contiguous chunks whose boundaries are multiples of `alignment`
    /// (relative to `range.lowerBound`) and runs `body` on each non-empty chunk in parallel.
    public func parallelFor(_ range: Range<Int>, alignment: Int = 1, _ body: (Range<Int>) -> Void) {
        let parts = partCount(range, alignment: alignment)
        if parts <= 1 {
            if !range.isEmpty { body(range) }
            return
        }
        run(parts: parts) { part, count in
            let chunk = ThreadPool.chunk(range, index: part, count: count, alignment: alignment)
            if !chunk.isEmpty { body(chunk) }
        }
    }

    /// Parts for `parallelFor`: a few per thread, so a descheduled thread delays only a small share.
    @usableFromInline
    func partCount(_ range: Range<Int>, alignment: Int) -> Int {
        let units = (range.count + alignment - 1) / max(alignment, 1)
        return min(units, threadCount == 1 ? 1 : 4 * threadCount)
    }

    /// Chunk `index` of `count` of `range`, boundaries aligned to `alignment`; the chunks tile
    /// `range` in order and differ in size by at most one `alignment`.
    public static func chunk(_ range: Range<Int>, index: Int, count: Int, alignment: Int = 1) -> Range<Int> {
        let units = (range.count + alignment - 1) / alignment
        let lo = min(range.count, units * index / count * alignment)
        let hi = min(range.count, units * (index + 1) / count * alignment)
        return (range.lowerBound + lo)..<(range.lowerBound + hi)
    }
}

/// What the workers share with the pool. Workers keep it alive until they have exited.
///
/// The job word packs `generation << 32 | parts << 16 | nextPart`; claiming a part is a CAS on
/// it, so a thread can only claim a part of the job whose generation it saw, and a part that is
/// claimed and not yet finished keeps the dispatcher (and so `job`) waiting.
///
/// `@unchecked Sendable`: `job` is written only by the dispatching thread before the release
/// store of the job word and cleared after every part has finished (acquire), and read by a
/// thread only while it holds an unfinished part; the mutex and condition are used via pthreads.
private final class PoolState: @unchecked Sendable {
    let word = Atomic<UInt64>(0)
    let finished = Atomic<Int>(0)
    let sleepers = Atomic<Int>(0)
    let busy = Atomic<Bool>(false)
    let stopping = Atomic<Bool>(false)
    let exited = Atomic<Int>(0)
    /// The current job: a function and the context pointer it reads (`nil` between jobs). A
    /// concrete function-typed field: stored as an `Optional` (generic, maximally abstracted) each
    /// store would wrap the function in a heap-allocated thunk.
    struct Job {
        var invoke: (UnsafeRawPointer, Int, Int) -> Void = idleInvoke
        var context: UnsafeRawPointer?
    }
    let job: UnsafeMutablePointer<Job>
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Last generation dispatched; touched only by the dispatching thread (under `busy`).
    private var generation: UInt64 = 0

    /// Spins before a worker parks: long enough to cover the gap between the matmuls of a
    /// token (tens of microseconds), short enough not to burn a core while idle.
    static let spinLimit = 20_000

    init() {
        job = .allocate(capacity: 1)
        job.initialize(to: Job())
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
        job.deinitialize(count: 1)
        job.deallocate()
    }

    func dispatch(_ next: Job, parts: Int) {
        job.pointee = next
        finished.store(0, ordering: .relaxed)
        generation = (generation + 1) & 0xffff_ffff
        publish(generation << 32 | UInt64(parts) << 16)
        runParts(generation: generation)
        // Only a part a worker has claimed is left: it is running, so spin (yielding only if it
        // takes long, as when the worker was preempted mid-part).
        var spins = 0
        while finished.load(ordering: .acquiring) < parts {
            spins += 1
            if spins > PoolState.spinLimit { sched_yield() }
        }
        job.pointee = Job()
    }

    /// Stores a new job word and wakes parked workers. A worker announces itself in `sleepers`
    /// before re-checking the word under the mutex, and both sides use sequentially consistent
    /// operations, so either the worker sees the new word or this sees the sleeper.
    private func publish(_ value: UInt64) {
        word.store(value, ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Claims and runs parts of job `generation` until none are left.
    private func runParts(generation: UInt64) {
        while true {
            let w = word.load(ordering: .acquiring)
            let next = w & 0xffff, parts = (w >> 16) & 0xffff
            guard w >> 32 == generation, next < parts else { return }
            if word.compareExchange(expected: w, desired: w + 1, ordering: .acquiringAndReleasing).exchanged {
                do {
                    // Any copy of a closure job must be released before the part counts as
                    // finished: the dispatcher's `withoutActuallyEscaping` checks that none survives.
                    let current = job.pointee
                    if let context = current.context { current.invoke(context, Int(next), Int(parts)) }
                }
                finished.add(1, ordering: .releasing)
            }
        }
    }

    func workerLoop() {
        // Generation 0 is the one before any dispatch; a worker that starts late still sees
        // every later generation (including the shutdown one) as new.
        var seen: UInt64 = 0
        while true {
            var current = word.load(ordering: .acquiring) >> 32
            var spins = 0
            while current == seen {
                spins += 1
                if spins < PoolState.spinLimit {
                    current = word.load(ordering: .acquiring) >> 32
                    continue
                }
                pthread_mutex_lock(mutex)
                sleepers.add(1, ordering: .sequentiallyConsistent)
                current = word.load(ordering: .sequentiallyConsistent) >> 32
                while current == seen {
                    pthread_cond_wait(condition, mutex)
                    current = word.load(ordering: .sequentiallyConsistent) >> 32
                }
                sleepers.subtract(1, ordering: .sequentiallyConsistent)
                pthread_mutex_unlock(mutex)
            }
            seen = current
            if stopping.load(ordering: .acquiring) {
                exited.add(1, ordering: .releasing)
                return
            }
            runParts(generation: current)
        }
    }

    func shutDown(workers: Int) {
        stopping.store(true, ordering: .sequentiallyConsistent)
        // A new generation with no parts wakes every worker into the stopping check.
        generation = (generation + 1) & 0xffff_ffff
        publish(generation << 32)
        while exited.load(ordering: .acquiring) < workers { usleep(50) }
    }
}

/// The function a pool holds between jobs (a global function: referencing it allocates nothing).
private func idleInvoke(_ context: UnsafeRawPointer, _ part: Int, _ parts: Int) {}
