import Foundation
import LMKernels
import Synchronization
import Testing

@Suite struct ThreadPoolTests {
    // Parts record into disjoint slots, as the pool's contract allows, rather than through a shared
    // lock: the thread sanitizer then checks that the pool itself orders every part of a dispatch after
    // the previous dispatch and before `run` returns. (A contended `Mutex` would also hide that:
    // its Linux slow path is a futex the sanitizer cannot see, so it reports false races.)
    @Test(arguments: [1, 2, 3, 4])
    func everyPartRunsExactlyOncePerDispatch(_ threads: Int) {
        let pool = ThreadPool(threads: threads)
        #expect(pool.threadCount == threads)
        var hits = [Int](repeating: 0, count: threads)
        var counts = [Int](repeating: 0, count: threads)
        hits.withUnsafeMutableBufferPointer { hits in
            counts.withUnsafeMutableBufferPointer { counts in
                let (hits, counts) = (hits, counts)
                for _ in 0..<100 {
                    pool.run { index, count in
                        hits[index] += 1
                        counts[index] = count
                    }
                }
            }
        }
        #expect(counts == [Int](repeating: threads, count: threads))
        #expect(hits == [Int](repeating: 100, count: threads))
    }

    @Test func manyRapidDispatchesAllComplete() {
        let pool = ThreadPool(threads: 2)
        let total = Atomic<Int>(0)
        for i in 0..<50_000 {
            pool.run { index, _ in total.add(index == 0 ? 1 : i & 1, ordering: .relaxed) }
        }
        #expect(total.load(ordering: .relaxed) == 50_000 + 25_000)
    }

    @Test func parallelSumEqualsSingleThreadedSum() {
        let values = (0..<100_003).map { Double($0 % 1000) * 0.001 }
        let pool = ThreadPool(threads: 2)
        var partial = [Double](repeating: 0, count: 2)
        partial.withUnsafeMutableBufferPointer { out in
            let out = out.baseAddress!
            pool.run { index, count in
                let chunk = ThreadPool.chunk(0..<values.count, index: index, count: count)
                out[index] = values[chunk].reduce(0, +)
            }
        }
        #expect(partial[0] + partial[1] == values[0..<50_001].reduce(0, +) + values[50_001...].reduce(0, +))
        #expect(partial[1] != 0)
    }

    @Test(arguments: [(0..<100, 3, 16), (5..<6, 2, 16), (0..<0, 2, 1), (10..<1000, 2, 4), (0..<49152, 2, 16)])
    func chunksTileTheRangeWithAlignedBoundaries(_ range: Range<Int>, _ count: Int, _ alignment: Int) {
        var covered: [Int] = []
        for i in 0..<count {
            let c = ThreadPool.chunk(range, index: i, count: count, alignment: alignment)
            if i < count - 1 { #expect((c.upperBound - range.lowerBound) % alignment == 0 || c.upperBound == range.upperBound) }
            covered += Array(c)
        }
        #expect(covered == Array(range))
    }

    @Test(arguments: [1, 5, 16, 300])
    func runWithMorePartsThanThreadsCoversEveryPartOnce(_ parts: Int) {
        let pool = ThreadPool(threads: 2)
        var hits = [Int](repeating: 0, count: parts)
        var counts = [Int](repeating: 0, count: parts)
        hits.withUnsafeMutableBufferPointer { hits in
            counts.withUnsafeMutableBufferPointer { counts in
                let (hits, counts) = (hits, counts)
                for _ in 0..<20 {
                    pool.run(parts: parts) { part, count in
                        hits[part] += 1
                        counts[part] = count
                    }
                }
            }
        }
        #expect(counts == [Int](repeating: parts, count: parts))
        #expect(hits == [Int](repeating: 20, count: parts))
    }

    @Test func nestedRunExecutesInlineInsteadOfDeadlocking() {
        let pool = ThreadPool(threads: 2)
        // Slot `outer * 2 + inner` holds the inner part count; each outer part writes only its own two.
        var inner = [Int](repeating: 0, count: 4)
        inner.withUnsafeMutableBufferPointer { inner in
            let inner = inner
            pool.run { outer, _ in
                pool.run { part, count in inner[outer * 2 + part] += count }
            }
        }
        #expect(inner == [2, 2, 2, 2])
    }

    @Test func poolsShutDownCleanlyWhenReleased() {
        let runs = Atomic<Int>(0)
        for _ in 0..<50 {
            let pool = ThreadPool(threads: 2)
            pool.run { _, _ in runs.add(1, ordering: .relaxed) }
        }
        // Also a pool whose worker has parked before it is released.
        do {
            let pool = ThreadPool(threads: 2)
            pool.run { _, _ in runs.add(1, ordering: .relaxed) }
            usleep(20_000)
            pool.run { _, _ in runs.add(1, ordering: .relaxed) }
        }
        #expect(runs.load(ordering: .relaxed) == 104)
    }
}
