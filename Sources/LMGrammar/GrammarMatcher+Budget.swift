/// Closing the value within a token budget.
///
/// A completion's length is counted in tokens of the vocabulary: the shortest path from the
/// current automaton state to a complete value where each step is a token the grammar allows (a
/// breadth-first search over automaton states, one trie walk per state expanded). Inside a free
/// string the tokens made only of ordinary characters are left out of the search (they keep the
/// string open), so the count is that of a real token path, at least the true minimum. Every
/// state on the path found gets its length too (the rest of a shortest path is a shortest path),
/// so the next steps of a generation mostly find their length cached. The search stops at the first
/// level that meets a state whose length is known: the count is then that known path's length, the
/// fewest tokens unless a shorter path avoids every state met before (a matcher's first search, on
/// no cache, is exact). A decoder that keeps
/// `completionTokenCount <= tokens left` after every token can always close the value in time:
/// the first token of the path found leads to a state whose count is one less.
extension GrammarMatcher {
    /// Longest completion searched for, in tokens; beyond it a state counts as unable to close.
    static let maxCompletionLength = 4096

    /// Tokens needed to close the value from here: 0 when complete or ended, nil when no
    /// completion exists (or the matcher is dead).
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

    /// Tokens of the shortest completion found from `s` (see above), cached per state; -1 when none.
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
        var best = Int32.max
        var end: Int32 = -1
        var parent: [Int32: Int32] = [s: -1]
        var depth: [Int32: Int32] = [s: 0]
        var frontier: [Int32] = [s]
        var next: [Int32] = []
        var level: Int32 = 0
        search: while !frontier.isEmpty, level &+ 1 < best, level < Int32(Self.maxCompletionLength) {
            level += 1
            next.removeAll(keepingCapacity: true)
            for u in frontier {
                for t in tokenTargets(from: u) where parent[t] == nil {
                    parent[t] = u
                    depth[t] = level
                    if dfa.accepting[Int(t)] {
                        best = level
                        end = t
                        break search
                    }
                    let known = dfa.completionLengths[Int(t)]
                    if known == LazyDFA.unknown {
                        next.append(t)
                    } else if known >= 0, level + known < best {
                        best = level + known
                        end = t
                    }
                }
            }
            // A state met before closes by a known path: stop at the first level that meets one, rather than
            // searching every level below `best` for a shorter path (in a value nested d deep that is every
            // state within d/3 tokens, a trie walk each, on every step: quadratic in the depth).
            if best != .max { break }
            swap(&frontier, &next)
        }
        guard best != .max else { return -1 }
        // Every state on the path found is as far from the end as the path says.
        var cur = end
        while cur >= 0, let d = depth[cur] {
            if cur != s, dfa.completionLengths[Int(cur)] == LazyDFA.unknown { dfa.completionLengths[Int(cur)] = best - d }
            cur = parent[cur] ?? -1
        }
        return best
    }

    /// The distinct states one token leads to from `s` (tokens of ordinary string characters
    /// left out inside a free string): a walk of the token trie like the mask's.
    private func tokenTargets(from s: Int32) -> [Int32] {
        if Int(s) < tokenTargetsCache.count, let known = tokenTargetsCache[Int(s)] { return known }
        let targets = walkTokenTargets(from: s)
        tokenTargetsCache.grow(toHold: Int(s), filling: nil)
        tokenTargetsCache[Int(s)] = targets
        return targets
    }

    private func walkTokenTargets(from s: Int32) -> [Int32] {
        let trie = dfa.inFreeString[Int(s)] ? index.nonPlainTrie : index.fullTrie
        var targets: [Int32] = []
        searchGeneration &+= 1
        if searchGeneration == 0 {
            searchMarks.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            searchGeneration = 1
        }
        var states = [Int32](repeating: 0, count: trie.maxDepth + 1)
        states[0] = s
        var i = 0
        let n = trie.count
        while i < n {
            let d = Int(trie.depth[i])
            let t = dfa.next(states[d - 1], trie.byte[i])
            if t < 0 {
                i = Int(trie.skip[i])
                continue
            }
            if trie.token[i] != -1 {
                searchMarks.grow(toHold: Int(t), filling: 0)
                if searchMarks[Int(t)] != searchGeneration {
                    searchMarks[Int(t)] = searchGeneration
                    targets.append(t)
                }
            }
            states[d] = t
            i += 1
        }
        return targets
    }
}

extension Array {
    /// Grows the array, by doubling (at least 1024 elements), until `index` is in it; new elements are `filling`.
    /// For arrays indexed by DFA state, which the lazy DFA adds as a walk goes.
    mutating func grow(toHold index: Int, filling: Element) {
        guard index >= count else { return }
        append(contentsOf: repeatElement(filling, count: Swift.max(1024, count, index + 1 - count)))
    }
}
