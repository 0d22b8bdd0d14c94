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
    /// - Throws: ``DecodeError/grammar(_:)`` when the grammar cannot be followed here (its pattern
    ///   blew up when determinized, ``GrammarError/stepTooLarge(states:)``).
    public mutating func next() throws(DecodeError) -> GuideDecision {
        mask.withUnsafeMutableBufferPointer { matcher.computeMask(into: $0) }
        if let failure = matcher.failure { throw .grammar(failure) }
        return mask.contains(where: { $0 != 0 }) ? .sample(masked: true) : .end
    }

    public func withMask<R>(_ body: (UnsafeBufferPointer<UInt64>) throws -> R) rethrows -> R {
        try mask.withUnsafeBufferPointer(body)
    }

    public mutating func narrow(after token: Int, tokensLeft: Int) throws(DecodeError) -> Bool {
        let fits = (matcher.completionTokenCount(after: token) ?? .max) <= tokensLeft - 1
        if let failure = matcher.failure { throw .grammar(failure) }
        if fits { return false }
        let kept = mask.withUnsafeMutableBufferPointer { matcher.restrictMask($0, closingWithin: tokensLeft - 1) }
        if let failure = matcher.failure { throw .grammar(failure) }
        guard kept > 0 else {
            // A live state always has a completion: none found means the search, not the budget, failed.
            guard let needed = matcher.completionTokenCount else { throw .grammar(.completionNotFound) }
            throw .budgetTooSmall(tokensLeft: max(0, tokensLeft), needed: needed)
        }
        return true
    }

    public mutating func ban(_ token: Int) -> Bool {
        clear(token, in: &mask)
    }

    public func accept(_ token: Int) throws(DecodeError) -> TokenKind {
        guard matcher.accept(token: token) else {
            if let failure = matcher.failure { throw .grammar(failure) }
            return .rejected
        }
        return matcher.isTerminated ? .end : .text
    }
}
