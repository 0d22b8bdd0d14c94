/// No rules: any token, until an end-of-generation token. What plain text generation uses.
public struct TextGuide: TokenGuide {
    public let endOfGeneration: Set<Int>
    public let vocabularySize: Int
    /// Set only after a ban (never, unless a caller bans): the tokens still allowed this step.
    private var mask: [UInt64] = []
    private var masked = false

    /// - Parameters:
    ///   - endOfGeneration: the tokens that end generation (`Tokenizer.eogIDs`).
    ///   - vocabularySize: tokens in the vocabulary (the logits' length).
    public init(endOfGeneration: Set<Int>, vocabularySize: Int) {
        self.endOfGeneration = endOfGeneration
        self.vocabularySize = vocabularySize
    }

    public mutating func next() -> GuideDecision {
        masked = false
        return .sample(masked: false)
    }

    public func withMask<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        try mask.withUnsafeBufferPointer(body)
    }

    public mutating func ban(_ token: Int) -> Bool {
        if !masked { fullMask(&mask, tokenCount: vocabularySize) }
        masked = true
        return clear(token, in: &mask)
    }

    public func accept(_ token: Int) -> TokenKind {
        endOfGeneration.contains(token) ? .end : .text
    }
}
