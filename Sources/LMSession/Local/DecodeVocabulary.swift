import Foundation
import LMGeneration
import LMGrammar
import LMTokenizer
import LMTransformer

/// What decoding a response needs from the model's vocabulary: each token's text, the tokens that end
/// generation, and, for guided and tool-calling requests, the vocabulary prepared for token masks and
/// the tool envelope's tokens. Built from a tokenizer, or by hand for tests.
package struct DecodeVocabulary: Sendable {
    /// Tokens in the vocabulary (the logits' length).
    package let tokenCount: Int
    package let endOfGeneration: Set<Int>
    /// Each token's text as the response shows it (control tokens as nothing).
    package let pieces: TokenPieces
    /// The bytes a token stands for, as the grammar sees it.
    let tokenBytes: @Sendable (Int) -> [UInt8]
    /// The vocabulary prepared for token masks; built on first use and shared.
    package let index: @Sendable () -> TokenIndex
    /// The tool envelope's texts as tokens.
    let envelope: @Sendable () -> ToolCallDecoder.EnvelopeTokens
    /// The tokens of a reasoning block (`<think>`, `</think>`); nil when the model has none.
    package let reasoningMarkers: ReasoningMarkers?

    /// Whether `token`'s bytes are only spaces, tabs and line breaks (and there are some).
    func isWhitespace(_ token: Int) -> Bool {
        let bytes = tokenBytes(token)
        return !bytes.isEmpty && bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
    }

    /// The vocabulary of `tokenizer`; `indexCache` keeps the mask index across requests.
    init(tokenizer: Tokenizer, toolSyntax: ToolCallSyntax, indexCache: TokenIndexCache) {
        tokenCount = tokenizer.vocabularySize
        endOfGeneration = tokenizer.eogIDs
        pieces = tokenizer.pieces
        tokenBytes = { tokenizer.tokenBytes($0) }
        index = { indexCache.index(for: tokenizer) }
        envelope = { ToolCallDecoder.EnvelopeTokens(tokenizer, syntax: toolSyntax) }
        reasoningMarkers = ReasoningMarkers(tokenizer)
    }

    /// A vocabulary given as each token's bytes (`tokens[i]` is token `i`; the same bytes are its text).
    package init(tokens: [[UInt8]], endOfGeneration: Set<Int>, envelope: ToolCallDecoder.EnvelopeTokens,
                 reasoningMarkers: ReasoningMarkers? = nil) {
        self.reasoningMarkers = reasoningMarkers
        tokenCount = tokens.count
        self.endOfGeneration = endOfGeneration
        pieces = TokenPieces(tokens.enumerated().map { endOfGeneration.contains($0.offset) ? [] : $0.element })
        tokenBytes = { tokens.indices.contains($0) ? tokens[$0] : [] }
        let index = TokenIndex(ArrayVocabulary(tokens: tokens, endOfGeneration: endOfGeneration))
        self.index = { index }
        self.envelope = { envelope }
    }
}

extension ToolCallDecoder.EnvelopeTokens {
    /// The texts of `syntax` as `tokenizer` writes them (special-token text parsed, so a vocabulary with a
    /// `<tool_call>` token uses it).
    ///
    /// The tag that starts a call in free text is the opening text without its surrounding whitespace (Qwen writes
    /// `<tool_call>` then a newline, often as two tokens; whitespace before the tag is free text); when the opening text is empty (Llama 3), it is the
    /// call's JSON up to its first key, `{"name"`. Closing texts are refused in a response, trimmed likewise.
    init(_ tokenizer: Tokenizer, syntax: ToolCallSyntax) {
        func tokens(_ text: String) -> [Int] { text.isEmpty ? [] : tokenizer.encode(text, addBOS: false, parseSpecial: true) }
        let quote = tokens("\"")
        let trimmedOpen = syntax.open.trimmingCharacters(in: .whitespacesAndNewlines)
        let tag = syntax.callStartIsJSON || trimmedOpen.isEmpty ? syntax.callStart : trimmedOpen
        let rest = syntax.callStartIsJSON ? "" : syntax.open.range(of: tag).map { String(syntax.open[$0.upperBound...]) } ?? ""
        let trimmedClose = syntax.close.trimmingCharacters(in: .whitespacesAndNewlines)
        let tags = ToolMarkupScanner.Tags(open: tag, others: [trimmedClose] + ToolMarkupScanner.Tags.protocolTexts)
        self.init(open: tokens(syntax.callStart), close: tokens(syntax.close),
                  separatorAndOpen: syntax.separator.map { tokens($0 + syntax.callStart) } ?? [],
                  isList: syntax.isList, quote: quote.count == 1 ? quote[0] : nil,
                  argumentsKey: syntax.argumentsKey, tags: tags, tagStartsJSON: syntax.callStartIsJSON,
                  tagBytes: Array(tag.utf8), openRest: (Array(rest.utf8), tokens(rest)),
                  id: syntax.idKey.map { ($0, syntax.callIDLength ?? 9) } ?? syntax.nameFirst?.idMarker.map { ($0, syntax.callIDLength ?? 9) },
                  nameFirst: syntax.nameFirst)
    }
}
