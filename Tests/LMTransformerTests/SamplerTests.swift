import Foundation
import LMTransformer
import TestSupport
import Testing

/// The sampler's partial selections against a plain reference that sorts the whole vocabulary and
/// applies llama.cpp's chain (penalty, top-k, top-p and min-p at temperature 1, then temperature).
@Suite struct SamplerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let parameters: SamplingParameters
        var masked = false
        var penalised = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "default (top-k 40, top-p 0.95, min-p 0.05)", parameters: SamplingParameters()),
        Case(name: "top-p 0.9 without top-k", parameters: SamplingParameters(temperature: 0.7, topK: nil, topP: 0.9, minP: nil)),
        Case(name: "top-p 0.99, temperature 1.3", parameters: SamplingParameters(temperature: 1.3, topK: nil, topP: 0.99, minP: nil)),
        Case(name: "min-p only", parameters: SamplingParameters(temperature: 1, topK: nil, topP: nil, minP: 0.1)),
        Case(name: "temperature only", parameters: SamplingParameters(temperature: 0.9, topK: nil, topP: nil, minP: nil)),
        Case(name: "top-k 5", parameters: SamplingParameters(temperature: 1, topK: 5, topP: nil, minP: nil)),
        Case(name: "top-k 40 with a mask and a penalty", parameters: SamplingParameters(repetitionPenalty: 1.3), masked: true, penalised: true),
        Case(name: "top-p with a mask", parameters: SamplingParameters(temperature: 0.8, topK: nil, topP: 0.9, minP: 0.02), masked: true),
        Case(name: "top-p with a penalty below 1", parameters: SamplingParameters(temperature: 0.8, topK: nil, topP: 0.9, minP: nil, repetitionPenalty: 0.8), penalised: true),
    ]

    /// Logits shaped like a small model's: a broad bulk and a few strong tokens, with exact ties.
    static func logits(vocab: Int, seed: UInt64) -> [Float] {
        var rng = SplitMix64(seed: seed)
        var l = (0..<vocab).map { _ in Float.random(in: -4...4, using: &rng) }
        for _ in 0..<20 { l[Int(rng.next() % UInt64(vocab))] = Float.random(in: 6...14, using: &rng) }
        l[7] = l[vocab - 3]   // a tie
        return l
    }

    static func reference(_ logits: [Float], _ p: SamplingParameters, recent: [Int], allowed: [UInt64]?) -> [Int: Double] {
        let penalisedSet = p.repetitionPenalty == 1 ? Set<Int>() : Set(recent.suffix(p.repetitionWindow))
        var candidates: [(id: Int, v: Double)] = []
        for i in logits.indices {
            if let allowed, allowed[i / 64] >> UInt64(i % 64) & 1 == 0 { continue }
            var v = Double(logits[i])
            if penalisedSet.contains(i) { v = v > 0 ? v / Double(p.repetitionPenalty) : v * Double(p.repetitionPenalty) }
            candidates.append((i, v))
        }
        candidates.sort { $0.v != $1.v ? $0.v > $1.v : $0.id < $1.id }
        if p.isGreedy { return [candidates[0].id: 1] }
        if let k = p.topK, k > 0 { candidates = Array(candidates.prefix(k)) }
        let top = candidates[0].v
        var probs = candidates.map { exp($0.v - top) }
        if let topP = p.topP, topP < 1 {
            let sum = probs.reduce(0, +)
            var cum = 0.0, n = probs.count
            for j in probs.indices {
                cum += probs[j] / sum
                if cum >= Double(topP) { n = j + 1; break }
            }
            candidates = Array(candidates.prefix(n)); probs = Array(probs.prefix(n))
        }
        if let minP = p.minP, minP > 0 {
            let n = max(1, probs.firstIndex { $0 < Double(minP) * probs[0] } ?? probs.count)
            candidates = Array(candidates.prefix(n))
        }
        let weights = candidates.map { exp(($0.v - top) / Double(p.temperature)) }
        let total = weights.reduce(0, +)
        return Dictionary(uniqueKeysWithValues: zip(candidates.map(\.id), weights.map { $0 / total }))
    }

    @Test("the distribution equals the full-sort reference", arguments: cases, [49_152, 1000, 77])
    func distributionMatchesReference(_ c: Case, vocab: Int) {
        for seed in UInt64(1)...6 {
            let logits = Self.logits(vocab: vocab, seed: seed * 31 + UInt64(vocab))
            var rng = SplitMix64(seed: seed)
            let recent = c.penalised ? (0..<40).map { _ in Int(rng.next() % UInt64(vocab)) } + logits.indices.sorted { logits[$0] > logits[$1] }.prefix(3) : []
            var allowed: [UInt64]? = nil
            if c.masked {
                var words = (0..<((vocab + 63) / 64)).map { _ in rng.next() & rng.next() }
                for w in 0..<(words.count / 3) { words[w] = ~0 }   // some whole words allowed
                allowed = words
            }
            let expected = Self.reference(logits, c.parameters, recent: recent, allowed: allowed)
            var sampler = Sampler(c.parameters, seed: 9)
            let got = logits.withUnsafeBufferPointer { l in
                if let allowed {
                    return allowed.withUnsafeBufferPointer { sampler.distribution(l, recentTokens: recent[...], allowed: $0) }
                }
                return sampler.distribution(l, recentTokens: recent[...])
            }
            // A top-p cut inside a dense bulk of near-equal tokens can land one token either side
            // with Float sums: allow at most two boundary tokens, carrying almost no probability.
            let ours = Set(got.map(\.token)), theirs = Set(expected.keys)
            let differing = ours.symmetricDifference(theirs)
            let differingMass = differing.reduce(0.0) { sum, token in
                sum + (expected[token] ?? Double(got.first { $0.token == token }?.probability ?? 0))
            }
            #expect(differing.count <= (c.parameters.topK == nil ? 2 : 0) && differingMass < 1e-3,
                    "seed \(seed): \(got.count) tokens vs \(expected.count), \(differing.count) differ")
            for (token, probability) in got where theirs.contains(token) {
                #expect(abs(Double(probability) - expected[token]!) < 1e-4, "seed \(seed) token \(token)")
            }
        }
    }

    @Test("the same seed draws the same tokens, every drawn token is in the distribution", arguments: cases)
    func drawsAreSeededAndInTheDistribution(_ c: Case) {
        let logits = Self.logits(vocab: 5000, seed: 3)
        var a = Sampler(c.parameters, seed: 42), b = Sampler(c.parameters, seed: 42)
        var probe = Sampler(c.parameters, seed: 0)
        let support = Set(logits.withUnsafeBufferPointer { probe.distribution($0) }.map(\.token))
        let draws = logits.withUnsafeBufferPointer { l in (0..<200).map { _ in a.sample(l) } }
        let again = logits.withUnsafeBufferPointer { l in (0..<200).map { _ in b.sample(l) } }
        #expect(draws == again)
        #expect(draws.allSatisfy(support.contains))
        if support.count > 1 { #expect(Set(draws).count > 1) }
    }

    @Test func greedyTakesTheFirstOfTiedBestTokensAndRespectsTheMask() {
        var logits = [Float](repeating: 0, count: 300)
        logits[200] = 5; logits[100] = 5; logits[250] = 9
        var mask = [UInt64](repeating: 0, count: 5)
        mask[1] |= 1 << (100 - 64); mask[3] |= 1 << (200 - 192)
        var s = Sampler(.greedy, seed: 1)
        logits.withUnsafeBufferPointer { l in
            #expect(s.sample(l) == 250)
            #expect(mask.withUnsafeBufferPointer { s.sample(l, allowed: $0) } == 100)
            let none = [UInt64](repeating: 0, count: 5)
            #expect(none.withUnsafeBufferPointer { s.sample(l, allowed: $0) } == 250)
            #expect(Sampler.argmax(l) == 250)
        }
    }
}
