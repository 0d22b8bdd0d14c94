// Arrays: items by position (a tuple prefix, then repeated items), count bounds, and distinct
// items drawn from a list of literals.

extension GrammarCompiler {
    mutating func array(_ array: ArrayGrammar, from s: Int32) throws(GrammarError) -> Int32 {
        var hi = array.maxCount
        if array.item == nil { hi = min(hi ?? array.prefix.count, array.prefix.count) }
        let lo = max(0, array.minCount)
        if let hi, hi < lo { throw .emptyLanguage("array count \(lo)...\(hi)") }
        if array.distinct { return try distinct(array, minCount: lo, maxCount: hi, from: s) }
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "["), open)
        let close = nfa.newState()
        if lo == 0 { nfa.epsilon(open, close) }
        // One item instance per position up to the bound; an unbounded tail loops on the last.
        let instances = hi ?? max(lo, array.prefix.count + 1)
        var previousEnd: Int32? = nil
        for i in 0..<instances {
            guard let node = i < array.prefix.count ? array.prefix[i] : array.item else { break }
            let itemStart = nfa.newState()
            if let p = previousEnd { nfa.epsilon(comma(from: p), itemStart) } else { nfa.epsilon(open, itemStart) }
            let itemEnd = try value(node, from: itemStart)
            if i + 1 >= lo { nfa.epsilon(itemEnd, close) }
            if hi == nil, i == instances - 1 { nfa.epsilon(comma(from: itemEnd), itemStart) }
            previousEnd = itemEnd
            try checkSize()
        }
        let end = nfa.newState()
        nfa.edge(close, UInt8(ascii: "]"), end)
        return end
    }

    /// Distinct items: each literal at most once, in the listed order (a subsequence of the list),
    /// which makes every array of distinct values reachable up to order.
    private mutating func distinct(_ array: ArrayGrammar, minCount lo: Int, maxCount: Int?, from s: Int32) throws(GrammarError) -> Int32 {
        guard array.prefix.isEmpty, case let .literals(texts)? = array.item else {
            throw .emptyLanguage("distinct items need a list of literals")
        }
        let hi = min(maxCount ?? texts.count, texts.count)
        guard lo <= hi else { throw .emptyLanguage("\(lo) distinct items from \(texts.count) values") }
        // Without a maximum below the list's length, counts past max(lo, 1) behave alike (a comma
        // first, the minimum met), so they share a state: 600 SPDX licenses took 1.6 M states
        // counting to 600, and take 3,600 counting to 1 (Citation File Format's `license`).
        let cap = hi < texts.count ? hi : max(lo, 1)
        let open = nfa.newState()
        nfa.edge(s, UInt8(ascii: "["), open)
        // at[c]: c items written so far (at least `cap` at `cap`), before considering the next literal.
        var at = [Int32?](repeating: nil, count: cap + 1)
        at[0] = open
        for text in texts {
            // Fresh states per step: a state of the previous step must not gain this literal twice.
            var after = [Int32?](repeating: nil, count: cap + 1)
            func join(_ c: Int, _ from: Int32) {
                if after[c] == nil { after[c] = nfa.newState() }
                if let t = after[c] { nfa.epsilon(from, t) }
            }
            for c in 0...cap {
                guard let state = at[c] else { continue }
                join(c, state)
                if c < hi { join(min(c + 1, cap), nfa.literal(text.utf8, from: c > 0 ? comma(from: state) : state)) }
            }
            at = after
            try checkSize()
        }
        let close = nfa.newState()
        for c in lo...cap { if let state = at[c] { nfa.epsilon(state, close) } }
        let end = nfa.newState()
        nfa.edge(close, UInt8(ascii: "]"), end)
        return end
    }
}
