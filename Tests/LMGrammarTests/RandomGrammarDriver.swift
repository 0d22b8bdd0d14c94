import LMGrammar
import TestSupport

/// Generates a value by seeded random choices among the tokens a grammar allows, within a token
/// budget kept as a decoder keeps it (a token after which the value could no longer close in time
/// is refused): values that follow the grammar whatever a model would prefer.
struct RandomGrammarDriver {
    let index: TokenIndex
    let vocabulary: ArrayVocabulary
    /// Tokens that hold a structural character or a quote: picked more often, so values close.
    let structural: [Bool]

    init(vocabulary: ArrayVocabulary, index: TokenIndex) {
        self.vocabulary = vocabulary
        self.index = index
        structural = vocabulary.tokens.map { bytes in bytes.contains { "\"{}[],:".utf8.contains($0) } }
    }

    enum Outcome {
        case value(String, tokens: Int)
        case budgetTooSmall
        case dead(String)
    }

    /// - Parameter onMask: called with how long each step's mask took (for the corpus benchmark).
    func generate(_ grammar: CompiledGrammar, seed: UInt64, budget: Int, onMask: (Duration) -> Void = { _ in }) -> Outcome {
        let matcher = GrammarMatcher(grammar: grammar, index: index)
        var rng = SplitMix64(seed: seed)
        var mask = [UInt64](repeating: 0, count: index.wordCount)
        var bytes: [UInt8] = []
        var generated = 0
        let clock = ContinuousClock()
        while generated < budget {
            let start = clock.now
            mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
            onMask(clock.now - start)
            let left = budget - generated
            var token = pick(mask, &rng)
            guard var chosen = token else { return .dead(String(decoding: bytes, as: UTF8.self)) }
            if (matcher.completionTokenCount(after: chosen) ?? .max) > left - 1 {
                let kept = mask.withUnsafeMutableBufferPointer { matcher.restrictMask($0, closingWithin: left - 1) }
                if kept == 0 { return .budgetTooSmall }
                token = pick(mask, &rng)
                guard let again = token else { return .budgetTooSmall }
                chosen = again
            }
            guard matcher.accept(token: chosen) else { return .dead("token \(chosen) refused after being allowed") }
            if index.endOfGenerationTokens.contains(chosen) { break }
            bytes += vocabulary.tokens[chosen]
            generated += 1
        }
        guard matcher.isComplete else { return .dead(String(decoding: bytes, as: UTF8.self)) }
        return .value(String(decoding: bytes, as: UTF8.self), tokens: generated)
    }

    /// A random allowed token: end of generation when allowed with probability 1/2, else a
    /// structural token with probability 1/2 when one is allowed, else any allowed token.
    private func pick(_ mask: [UInt64], _ rng: inout SplitMix64) -> Int? {
        var allowed: [Int] = []
        for (w, word) in mask.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                allowed.append(w << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
        guard !allowed.isEmpty else { return nil }
        if let end = allowed.first(where: { index.endOfGenerationTokens.contains($0) }), rng.next() & 1 == 0 { return end }
        let closing = allowed.filter { structural[$0] }
        if !closing.isEmpty, rng.next() & 1 == 0 { return closing[Int(rng.next() % UInt64(closing.count))] }
        return allowed[Int(rng.next() % UInt64(allowed.count))]
    }
}
