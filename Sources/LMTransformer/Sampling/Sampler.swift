#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chooses tokens from logits with ``SamplingParameters`` and a seeded ``RandomSource``: the same
/// seed, parameters and logits always give the same token.
///
/// Its buffers are reused across calls: once they have grown to the vocabulary (after the first
/// call), sampling a token allocates nothing.
public struct Sampler: Sendable {
    public let parameters: SamplingParameters
    private var random: RandomSource
    // Candidates within reach of the best logit: token ids and penalised logits.
    private var ids: [Int32] = []
    private var values: [Float] = []
    /// Candidate indices, sorted best first.
    private var order: [Int32] = []
    private var probs: [Float] = []
    /// Bitset over the vocabulary of the penalised recent tokens; all zero between calls.
    private var recent: [UInt64] = []

    public init(_ parameters: SamplingParameters, seed: UInt64) {
        self.parameters = parameters
        self.random = RandomSource(seed: seed)
    }

    /// Picks the next token id.
    /// - Parameters:
    ///   - logits: `[vocabSize]`.
    ///   - recentTokens: tokens already in the sequence (the last `repetitionWindow` are penalised).
    ///   - allowed: optional token mask, a bitset over the vocabulary (bit `i % 64` of word `i / 64`
    ///     set = token `i` allowed). Only allowed tokens can be picked; if none is, returns the
    ///     most likely token regardless.
    public mutating func sample(_ logits: UnsafeBufferPointer<Float>, recentTokens: ArraySlice<Int> = [],
                                allowed: UnsafeBufferPointer<UInt64>? = nil) -> Int {
        let p = parameters
        let penalised = p.repetitionPenalty == 1 ? recentTokens[recentTokens.endIndex...] : recentTokens.suffix(p.repetitionWindow)
        let words = (logits.count + 63) / 64
        if recent.count < words { recent.append(contentsOf: repeatElement(0, count: words - recent.count)) }
        for t in penalised where t >= 0 && t < logits.count { recent[t / 64] |= 1 << UInt64(t % 64) }
        defer { for t in penalised where t >= 0 && t < logits.count { recent[t / 64] = 0 } }
        return choose(logits, penalising: !penalised.isEmpty, allowed: allowed)
    }

    private mutating func choose(_ logits: UnsafeBufferPointer<Float>, penalising: Bool, allowed: UnsafeBufferPointer<UInt64>?) -> Int {
        let p = parameters
        @inline(__always) func isAllowed(_ i: Int) -> Bool {
            guard let allowed else { return true }
            return i / 64 < allowed.count && allowed[i / 64] & (1 << UInt64(i % 64)) != 0
        }
        @inline(__always) func penalised(_ i: Int, _ l: Float) -> Float {
            guard penalising, recent[i / 64] & (1 << UInt64(i % 64)) != 0 else { return l }
            return l > 0 ? l / p.repetitionPenalty : l * p.repetitionPenalty
        }

        // Greedy: argmax over allowed tokens.
        var best = -1
        var bestValue = -Float.infinity
        for i in 0..<logits.count where isAllowed(i) {
            let l = penalised(i, logits[i])
            if best < 0 || l > bestValue { best = i; bestValue = l }
        }
        if best < 0 { return Self.argmax(logits) }
        if p.isGreedy { return best }

        // Candidates within 30 temperature-scaled nats of the best; the rest have probability < e^-30.
        let floor = bestValue - 30 * max(p.temperature, 1e-3)
        ids.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        for i in 0..<logits.count where isAllowed(i) {
            let l = penalised(i, logits[i])
            if l >= floor { ids.append(Int32(i)); values.append(l) }
        }
        // Sort candidates by logit, descending; ties by id for determinism.
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: 0..<Int32(ids.count))
        let candidateValues = values, candidateIDs = ids
        order.withUnsafeMutableBufferPointer { buffer in
            Self.heapSort(buffer) { a, b in
                let va = candidateValues[Int(a)], vb = candidateValues[Int(b)]
                return va != vb ? va > vb : candidateIDs[Int(a)] < candidateIDs[Int(b)]
            }
        }
        var n = order.count
        if let k = p.topK, k > 0 { n = min(n, k) }

        // Probabilities at temperature 1 for top-p and min-p (llama.cpp applies temperature last).
        probs.removeAll(keepingCapacity: true)
        probs.append(contentsOf: repeatElement(0, count: n))
        let top = values[Int(order[0])]
        var sum: Float = 0
        for j in 0..<n { probs[j] = expf(values[Int(order[j])] - top); sum += probs[j] }
        if let topP = p.topP, topP < 1 {
            var cum: Float = 0
            for j in 0..<n {
                cum += probs[j] / sum
                if cum >= topP { n = j + 1; break }
            }
        }
        if let minP = p.minP, minP > 0 {
            var keep = 1
            while keep < n, probs[keep] >= minP * probs[0] { keep += 1 }
            n = keep
        }
        // Temperature, then draw.
        sum = 0
        for j in 0..<n { probs[j] = expf((values[Int(order[j])] - top) / p.temperature); sum += probs[j] }
        var r = random.nextUnitFloat() * sum
        for j in 0..<n {
            r -= probs[j]
            if r < 0 { return Int(ids[Int(order[j])]) }
        }
        return Int(ids[Int(order[n - 1])])
    }

    /// Sorts `a` so that `before(a[i], a[j])` holds for `i < j` (a strict total order), in place:
    /// heapsort, which unlike the standard library's stable sort needs no buffer.
    private static func heapSort(_ a: UnsafeMutableBufferPointer<Int32>, before: (Int32, Int32) -> Bool) {
        // A heap whose root is the element that sorts last; it is moved to the end each round.
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while true {
                var child = 2 * root + 1
                if child >= end { return }
                if child + 1 < end, before(a[child], a[child + 1]) { child += 1 }
                guard before(a[root], a[child]) else { return }
                a.swapAt(root, child)
                root = child
            }
        }
        let n = a.count
        var start = n / 2 - 1
        while start >= 0 { siftDown(start, n); start -= 1 }
        var end = n - 1
        while end > 0 {
            a.swapAt(0, end)
            siftDown(0, end)
            end -= 1
        }
    }

    public static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int {
        var best = 0
        for i in 1..<logits.count where logits[i] > logits[best] { best = i }
        return best
    }
}
