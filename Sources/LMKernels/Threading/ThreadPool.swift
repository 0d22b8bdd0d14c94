import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A persistent pool of worker threads for the per-token matmuls, cheap enough to dispatch ~200
/// times per decoded token: workers spin briefly on an atomic generation counter before parking
/// on a condition variable, and the calling thread runs a share of every job itself.
/// A dispatch costs about a microsecond when workers are spinning (Dispatch costs 30-110 us).
///
/// `run` is not reentrant across threads: a `run` issued while another is in flight (from a
/// body, or from a second thread) executes its body on the calling thread alone as `(0, 1)`,
/// so it never deadlocks.
public final class ThreadPool: Sendable {
    /// Threads that execute a job, including the caller.
    public let threadCount: Int
    private let state: PoolState

    /// Starts `threads - 1` workers (the caller is the remaining thread).
    /// - Precondition: `threads >= 1`.
    public init(threads: Int) {
        precondition(threads >= 1, "ThreadPool needs at least one thread")
        threadCount = threads
        state = PoolState(threads: threads)
        for index in 1..<threads {
            let state = self.state
            let thread = Thread { state.workerLoop(index: index) }
            thread.name = "LMKernels.worker.\(index)"
            thread.start()
        }
    }

    deinit {
        state.shutDown(workers: threadCount - 1)
    }

    /// Runs `body(threadIndex, threadCount)` once on each of the pool's threads (index 0 is the
    /// caller) and returns when all have finished. `body` runs concurrently with itself, so it
    /// must only write disjoint memory per thread index.
    public func run(_ body: (_ threadIndex: Int, _ threadCount: Int) -> Void) {
        guard threadCount > 1, state.busy.compareExchange(expected: false, desired: true,
                                                          ordering: .acquiring).exchanged else {
            body(0, 1)
            return
        }
        withoutActuallyEscaping(body) { escaping in
            state.dispatch(escaping, threads: threadCount)
        }
        state.busy.store(false, ordering: .releasing)
    }

    /// Splits `range` into `threadCount` contiguous chunks whose boundaries are multiples of
    /// `alignment` (relative to `range.lowerBound`), and runs `body` on each non-empty chunk in
    /// parallel. Chunks are equal up to one `alignment`.
    public func parallelFor(_ range: Range<Int>, alignment: Int = 1, _ body: (Range<Int>) -> Void) {
        if threadCount == 1 || range.count <= alignment {
            if !range.isEmpty { body(range) }
            return
        }
        run { index, count in
            let chunk = ThreadPool.chunk(range, index: index, count: count, alignment: alignment)
            if !chunk.isEmpty { body(chunk) }
        }
    }

    /// Chunk `index` of `count` of `range`, boundaries aligned to `alignment`.
    public static func chunk(_ range: Range<Int>, index: Int, count: Int, alignment: Int = 1) -> Range<Int> {
        let units = (range.count + alignment - 1) / alignment
        let lo = min(range.count, units * index / count * alignment)
        let hi = min(range.count, units * (index + 1) / count * alignment)
        return (range.lowerBound + lo)..<(range.lowerBound + hi)
    }
}

/// What the workers share with the pool. Workers keep it alive until they have exited.
///
/// `@unchecked Sendable`: `job` is written only by the dispatching thread before the release
/// increment of `generation` and cleared after `remaining` reaches zero (acquire), so accesses
/// never overlap; the mutex and condition are used through pthreads.
private final class PoolState: @unchecked Sendable {
    let generation = Atomic<Int>(0)
    let remaining = Atomic<Int>(0)
    let sleepers = Atomic<Int>(0)
    let busy = Atomic<Bool>(false)
    let stopping = Atomic<Bool>(false)
    let exited = Atomic<Int>(0)
    let job: UnsafeMutablePointer<((Int, Int) -> Void)?>
    let threads: Int
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Spins before a worker parks: long enough to cover the gap between the matmuls of a
    /// token (tens of microseconds), short enough not to burn a core while idle.
    static let spinLimit = 20_000

    init(threads: Int) {
        self.threads = threads
        job = .allocate(capacity: 1)
        job.initialize(to: nil)
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

    func dispatch(_ body: @escaping (Int, Int) -> Void, threads: Int) {
        job.pointee = body
        remaining.store(threads - 1, ordering: .relaxed)
        generation.add(1, ordering: .sequentiallyConsistent)
        wakeSleepers()
        body(0, threads)
        var spins = 0
        while remaining.load(ordering: .acquiring) != 0 {
            spins += 1
            if spins > 1000 { sched_yield() }
        }
        job.pointee = nil
    }

    /// Wakes parked workers. A worker announces itself in `sleepers` before re-checking
    /// `generation` under the mutex, and both sides use sequentially consistent operations, so
    /// either the worker sees the new generation or this sees the sleeper.
    private func wakeSleepers() {
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            pthread_mutex_lock(mutex)
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
    }

    func workerLoop(index: Int) {
        var seen = 0
        while true {
            var current = generation.load(ordering: .acquiring)
            var spins = 0
            while current == seen {
                spins += 1
                if spins < PoolState.spinLimit {
                    current = generation.load(ordering: .acquiring)
                    continue
                }
                pthread_mutex_lock(mutex)
                sleepers.add(1, ordering: .sequentiallyConsistent)
                current = generation.load(ordering: .sequentiallyConsistent)
                while current == seen {
                    pthread_cond_wait(condition, mutex)
                    current = generation.load(ordering: .sequentiallyConsistent)
                }
                sleepers.subtract(1, ordering: .sequentiallyConsistent)
                pthread_mutex_unlock(mutex)
            }
            seen = current
            if stopping.load(ordering: .acquiring) {
                exited.add(1, ordering: .releasing)
                return
            }
            do {
                // The copy of the job must be released before signalling completion: the
                // dispatcher's `withoutActuallyEscaping` checks that no reference survives.
                let body = job.pointee
                body?(index, threads)
            }
            remaining.subtract(1, ordering: .releasing)
        }
    }

    func shutDown(workers: Int) {
        stopping.store(true, ordering: .sequentiallyConsistent)
        generation.add(1, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        while exited.load(ordering: .acquiring) < workers { usleep(50) }
    }
}
