import LMGeneration
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

extension GrammarGuide {
    /// A guide that constrains a response to `schema`.
    ///
    /// With a token budget (`maximumResponseTokens`), a recursive schema nests as deep as the budget allows (the
    /// budget keeps the value closable); without one, `GrammarOptions.maxRecursionDepth` (3) levels.
    /// - Throws: ``LanguageModelError/unsupportedGenerationGuide(_:)`` (with the schema's name) when the schema
    ///   cannot be compiled to a grammar (an unsupported pattern, an empty language...).
    package init(schema: GenerationSchema, index: TokenIndex, budgeted: Bool = false) throws(LanguageModelError) {
        do {
            let grammar = try Grammar(jsonSchema: schema.jsonValue)
            let options = GrammarOptions(recursionBoundedByInput: budgeted)
            self.init(matcher: GrammarMatcher(grammar: try CompiledGrammar(grammar, options: options), index: index), tokenCount: index.tokenCount)
        } catch {
            throw .unsupportedGenerationGuide(.init(schemaName: schema.formatName.isEmpty ? nil : schema.formatName,
                                                    debugDescription: "The schema cannot be enforced: \(error)"))
        }
    }
}
