import LMGrammar

extension ToolCallDecoder {
    /// Keeps a structured answer closable within `maximumResponseTokens`, as `GrammarGuide` (LMGeneration) does without tools.
    ///
    /// Call it with the token sampled from a `.sample(allowed:)` mask before `accept`. While the answer is being
    /// written (or may start), if `token` would leave the value unable to close within `tokensLeft - 1` more tokens,
    /// returns `allowed` narrowed to the tokens that keep it closable (the opening of a tool call stays allowed: calls
    /// do not count against the budget); sample again from it. Returns nil when `token` fits, when it opens a call,
    /// or outside an answer.
    /// - Throws: ``GeneratedContent/ParsingError`` when no answer token fits (the budget is smaller than the
    ///   shortest value the schema allows).
    package func budgetMask(after token: Int, allowed: [UInt64]?, tokensLeft: Int) throws(GeneratedContent.ParsingError) -> [UInt64]? {
        guard let valueMatcher, var mask = allowed else { return nil }
        var callOpening: Int?
        switch phase {
        case .value:
            break
        case .start:
            if mode == .allowed, let first = envelope.open.first, mask[first >> 6] >> UInt64(first & 63) & 1 == 1 {
                callOpening = first
            }
            if token == callOpening, valueMatcher.completionTokenCount(after: token) == nil { return nil }
        default:
            return nil
        }
        if let needed = valueMatcher.completionTokenCount(after: token), needed <= tokensLeft - 1 { return nil }
        let kept = mask.withUnsafeMutableBufferPointer { valueMatcher.restrictMask($0, closingWithin: tokensLeft - 1) }
        // The model chose to answer: when no answer fits, fail rather than steer it into a call.
        guard kept > 0 else {
            let needed = valueMatcher.completionTokenCount.map { "\($0)" } ?? "more"
            throw GeneratedContent.ParsingError(rawContent: "", debugDescription:
                "The response cannot be completed within maximumResponseTokens: \(max(0, tokensLeft)) tokens left, \(needed) needed to close the value.")
        }
        if let callOpening { mask[callOpening >> 6] |= 1 << UInt64(callOpening & 63) }
        return mask
    }
}
