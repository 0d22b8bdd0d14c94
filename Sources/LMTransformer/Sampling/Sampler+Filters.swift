import LMKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The filters of ``Sampler`` on its candidate buffers. `ids`/`values`/`weights` hold the
// candidates (in token order); `order` lists the ones still in, best first once sorted.

extension Sampler {
    /// Top-k: the `k` best allowed tokens (ties to the lower id) from one scan with a k-element
    /// min-heap whose root, the worst kept, is the scan's threshold. Leaves them sorted in `order`.
    mutating func selectTopK(_ source: LogitSource, _ k: Int) -> Int {
        ids.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        source.scan(atLeast: -Float.infinity) { i, v in
            if ids.count < k {
                ids.append(Int32(i))
                values.append(v)
                siftUp(ids.count - 1)
                return ids.count == k ? values[0] : -Float.infinity
            }
            // Tokens come in increasing id order, so an equal value never beats a kept one.
            guard v > values[0] else { return values[0] }
            ids[0] = Int32(i)
            values[0] = v
            siftDown(0, ids.count)
            return values[0]
        }
        resetOrder(ids.count)
        sortOrder()
        return ids.count
    }

    /// Every allowed token whose penalised logit is at least `floor`, in token order.
    mutating func gather(_ source: LogitSource, atLeast floor: Float) {
        ids.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        source.scan(atLeast: floor) { i, v in
            if v >= floor {
                ids.append(Int32(i))
                values.append(v)
            }
            return floor
        }
        resetOrder(ids.count)
    }

    /// `weights[c] = exp((values[c] - best) * scale)` for every candidate.
    mutating func weigh(best: Float, scale: Float) {
        let n = values.count
        if weights.count < n { weights.append(contentsOf: repeatElement(0, count: n - weights.count)) }
        values.withUnsafeBufferPointer { v in
            weights.withUnsafeMutableBufferPointer { w in
                var c = 0
                let b = SIMD8<Float>(repeating: best), s = SIMD8<Float>(repeating: scale)
                while c + 8 <= n {
                    let x = UnsafeRawPointer(v.baseAddress! + c).loadUnaligned(as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(w.baseAddress! + c).storeBytes(of: vectorExp((x - b) * s), as: SIMD8<Float>.self)
                    c += 8
                }
                while c < n { w[c] = Self.expScalar((v[c] - best) * scale); c += 1 }
            }
        }
    }

    /// Top-p over the first `n` candidates of a sorted `order` (probabilities at temperature 1,
    /// normalised over those `n`): the shortest prefix whose probability reaches `topP`.
    mutating func applyTopP(sortedCount n: Int) -> Int {
        guard let topP = parameters.topP, topP < 1 else { return n }
        var sum: Double = 0
        for j in 0..<n { sum += Double(weights[Int(order[j])]) }
        let target = Double(topP) * sum
        var cum: Double = 0
        for j in 0..<n {
            cum += Double(weights[Int(order[j])])
            if cum >= target { return j + 1 }
        }
        return n
    }

    /// Top-p over all `n` candidates in token order without sorting them all: their probability
    /// mass goes into 128 buckets of logit below the best; the buckets are walked from the top
    /// until they hold `topP` of the mass, and only the tokens of those buckets are sorted for the
    /// exact cut. Returns the nucleus size, sorted in `order`.
    mutating func nucleus(_ n: Int, best: Float, topP: Float) -> Int {
        let bucketCount = 128
        let span = 30 * max(parameters.temperature, 1)
        let scale = Float(bucketCount) / span
        if bucketMass.count < bucketCount { bucketMass = [Double](repeating: 0, count: bucketCount) }
        for b in 0..<bucketCount { bucketMass[b] = 0 }
        var total: Double = 0
        @inline(__always) func bucket(_ c: Int) -> Int { min(bucketCount - 1, max(0, Int((best - values[c]) * scale))) }
        for c in 0..<n {
            bucketMass[bucket(c)] += Double(weights[c])
            total += Double(weights[c])
        }
        // The exact cut is in the first bucket where the running mass reaches the target (or, by
        // rounding, just after it: one more bucket is kept).
        let target = Double(topP) * total
        var last = bucketCount - 1, cum: Double = 0
        for b in 0..<bucketCount {
            cum += bucketMass[b]
            if cum >= target { last = min(b + 1, bucketCount - 1); break }
        }
        var kept = 0
        for c in 0..<n where bucket(c) <= last {
            order[kept] = Int32(c)
            kept += 1
        }
        sortOrder(count: kept)
        var running: Double = 0
        for j in 0..<kept {
            running += Double(weights[Int(order[j])])
            if running >= target { return j + 1 }
        }
        return kept
    }

    /// Min-p: keeps the candidates of `order[0..<n]` whose probability (temperature 1) is at least
    /// `minP` times the best token's, in their order.
    mutating func applyMinP(_ n: Int, _ minP: Float) -> Int {
        var kept = 0
        for j in 0..<n where weights[Int(order[j])] >= minP {
            order[kept] = order[j]
            kept += 1
        }
        return max(kept, 1)
    }

    // MARK: - Order and heap helpers

    /// `order = 0..<n`.
    mutating func resetOrder(_ n: Int) {
        if order.count < n { order.append(contentsOf: repeatElement(0, count: n - order.count)) }
        for j in 0..<n { order[j] = Int32(j) }
    }

    /// Whether candidate `a` ranks before `b`: higher logit, then lower id.
    @inline(__always)
    func ranksBefore(_ a: Int, _ b: Int) -> Bool {
        values[a] != values[b] ? values[a] > values[b] : ids[a] < ids[b]
    }

    /// Sorts `order[0..<count]` best first (heapsort: in place, no buffer).
    mutating func sortOrder(count: Int? = nil) {
        let n = count ?? ids.count
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while true {
                var child = 2 * root + 1
                if child >= end { return }
                // A max-heap of the candidate that sorts last, moved to the end each round.
                if child + 1 < end, ranksBefore(Int(order[child]), Int(order[child + 1])) { child += 1 }
                guard ranksBefore(Int(order[root]), Int(order[child])) else { return }
                order.swapAt(root, child)
                root = child
            }
        }
        var start = n / 2 - 1
        while start >= 0 { siftDown(start, n); start -= 1 }
        var end = n - 1
        while end > 0 {
            order.swapAt(0, end)
            siftDown(0, end)
            end -= 1
        }
    }

    /// Top-k heap on `ids`/`values` directly: the root is the candidate that ranks last.
    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard ranksBefore(parent, child) else { return }
            ids.swapAt(parent, child)
            values.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int, _ end: Int) {
        var root = start
        while true {
            var child = 2 * root + 1
            if child >= end { return }
            if child + 1 < end, ranksBefore(child, child + 1) { child += 1 }
            guard ranksBefore(root, child) else { return }
            ids.swapAt(root, child)
            values.swapAt(root, child)
            root = child
        }
    }

    @inline(__always)
    static func expScalar(_ x: Float) -> Float { expf(x) }
}
