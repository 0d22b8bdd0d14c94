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
struct GuidedDecoder {
    let matcher: GrammarMatcher
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

    /// Samples the next token among those the grammar allows; nil when nothing is allowed any more
    /// (the value ended).
    mutating func sample(_ sampler: inout Sampler, logits: UnsafeBufferPointer<Float>, recent: ArraySlice<Int>) -> Int? {
        mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
        guard mask.contains(where: { $0 != 0 }) else { return nil }
        let token = mask.withUnsafeBufferPointer { sampler.sample(logits, recentTokens: recent, allowed: $0) }
        return matcher.accept(token: token) ? token : nil
    }
}
