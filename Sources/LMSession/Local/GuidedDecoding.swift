import LMGrammar
import LMTransformer
import LMTokenizer
import Synchronization

/// The tokenizer's vocabulary as the grammar engine sees it (LMGrammar's `GrammarVocabulary`).
struct TokenizerVocabulary: GrammarVocabulary {
    let tokenizer: Tokenizer

    var tokenCount: Int { tokenizer.vocabularySize }
    func bytes(ofToken id: Int) -> [UInt8] { tokenizer.tokenBytes(id) }
    func isSpecial(_ id: Int) -> Bool { tokenizer.isControl(id) }
    func isEndOfGeneration(_ id: Int) -> Bool { tokenizer.eogIDs.contains(id) }
}

/// The token index of a model's vocabulary, built on first guided request and shared by every session.
final class TokenIndexCache: Sendable {
    private let index = Mutex<TokenIndex?>(nil)

    func index(for tokenizer: Tokenizer) -> TokenIndex {
        index.withLock { cached in
            if let cached { return cached }
            let built = TokenIndex(TokenizerVocabulary(tokenizer: tokenizer))
            cached = built
            return built
        }
    }
}

/// Constrains one generation to a schema: the token mask before each step, the token after it.
///
/// With a token budget it also reserves the tokens needed to close the value: a token after which the
/// value could no longer close within the tokens left is refused (see `GrammarMatcher+Budget`), so a
/// structured response stopped by `maximumResponseTokens` is complete, never half-filled.
package struct GuidedDecoder {
    package let matcher: GrammarMatcher
    private var mask: [UInt64]

    /// - Throws: ``LanguageModelSession/GenerationError/unsupportedGuide(_:)`` when the schema cannot be
    ///   compiled to a grammar (an unsupported pattern, an empty language...).
    init(schema: GenerationSchema, index: TokenIndex) throws(LanguageModelSession.GenerationError) {
        do {
            let grammar = try Grammar(jsonSchema: schema.jsonValue)
            matcher = GrammarMatcher(grammar: try CompiledGrammar(grammar), index: index)
        } catch {
            throw .unsupportedGuide(.init(debugDescription: "The schema cannot be enforced: \(error)"))
        }
        mask = [UInt64](repeating: 0, count: index.wordCount)
    }

    /// A decoder over a vocabulary given as each token's bytes (`tokens[i]` is token `i`); the ids in
    /// `endOfGeneration` end generation. For callers without a tokenizer, such as tests.
    /// - Throws: as ``init(schema:index:)``.
    package init(schema: GenerationSchema, tokens: [[UInt8]], endOfGeneration: Set<Int>) throws(LanguageModelSession.GenerationError) {
        try self.init(schema: schema, index: TokenIndex(ArrayVocabulary(tokens: tokens, endOfGeneration: endOfGeneration)))
    }

    /// Tokens needed to close the value from here (the fewest tokens of the vocabulary that do; 0 once complete);
    /// nil when it cannot close.
    package var completionTokenCount: Int? { matcher.completionTokenCount }

    /// Chooses and accepts the next token.
    ///
    /// `choose` picks among the allowed tokens (a bitset over the vocabulary, bit `i % 64` of word `i / 64`).
    /// When `tokensLeft` is given and the pick would leave the value unable to close within the tokens after
    /// it, the mask is narrowed to the tokens that keep it closable and `choose` picks again; the narrowed
    /// mask is computed only then, so steps far from the budget cost one cached lookup more.
    /// - Parameters:
    ///   - tokensLeft: tokens the response may still take, this one included; nil for no budget.
    ///   - choose: the sampler; returns a token id, ideally one whose bit is set.
    /// - Returns: the token, or nil when nothing is allowed any more (the value ended) or `choose` picked a
    ///   token the grammar refuses.
    /// - Throws: ``LanguageModelSession/GenerationError/decodingFailure(_:)`` when `tokensLeft` is too small to
    ///   close the value at all (as Apple's session throws for a response cut off by `maximumResponseTokens`).
    package mutating func next(tokensLeft: Int?, choose: (UnsafeBufferPointer<UInt64>) -> Int) throws(LanguageModelSession.GenerationError) -> Int? {
        mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
        guard mask.contains(where: { $0 != 0 }) else { return nil }
        var token = mask.withUnsafeBufferPointer { choose($0) }
        if let tokensLeft, (matcher.completionTokenCount(after: token) ?? .max) > tokensLeft - 1 {
            let kept = mask.withUnsafeMutableBufferPointer { matcher.restrictMask($0, closingWithin: tokensLeft - 1) }
            guard kept > 0 else {
                let needed = matcher.completionTokenCount.map { "\($0)" } ?? "more"
                throw .decodingFailure(.init(debugDescription:
                    "The response cannot be completed within maximumResponseTokens: \(max(0, tokensLeft)) tokens left, \(needed) needed to close the value."))
            }
            token = mask.withUnsafeBufferPointer { choose($0) }
        }
        return matcher.accept(token: token) ? token : nil
    }
}
