import LMGrammar
import LMTokenizer
import Synchronization

/// A tokenizer's vocabulary as the grammar engine sees it: each token's bytes (llama.cpp's
/// `token_to_piece` without special tokens), control tokens, end-of-generation tokens.
struct TokenizerGrammarVocabulary: GrammarVocabulary {
    let tokenizer: Tokenizer

    var tokenCount: Int { tokenizer.vocabularySize }
    func bytes(ofToken id: Int) -> [UInt8] { tokenizer.tokenBytes(id) }
    func isSpecial(_ id: Int) -> Bool { tokenizer.isControl(id) }
    func isEndOfGeneration(_ id: Int) -> Bool { tokenizer.eogIDs.contains(id) }
}

extension TokenIndex {
    /// The prepared vocabulary of `tokenizer`, built once per tokenizer (tens of milliseconds for
    /// 50k tokens) and shared by every guided generation with it.
    static func shared(for tokenizer: Tokenizer) -> TokenIndex {
        let key = ObjectIdentifier(tokenizer)
        if let index = tokenIndexCache.withLock({ $0[key] }) { return index }
        let index = TokenIndex(TokenizerGrammarVocabulary(tokenizer: tokenizer))
        tokenIndexCache.withLock { $0[key] = index }
        return index
    }
}

/// Token indexes by tokenizer; tokenizers live as long as their loaded model.
private let tokenIndexCache = Mutex<[ObjectIdentifier: TokenIndex]>([:])
