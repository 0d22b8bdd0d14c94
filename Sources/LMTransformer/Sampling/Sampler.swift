/// Chooses tokens from logits with ``SamplingParameters`` and a seeded ``RandomSource``: the same
/// seed, parameters and logits always give the same token.
///
/// The filters run on a partial selection, never a sort of the vocabulary: one pass finds the best
/// token (greedy stops there); top-k keeps a k-element heap while it scans; without top-k, top-p
/// buckets the tokens within 30 nats of the best by logit and sorts only the buckets that reach
/// the nucleus. Its buffers are reused across calls: once they have grown (after the first calls),
/// sampling a token allocates nothing.
public struct Sampler: Sendable {
    public let parameters: SamplingParameters
    var random: RandomSource
    /// The candidates of the current call: token ids and penalised logits, and per candidate a
    /// weight (`exp(logit - best)`, later at the temperature).
    var ids: [Int32] = []
    var values: [Float] = []
    var weights: [Float] = []
    /// Candidate indices in filter order (best first where the filters need an order).
    var order: [Int32] = []
    /// Bitset over the vocabulary of the penalised recent tokens; all zero between calls.
    var recent: [UInt64] = []
    /// Top-p's logit histogram: probability mass per bucket.
    var bucketMass: [Double] = []

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
        withCandidates(logits, recentTokens: recentTokens, allowed: allowed) { sampler, count in
            count < 0 ? -count - 1 : sampler.draw(count)
        }
    }

    /// The distribution ``sample(_:recentTokens:allowed:)`` draws from: token ids with their
    /// probabilities (summing to 1), most likely first. For tests and diagnostics; it allocates.
    public mutating func distribution(_ logits: UnsafeBufferPointer<Float>, recentTokens: ArraySlice<Int> = [],
                                      allowed: UnsafeBufferPointer<UInt64>? = nil) -> [(token: Int, probability: Float)] {
        withCandidates(logits, recentTokens: recentTokens, allowed: allowed) { sampler, count in
            if count < 0 { return [(-count - 1, 1)] }
            let total = (0..<count).reduce(0.0) { $0 + Double(sampler.weights[Int(sampler.order[$1])]) }
            return (0..<count).map { j in
                let c = Int(sampler.order[j])
                return (Int(sampler.ids[c]), Float(Double(sampler.weights[c]) / total))
            }.sorted { $0.probability != $1.probability ? $0.probability > $1.probability : $0.token < $1.token }
        }
    }

    /// Marks the penalised tokens, runs the filters, and calls `body` with the number of final
    /// candidates (`order[0..<count]`, weights at the temperature), or with `-(token + 1)` when one
    /// token is chosen outright (greedy, or nothing allowed).
    private mutating func withCandidates<R>(_ logits: UnsafeBufferPointer<Float>, recentTokens: ArraySlice<Int>,
                                            allowed: UnsafeBufferPointer<UInt64>?,
                                            _ body: (inout Sampler, Int) -> R) -> R {
        let p = parameters
        let penalised = p.repetitionPenalty == 1 ? recentTokens[recentTokens.endIndex...] : recentTokens.suffix(p.repetitionWindow)
        let words = (logits.count + 63) / 64
        if recent.count < words { recent.append(contentsOf: repeatElement(0, count: words - recent.count)) }
        for t in penalised where t >= 0 && t < logits.count { recent[t / 64] |= 1 << UInt64(t % 64) }
        defer { for t in penalised where t >= 0 && t < logits.count { recent[t / 64] = 0 } }
        let count = recent.withUnsafeBufferPointer { bits in
            filter(LogitSource(logits: logits, allowed: allowed, recent: penalised.isEmpty ? nil : bits,
                               penalty: p.repetitionPenalty))
        }
        return body(&self, count)
    }

    /// Top-k, top-p, min-p, then temperature (llama.cpp's order: probabilities for top-p and min-p
    /// at temperature 1, the temperature applied last). Returns the candidate count or `-(token + 1)`.
    private mutating func filter(_ source: LogitSource) -> Int {
        let p = parameters
        var n: Int, bestValue: Float
        if !p.isGreedy, let k = p.topK, k > 0 {
            // The top-k scan finds the best logit too (the first candidate): one pass over the
            // vocabulary, not two. No candidate means no allowed token, as argmax's nil.
            n = selectTopK(source, k)
            guard n > 0 else { return -(Self.argmax(source.logits) + 1) }
            bestValue = values[Int(order[0])]
            weigh(best: bestValue, scale: 1)
            n = applyTopP(sortedCount: n)
        } else {
            guard let (best, value) = source.argmax() else { return -(Self.argmax(source.logits) + 1) }
            if p.isGreedy { return -(best + 1) }
            bestValue = value
            // Tokens more than 30 nats (at the temperature, when above 1) below the best weigh
            // less than e^-30 each; they are left out of the normaliser and the draw.
            gather(source, atLeast: bestValue - 30 * max(p.temperature, 1))
            n = ids.count
            weigh(best: bestValue, scale: 1)
            if let topP = p.topP, topP < 1 { n = nucleus(n, best: bestValue, topP: topP) }
        }
        if let minP = p.minP, minP > 0 { n = applyMinP(n, minP) }
        if n <= 256 {
            for j in 0..<n {
                let c = Int(order[j])
                weights[c] = Self.expScalar((values[c] - bestValue) / p.temperature)
            }
        } else {
            weigh(best: bestValue, scale: 1 / p.temperature)
        }
        return n
    }

    /// Draws one of the first `count` candidates in `order` by weight.
    private mutating func draw(_ count: Int) -> Int {
        var sum: Double = 0
        for j in 0..<count { sum += Double(weights[Int(order[j])]) }
        var r = Double(random.nextUnitFloat()) * sum
        for j in 0..<count {
            let c = Int(order[j])
            r -= Double(weights[c])
            if r < 0 { return Int(ids[c]) }
        }
        return Int(ids[Int(order[count - 1])])
    }

    /// The most likely token of `logits`, the first one on ties.
    public static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int {
        LogitSource(logits: logits, allowed: nil, recent: nil, penalty: 1).argmax()?.0 ?? 0
    }
}
