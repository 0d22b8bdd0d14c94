import LMGrammar

/// Structured output: tokens follow a grammar (LMGrammar's `GrammarMatcher` over a `TokenIndex`).
///
/// With a token budget it also keeps the value closable: a token after which the value could no longer
/// close within the tokens left is refused (``narrow(after:tokensLeft:)``, see `GrammarMatcher+Budget`),
/// so a structured response stopped by its budget is complete, never half-filled. The narrowed mask is
/// computed only when the sampled token does not fit, so steps far from the budget cost one cached
/// lookup more.
public struct GrammarGuide: TokenGuide {
    public let matcher: GrammarMatcher
    private var mask: [UInt64]

    /// - Parameters:
    ///   - matcher: a matcher at the start of the value; the guide advances it.
    ///   - tokenCount: tokens in the vocabulary of the matcher's index.
    public init(matcher: GrammarMatcher, tokenCount: Int) {
        self.matcher = matcher
        self.mask = [UInt64](repeating: 0, count: (tokenCount + 63) / 64)
    }

    /// Tokens needed to close the value from here (the fewest tokens of the vocabulary found to do it, 0 once
    /// complete); nil when it cannot close.
    public var completionTokenCount: Int? { matcher.completionTokenCount }

    /// `.end` once nothing is allowed any more (the value ended).
    public mutating func next() -> GuideDecision {
        mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
        return mask.contains(where: { $0 != 0 }) ? .sample(masked: true) : .end
    }

    public func withMask<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        try mask.withUnsafeBufferPointer(body)
    }

    public mutating func narrow(after token: Int, tokensLeft: Int) throws(DecodeError) -> Bool {
        if (matcher.completionTokenCount(after: token) ?? .max) <= tokensLeft - 1 { return false }
        let kept = mask.withUnsafeMutableBufferPointer { matcher.restrictMask($0, closingWithin: tokensLeft - 1) }
        guard kept > 0 else { throw .budgetTooSmall(tokensLeft: max(0, tokensLeft), needed: matcher.completionTokenCount) }
        return true
    }

    public mutating func ban(_ token: Int) -> Bool {
        clear(token, in: &mask)
    }

    public func accept(_ token: Int) -> TokenKind {
        guard matcher.accept(token: token) else { return .rejected }
        return matcher.isTerminated ? .end : .text
    }
}
