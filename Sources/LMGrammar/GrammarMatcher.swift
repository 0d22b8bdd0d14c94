/// A grammar compiled to its byte automaton; immutable, shareable, and the input of
/// `GrammarMatcher`.
public struct CompiledGrammar: Sendable {
    let nfa: ByteNFA
    let liveness: NFALiveness
    let maxCachedStates: Int
    let maxStatesPerStep: Int
    let maxRecursionDepth: Int

    /// - Throws: `GrammarError` for an unsupported pattern, an undefined reference, an empty
    ///   language (e.g. `minCount > maxCount`) or an automaton above `options.maxStates`.
    public init(_ grammar: Grammar, options: GrammarOptions = GrammarOptions()) throws(GrammarError) {
        nfa = try GrammarCompiler.compile(grammar, options: options)
        liveness = NFALiveness(nfa)
        maxCachedStates = max(options.maxCachedStates, 64)
        maxStatesPerStep = max(options.maxStatesPerStep, 64)
        // Recursion that reads input first is bounded by the input; left recursion needs the count.
        maxRecursionDepth = options.recursionBoundedByInput && !nfa.hasZeroWidthRecursion ? CallContexts.unbounded : options.maxRecursionDepth
        let contexts = CallContexts(nfa: nfa, liveness: liveness, maxRecursionDepth: maxRecursionDepth)
        if !contexts.isLive(nfa.start, in: CallContexts.root) { throw .emptyLanguage("no complete value is reachable") }
    }

    /// Number of automaton states (a size measure).
    public var stateCount: Int { nfa.count }
}

/// Follows one generation through a compiled grammar: which tokens may come next (`computeMask`)
/// and what was generated (`accept`). Forward only; it never needs rollback.
///
/// Masks and transitions are cached per automaton state, so a state seen before costs a copy.
/// Not thread-safe: use one matcher per generation, on one task.
public final class GrammarMatcher {
    let dfa: LazyDFA
    let index: TokenIndex
    let maxCachedStates: Int
    private(set) var state: Int32
    private(set) var ended = false
    private var depthStates: [Int32]
    /// The completion search's marks of DFA states met (`GrammarMatcher+Budget`): a state is met in
    /// the current walk when its mark equals `searchGeneration`; hashing them in a set took a
    /// quarter of a large schema's generation time.
    var searchMarks: [UInt32] = []
    var searchGeneration: UInt32 = 0
    /// The states one token leads to from each DFA state the completion search expanded (nil: not
    /// yet), kept for the rest of the generation: each step's search expands much of the last
    /// step's neighbourhood again, and the trie walk is most of its cost.
    var tokenTargetsCache: [[Int32]?] = []

    /// - Parameters:
    ///   - grammar: the compiled grammar.
    ///   - index: the prepared vocabulary; its token ids are the ids masks and `accept` use.
    public init(grammar: CompiledGrammar, index: TokenIndex) {
        dfa = LazyDFA(nfa: grammar.nfa, liveness: grammar.liveness, maxRecursionDepth: grammar.maxRecursionDepth,
                      stateLimit: grammar.maxCachedStates + grammar.maxStatesPerStep)
        maxCachedStates = grammar.maxCachedStates
        self.index = index
        state = dfa.start
        depthStates = [Int32](repeating: 0, count: max(index.fullTrie.maxDepth, index.nonPlainTrie.maxDepth) + 1)
    }

    /// True once the bytes so far form a complete value (the value may still be extendable,
    /// e.g. a top-level number).
    public var isComplete: Bool { ended || (state >= 0 && dfa.accepting[Int(state)]) }

    /// True when an end-of-generation token is allowed now: the value is complete and
    /// generation has not ended yet.
    public var canEnd: Bool { !ended && state >= 0 && dfa.accepting[Int(state)] }

    /// True after an end-of-generation token was accepted.
    public var isTerminated: Bool { ended }

    /// Starts over at the beginning of the value, keeping the caches.
    public func reset() {
        state = dfa.start
        ended = false
    }

