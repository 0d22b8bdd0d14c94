import LMKernelsCore

/// Work for ``ThreadPool/run(parts:job:)``, passed by value. It reaches the workers as a pointer to
/// the caller's copy and a function specialised for its type, so a dispatch allocates nothing; a
/// closure would need a heap context to be reachable from another thread.
public protocol ParallelJob {
    /// Runs part `part` of `parts`; parts run concurrently and must write disjoint memory.
    func run(part: Int, parts: Int)
}

/// Work over a range of indices for ``ThreadPool/parallelFor(_:alignment:job:)``.
public protocol ParallelRangeJob {
    /// Runs the indices `range`; ranges run concurrently and must write disjoint memory.
    func run(_ range: Range<Int>)
}

extension ThreadPool {
    /// Runs `job.run(part:parts:)` once for each part in `0..<parts` across the pool, as
    /// ``run(parts:_:)``, without allocating. - Precondition: `1 <= parts <= 65535`.
    @inlinable
    public func run<J: ParallelJob>(parts: Int, job: J) {
        withUnsafePointer(to: job) { pointer in
            run(parts: parts, context: UnsafeRawPointer(pointer)) { context, part, parts in
                context.assumingMemoryBound(to: J.self).pointee.run(part: part, parts: parts)
            }
        }
    }

    /// Splits `range` into contiguous chunks whose boundaries are multiples of `alignment`
    /// (relative to `range.lowerBound`) and runs `job.run(_:)` on each non-empty chunk in
    /// parallel, as the closure form of `parallelFor`, without allocating.
    @inlinable
    public func parallelFor<J: ParallelRangeJob>(_ range: Range<Int>, alignment: Int = 1, job: J) {
        let parts = partCount(range, alignment: alignment)
        if parts <= 1 {
            if !range.isEmpty { job.run(range) }
            return
        }
        run(parts: parts, job: RangeParts(range: range, alignment: alignment, job: job))
    }
}

/// A range job cut into the pool's parts.
@usableFromInline
struct RangeParts<J: ParallelRangeJob>: ParallelJob {
    @usableFromInline let range: Range<Int>
    @usableFromInline let alignment: Int
    @usableFromInline let job: J

    @inlinable
    init(range: Range<Int>, alignment: Int, job: J) {
        self.range = range
        self.alignment = alignment
        self.job = job
    }

    @inlinable
    func run(part: Int, parts: Int) {
        let chunk = ThreadPool.chunk(range, index: part, count: parts, alignment: alignment)
        if !chunk.isEmpty { job.run(chunk) }
    }
}
