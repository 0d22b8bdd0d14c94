#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chooses tokens from logits with ``SamplingParameters`` and a seeded ``RandomSource``: the same
/// seed, parameters and logits always give the same token.
public struct Sampler: Sendable {
    public let parameters: SamplingParameters
    private var random: RandomSource
    // Candidate buffers, reused across calls (capacity grows once to the vocabulary size).
    private var ids: [Int32] = []
    private var values: [Float] = []

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
        @inline(__always) func isAllowed(_ i: Int) -> Bool {
            guard let allowed else { return true }
            return i / 64 < allowed.count && allowed[i / 64] & (1 << UInt64(i % 64)) != 0
        }
        let recent: Set<Int> = p.repetitionPenalty == 1 ? [] : Set(recentTokens.suffix(p.repetitionWindow))
        @inline(__always) func penalised(_ i: Int, _ l: Float) -> Float {
            guard !recent.isEmpty, recent.contains(i) else { return l }
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
        var order = Array(0..<ids.count)
        order.sort { values[$0] != values[$1] ? values[$0] > values[$1] : ids[$0] < ids[$1] }
        var n = order.count
        if let k = p.topK, k > 0 { n = min(n, k) }

        // Probabilities at temperature 1 for top-p and min-p (llama.cpp applies temperature last).
        var probs = [Float](repeating: 0, count: n)
        let top = values[order[0]]
        var sum: Float = 0
        for j in 0..<n { probs[j] = expf(values[order[j]] - top); sum += probs[j] }
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
        for j in 0..<n { probs[j] = expf((values[order[j]] - top) / p.temperature); sum += probs[j] }
        var r = random.nextUnitFloat() * sum
        for j in 0..<n {
            r -= probs[j]
            if r < 0 { return Int(ids[order[j]]) }
        }
        return Int(ids[order[n - 1]])
    }

    public static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int {
        var best = 0
        for i in 1..<logits.count where logits[i] > logits[best] { best = i }
        return best
    }
}