    /// The runs the matcher stands in, each an NFA state id, its number of open calls and their
    /// (procedure, return state) pairs innermost first, sorted: equal for two matchers of the same
    /// grammar exactly when the same continuations are allowed (frame ids differ between matchers,
    /// so the stacks are spelt out). For tests.
    package var stateSignature: [Int32] {
        guard !ended, state >= 0 else { return [] }
        var runs: [[Int32]] = []
        for r in dfa.sets[Int(state)] {
            let calls = dfa.contexts.stack(LazyDFA.frame(r))
            runs.append([LazyDFA.state(r), Int32(calls.count)] + calls.flatMap { [$0.procedure, $0.returnTo] })
        }
        return runs.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }
    }

    /// Set once a step needed more determinized states than the grammar's options allow
    /// (``GrammarError/stepTooLarge(states:)``); the masks and answers of that step and after are
    /// not to be used.
    public var failure: GrammarError? { dfa.overflowed ? .stepTooLarge(states: dfa.stateLimit) : nil }

    /// Number of determinized states cached now.
    public var cachedStateCount: Int { dfa.stateCount }

    /// Drops the caches when they outgrew `maxCachedStates`; only between steps, when no walk
    /// holds state ids.
    private func limitCache() {
        guard dfa.stateCount > maxCachedStates, state >= 0 else { return }
        state = dfa.flush(keeping: state)
        tokenTargetsCache.removeAll(keepingCapacity: true)
    }

    /// Writes the set of allowed next tokens: bit `i % 64` of word `i / 64` is token `i`.
    /// End-of-generation tokens are allowed only when `canEnd`; after the end nothing is.
    /// - Precondition: `mask.count >= index.wordCount`.
    public func computeMask(into mask: UnsafeMutableBufferPointer<UInt64>) {
        precondition(mask.count >= index.wordCount, "mask needs \(index.wordCount) words")
        guard !ended, state >= 0 else {
            mask.update(repeating: 0)
            return
        }
        limitCache()
        let cached = tokenMask(for: state)
        guard !dfa.overflowed else {
            mask.update(repeating: 0)
            return
        }
        cached.withUnsafeBufferPointer { src in
            for w in 0..<index.wordCount { mask[w] = src[w] }
        }
        if dfa.accepting[Int(state)] {
            for w in 0..<index.wordCount { mask[w] |= index.endOfGenerationMask[w] }
        }
    }

    /// The same mask computed the slow, obvious way: every token's bytes run through the
    /// automaton one by one, no trie and no slices. The reference the fast path is tested against.
    package func computeReferenceMask(into mask: UnsafeMutableBufferPointer<UInt64>) {
        mask.update(repeating: 0)
        guard !ended, state >= 0 else { return }
        for id in 0..<index.tokenCount {
            let bytes = index.tokenBytes[id]
            guard !bytes.isEmpty else { continue }
            var s = state
            for b in bytes where s >= 0 { s = dfa.next(s, b) }
            if s >= 0 { mask[id >> 6] |= 1 << UInt64(id & 63) }
        }
        if dfa.accepting[Int(state)] {
            for w in 0..<index.wordCount { mask[w] |= index.endOfGenerationMask[w] }
        }
    }

    /// Advances by token `token` if the grammar allows it.
    /// - Returns: false (and no change) when the token is not allowed.
    public func accept(token: Int) -> Bool {
        guard !ended, !dfa.overflowed, state >= 0, token >= 0, token < index.tokenCount else { return false }
        if index.endOfGenerationMask[token >> 6] & (1 << UInt64(token & 63)) != 0 {
            guard dfa.accepting[Int(state)] else { return false }
            ended = true
            return true
        }
        let bytes = index.tokenBytes[token]
        guard !bytes.isEmpty else { return false }
        limitCache()
        var s = state
        for b in bytes {
            s = dfa.next(s, b)
            if s < 0 { return false }
        }
        state = s
        return true
    }

    /// Advances by raw bytes (text forced by the caller) if the grammar allows them.
    /// - Returns: false (and no change) when some byte is not allowed.
    public func accept(bytes: some Sequence<UInt8>) -> Bool {
        guard !ended, !dfa.overflowed, state >= 0 else { return false }
        limitCache()
        var s = state
        for b in bytes {
            s = dfa.next(s, b)
            if s < 0 { return false }
        }
        state = s
        return true
    }

    /// The shortest bytes that complete the value from here (breadth-first over the automaton,
    /// lowest byte first among equals): what a caller appends when the token budget runs out, so
    /// a structured value closes instead of being cut. Empty when already complete; nil after the
    /// end or when no completion within `maxLength` bytes exists.
    public func shortestCompletion(maxLength: Int = 4096) -> [UInt8]? {
        guard !ended, state >= 0 else { return nil }
        if dfa.accepting[Int(state)] { return [] }
        var parent: [Int32: (from: Int32, byte: UInt8)] = [state: (-1, 0)]
        var frontier: [Int32] = [state]
        for _ in 0..<maxLength {
            var next: [Int32] = []
            for s in frontier {
                for b in 0...255 {
                    let t = dfa.next(s, UInt8(b))
                    guard t >= 0, parent[t] == nil else { continue }
                    parent[t] = (s, UInt8(b))
                    if dfa.accepting[Int(t)] {
                        var bytes: [UInt8] = []
                        var cur = t
                        while let p = parent[cur], p.from >= 0 {
                            bytes.append(p.byte)
                            cur = p.from
                        }
                        return bytes.reversed()
                    }
                    next.append(t)
                }
            }
            if next.isEmpty { return nil }
            frontier = next
        }
        return nil
    }

    /// The mask of state `s` without end-of-generation tokens, computed on first use.
    func tokenMask(for s: Int32) -> [UInt64] {
        if let m = dfa.masks[Int(s)] { return m }
        var mask: [UInt64]
        if dfa.inFreeString[Int(s)] {
            mask = index.plainMask
            for w in mask.indices { mask[w] |= index.plainPartialMask[w] }
            walk(index.nonPlainTrie, from: s, into: &mask)
        } else {
            mask = [UInt64](repeating: 0, count: index.wordCount)
            walk(index.fullTrie, from: s, into: &mask)
        }
        dfa.masks[Int(s)] = mask
        return mask
    }

    /// Depth-first walk of `trie` through the automaton from `s`, setting the bit of every token
    /// whose bytes keep a live path; a dead prefix skips its whole subtree.
    private func walk(_ trie: TokenTrie, from s: Int32, into mask: inout [UInt64]) {
        let dfa = self.dfa
        depthStates[0] = s
        trie.byte.withUnsafeBufferPointer { byte in
        trie.depth.withUnsafeBufferPointer { depth in
        trie.skip.withUnsafeBufferPointer { skip in
        trie.token.withUnsafeBufferPointer { token in
        depthStates.withUnsafeMutableBufferPointer { states in
        mask.withUnsafeMutableBufferPointer { bits in
            var i = 0
            let n = byte.count
            while i < n {
                let d = Int(depth[i])
                let t = dfa.next(states[d &- 1], byte[i])
                if t < 0 {
                    i = Int(skip[i])
                    continue
                }
                let id = token[i]
                if id >= 0 {
                    bits[Int(id) >> 6] |= 1 << UInt64(id & 63)
                } else if id < -1 {
                    for e in trie.sharedBytes[Int(-2 - id)] { bits[Int(e) >> 6] |= 1 << UInt64(e & 63) }
                }
                states[d] = t
                i &+= 1
            }
        }}}}}}
    }
}
