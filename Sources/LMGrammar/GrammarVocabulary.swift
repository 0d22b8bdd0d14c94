/// What the grammar engine needs to know about a tokenizer's vocabulary: the bytes each token
/// stands for, and which tokens are control tokens.
public protocol GrammarVocabulary {
    /// Number of token ids, `0..<tokenCount`.
    var tokenCount: Int { get }
    /// The UTF-8 bytes token `id` decodes to (for byte-level BPE, after undoing the byte-to-
    /// character mapping); empty for control tokens.
    func bytes(ofToken id: Int) -> [UInt8]
    /// True for control tokens (`<|im_start|>`, `<s>`...), which never appear inside a value.
    func isSpecial(_ id: Int) -> Bool
    /// True for tokens that end generation (`<|im_end|>`, `</s>`); allowed only once the value
    /// is complete.
    func isEndOfGeneration(_ id: Int) -> Bool
}

/// A vocabulary held in arrays: handy for tests and for callers that already decoded one.
public struct ArrayVocabulary: GrammarVocabulary, Sendable {
    public let tokens: [[UInt8]]
    public let special: Set<Int>
    public let endOfGeneration: Set<Int>

    /// - Parameters:
    ///   - tokens: the bytes of token `i` at index `i`.
    ///   - special: ids of control tokens.
    ///   - endOfGeneration: ids of end-of-generation tokens (also control tokens).
    public init(tokens: [[UInt8]], special: Set<Int> = [], endOfGeneration: Set<Int> = []) {
        self.tokens = tokens
        self.special = special.union(endOfGeneration)
        self.endOfGeneration = endOfGeneration
    }

    public var tokenCount: Int { tokens.count }
    public func bytes(ofToken id: Int) -> [UInt8] { tokens[id] }
    public func isSpecial(_ id: Int) -> Bool { special.contains(id) }
    public func isEndOfGeneration(_ id: Int) -> Bool { endOfGeneration.contains(id) }
}
