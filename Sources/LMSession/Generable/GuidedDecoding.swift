import LMGrammar
import LMTokenizer

/// Constrains one local generation to a schema: the token mask the sampler takes at each step
/// (`Sampler.sample(_:allowed:)`), the tokens chosen, and the text that closes the value when
/// the token budget is about to run out, so a structured response is never cut half-filled.
///
/// Use from one task: it owns the matcher and the mask buffer.
package final class GuidedDecoding {
    let matcher: GrammarMatcher
    let index: TokenIndex
    private var maskWords: [UInt64]

    /// - Throws: `GenerationSchema.GrammarFailure.unsupportedGuide` for guides the grammar cannot
    ///   enforce, `.invalid` for schemas it cannot compile.
    package init(schema: GenerationSchema, tokenizer: Tokenizer) throws(GenerationSchema.GrammarFailure) {
        let compiled = try schema.compiledGrammar()
        index = TokenIndex.shared(for: tokenizer)
        matcher = GrammarMatcher(grammar: compiled, index: index)
        maskWords = [UInt64](repeating: 0, count: index.wordCount)
    }

    /// Computes the tokens allowed next and passes their mask (`[(vocabSize + 63) / 64]`, bit
    /// `i % 64` of word `i / 64` = token `i`) to `body`.
    package func withAllowedTokens<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        maskWords.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
        return try maskWords.withUnsafeBufferPointer(body)
    }

    /// Records the sampled token. False when the grammar does not allow it (the sampler falls
    /// back to the most likely token when the mask is empty, which cannot happen before the value
    /// is complete).
    package func accept(_ token: Int) -> Bool { matcher.accept(token: token) }

    /// True once the generated text is a complete value.
    package var isComplete: Bool { matcher.isComplete }

    /// The text that closes the value, when at most `remainingTokens` may still be generated
    /// and closing needs them all (one token per byte is assumed, the worst case); nil otherwise.
    /// The caller appends it to the response and stops.
    package func closingText(remainingTokens: Int) -> String? {
        // Closing texts are short; only search near the end of the budget.
        guard remainingTokens <= 64, let bytes = matcher.shortestCompletion(maxLength: 64) else { return nil }
        guard bytes.count >= remainingTokens else { return nil }
        _ = matcher.accept(bytes: bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
