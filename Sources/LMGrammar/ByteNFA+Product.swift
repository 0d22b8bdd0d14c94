// Intersections of automata (the product construction of Rabin and Scott, 1959): how two
// constraints on the same bytes are enforced at once, e.g. a pattern and a length, or a key
// pattern and "not one of the declared names".

extension ByteNFA {
    /// An automaton accepting exactly the byte strings both `self` and `other` accept.
    ///
    /// States are pairs of states that have byte edges (or accept), so epsilon moves never pair
    /// up; only pairs reachable from the start are built.
    /// - Precondition: neither automaton has procedures (string content never does).
    /// - Throws: `GrammarError.tooLarge` beyond `maxStates` states.
    func intersection(_ other: ByteNFA, maxStates: Int) throws(GrammarError) -> ByteNFA {
        precondition(procedures.isEmpty && other.procedures.isEmpty, "intersection of automata with calls")
        let left = KernelClosure(self), right = KernelClosure(other)
        var out = ByteNFA()
        let start = out.newState()
        let accept = out.newState()
        var ids: [Int64: Int32] = [:]
        var queue: [(Int32, Int32, Int32)] = []
        func id(_ a: Int32, _ b: Int32, _ out: inout ByteNFA) -> Int32 {
            let key = Int64(a) << 32 | Int64(b)
            if let existing = ids[key] { return existing }
            let s = out.newState()
            ids[key] = s
            queue.append((a, b, s))
            return s
        }
        for a in left.closure(start: self.start) { for b in right.closure(start: other.start) { out.epsilon(start, id(a, b, &out)) } }
        var next = 0
        while next < queue.count {
            let (a, b, s) = queue[next]
            next += 1
            if out.count > maxStates { throw .tooLarge(states: maxStates) }
            if a == self.accept && b == other.accept { out.epsilon(s, accept) }
            for ea in edges[Int(a)] {
                for eb in other.edges[Int(b)] {
                    let lo = max(ea.lo, eb.lo), hi = min(ea.hi, eb.hi)
                    guard lo <= hi else { continue }
                    for ta in left.closure(of: ea.target) {
                        for tb in right.closure(of: eb.target) { out.edge(s, lo, hi, id(ta, tb, &out)) }
                    }
                }
            }
        }
        out.start = start
        out.accept = accept
        return out
    }

    /// Copies `fragment` into this automaton, entered from `s` by an epsilon move; returns the
    /// copy of its accept state.
    /// - Precondition: `fragment` has no procedures.
    mutating func embed(_ fragment: ByteNFA, from s: Int32) -> Int32 {
        precondition(fragment.procedures.isEmpty, "embedding an automaton with calls")
        let offset = Int32(count)
        for i in 0..<fragment.count {
            let t = newState()
            isFreeStringHome[Int(t)] = fragment.isFreeStringHome[i]
        }
        for i in 0..<fragment.count {
            edges[Int(offset) + i] = fragment.edges[i].map { Edge(lo: $0.lo, hi: $0.hi, target: $0.target + offset) }
            epsilon[Int(offset) + i] = fragment.epsilon[i].map { $0 + offset }
        }
        epsilon(s, fragment.start + offset)
        return fragment.accept + offset
    }
}

/// The states with byte edges (or the accept state) reachable by epsilon moves, per state.
final class KernelClosure {
    let nfa: ByteNFA
    private var cache: [Int32: [Int32]] = [:]

    init(_ nfa: ByteNFA) { self.nfa = nfa }

    func closure(start s: Int32) -> [Int32] { closure(of: s) }

    func closure(of s: Int32) -> [Int32] {
        if let known = cache[s] { return known }
        var seen: Set<Int32> = [s]
        var stack = [s]
        var out: [Int32] = []
        while let u = stack.popLast() {
            if !nfa.edges[Int(u)].isEmpty || u == nfa.accept { out.append(u) }
            for v in nfa.epsilon[Int(u)] where seen.insert(v).inserted { stack.append(v) }
        }
        out.sort()
        cache[s] = out
        return out
    }
}
