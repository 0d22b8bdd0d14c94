/// Closing the value within a token budget.
///
/// A completion's length in tokens is bounded by spelling it one byte per token with the
/// vocabulary's single-byte tokens (a byte-level BPE vocabulary such as SmolLM2's or Gemma's has
/// one for every byte JSON needs; a byte without one is simply not used). That bound is exact for
/// forcing: the completion can always be generated token by token, so a decoder that keeps
/// `completionTokenCount <= tokens left` after every token can always close the value in time.
/// Lengths are cached per automaton state, so each state's breadth-first search runs once.
extension GrammarMatcher {
    /// Longest completion searched for, in bytes; beyond it a state counts as unable to close.
    static let maxCompletionLength = 4096

    /// Single-byte tokens needed to close the value from here: 0 when complete or ended, nil
    /// when no completion spelt with single-byte tokens exists (or the matcher is dead).
    public var completionTokenCount: Int? {
        if ended { return 0 }
        return count(completionLength(from: state))
    }

    /// `completionTokenCount` after `token` would be accepted (0 for an end-of-generation token
    /// when the value is complete); nil when the grammar does not allow `token`. Changes nothing.
    public func completionTokenCount(after token: Int) -> Int? {
        guard !ended, state >= 0, token >= 0, token < index.tokenCount else { return nil }
        if index.endOfGenerationMask[token >> 6] & (1 << UInt64(token & 63)) != 0 {
            return dfa.accepting[Int(state)] ? 0 : nil
        }
        let bytes = index.tokenBytes[token]
        guard !bytes.isEmpty else { return nil }
        return count(completionLength(from: self.state(after: bytes, from: state)))
    }

    /// Clears from `mask` every token after which the value cannot close within `tokens` more
    /// tokens; end-of-generation tokens (which close it) stay.
    /// - Returns: the number of tokens left in the mask.
    /// - Precondition: `mask.count >= index.wordCount`.
    @discardableResult
    public func restrictMask(_ mask: UnsafeMutableBufferPointer<UInt64>, closingWithin tokens: Int) -> Int {
        precondition(mask.count >= index.wordCount, "mask needs \(index.wordCount) words")
        guard !ended, state >= 0 else {
            mask.update(repeating: 0)
            return 0
        }
        let from = state
        var kept = 0
        for w in 0..<index.wordCount {
            var word = mask[w]
            var bits = word & ~index.endOfGenerationMask[w]
            while bits != 0 {
                let bit = bits.trailingZeroBitCount
                bits &= bits &- 1
                let length = completionLength(from: state(after: index.tokenBytes[w << 6 | bit], from: from))
                if length < 0 || Int(length) > tokens { word &= ~(1 << UInt64(bit)) }
            }
            mask[w] = word
            kept += word.nonzeroBitCount
        }
        return kept
    }

    private func count(_ length: Int32) -> Int? { length < 0 ? nil : Int(length) }

    /// The state after `bytes` from `s`; `LazyDFA.dead` when some byte is not allowed.
    private func state(after bytes: [UInt8], from s: Int32) -> Int32 {
        guard !bytes.isEmpty else { return LazyDFA.dead }
        var t = s
        for b in bytes {
            t = dfa.next(t, b)
            if t < 0 { return LazyDFA.dead }
        }
        return t
    }

    /// Length of the shortest completion from `s` spelt with single-byte tokens; -1 when none.
    /// Breadth-first, stopping early at states whose length is already known.
    func completionLength(from s: Int32) -> Int32 {
        guard s >= 0 else { return -1 }
        let cached = dfa.completionLengths[Int(s)]
        if cached != LazyDFA.unknown { return cached }
        let length = searchCompletion(from: s)
        dfa.completionLengths[Int(s)] = length
        return length
    }

    private func searchCompletion(from s: Int32) -> Int32 {
        if dfa.accepting[Int(s)] { return 0 }
        let bytes = index.singleByteTokenBytes
        var best = Int32.max
        var seen: Set<Int32> = [s]
        var frontier: [Int32] = [s]
        var next: [Int32] = []
        var level: Int32 = 0
        while !frontier.isEmpty, level &+ 1 < best, level < Int32(Self.maxCompletionLength) {
            level += 1
            next.removeAll(keepingCapacity: true)
            for u in frontier {
                for b in bytes {
                    let t = dfa.next(u, b)
                    guard t >= 0, seen.insert(t).inserted else { continue }
                    if dfa.accepting[Int(t)] { return min(best, level) }
                    let known = dfa.completionLengths[Int(t)]
                    if known == LazyDFA.unknown {
                        next.append(t)
                    } else if known >= 0 {
                        best = min(best, level + known)
                    }
                }
            }
            swap(&frontier, &next)
        }
        return best == .max ? -1 : best
    }
}
