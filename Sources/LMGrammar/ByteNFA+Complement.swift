// Complements of string-content automata: how "must not match this pattern" is enforced (a
// `oneOf` branch minus an overlapping one, `not: {"pattern": ...}`).

extension ByteNFA {
    /// An automaton accepting exactly the byte strings this one rejects: the subset construction
    /// (Rabin and Scott, 1959), completed with a sink for bytes no run takes, its accepting states
    /// swapped. The result also accepts byte strings that are not canonical JSON string content;
    /// it is meant to be intersected with an automaton that is.
    /// - Precondition: no procedures (string content never has them).
    /// - Throws: `GrammarError.tooLarge` when the deterministic automaton passes `maxStates` states.
    func complement(maxStates: Int) throws(GrammarError) -> ByteNFA {
        precondition(procedures.isEmpty, "complement of an automaton with calls")
        let kernels = KernelClosure(self)
        var out = ByteNFA()
        let accept = out.newState()
        var ids: [[Int32]: Int32] = [:]
        var queue: [([Int32], Int32)] = []
        func id(_ set: [Int32], _ out: inout ByteNFA) throws(GrammarError) -> Int32 {
            if let known = ids[set] { return known }
            if out.count >= maxStates { throw .tooLarge(states: maxStates) }
            let s = out.newState()
            ids[set] = s
            queue.append((set, s))
            return s
        }
        func closure(_ seeds: some Sequence<Int32>) -> [Int32] {
            var set = Set<Int32>()
            for seed in seeds { set.formUnion(kernels.closure(of: seed)) }
            return set.sorted()
        }
        out.start = try id(closure([start]), &out)
        var next = 0
        while next < queue.count {
            let (set, s) = queue[next]
            next += 1
            if !set.contains(self.accept) { out.epsilon(s, accept) }
            // Bytes split into intervals on which every edge of the set is wholly in or out.
            var cuts: Set<Int> = [0, 256]
            for q in set { for e in edges[Int(q)] { cuts.insert(Int(e.lo)); cuts.insert(Int(e.hi) + 1) } }
            let bounds = cuts.sorted()
            for (lo, end) in zip(bounds, bounds.dropFirst()) {
                var targets: [Int32] = []
                for q in set { for e in edges[Int(q)] where Int(e.lo) <= lo && lo <= Int(e.hi) { targets.append(e.target) } }
                // No run takes these bytes: the empty set, the sink that accepts whatever follows.
                let t = try id(closure(targets), &out)
                out.edge(s, UInt8(lo), UInt8(end - 1), t)
            }
        }
        out.accept = accept
        return out
    }
}
