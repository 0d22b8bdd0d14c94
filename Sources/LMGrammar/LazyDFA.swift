/// The grammar's automaton determinized on demand (subset construction, one byte at a time),
/// with each state's transitions and token mask cached once computed.
///
/// A DFA state is the set of runs it stands for, each an NFA state and the call stack it is in
/// (`CallContexts`), keeping only runs at states with byte edges or at the accept state, and only
/// runs that can still complete: every non-dead DFA state can still complete the value. Runs are
/// packed as `frame << 32 | state` and kept sorted.
final class LazyDFA {
    static let unknown: Int32 = -2
    static let dead: Int32 = -1

    let nfa: ByteNFA
    let contexts: CallContexts

    private(set) var sets: [[Int64]] = []
    private var index: [[Int64]: Int32] = [:]
    private(set) var accepting: [Bool] = []
    /// Whether every token made only of ordinary string characters leads from the state back to itself: its runs
    /// include a free-string home, and no other run moves on such a character (a search pattern's own states,
    /// after its unanchored start, do: there the characters make progress and the state is not free).
    private(set) var inFreeString: [Bool] = []
    /// NFA states with an edge on an ordinary string character (what a free-string home loops on).
    private let movesOnPlainCharacter: [Bool]
    /// Transitions, `[stateCount, 256]`, grown by doubling.
    private(set) var table: UnsafeMutablePointer<Int32>
    private var capacity: Int
    var masks: [[UInt64]?] = []
    /// Single-byte tokens that close the value from each state: `unknown` until computed, `dead`
    /// when no such completion exists (see `GrammarMatcher+Budget`).
    var completionLengths: [Int32] = []

    /// Runs already met in the current closure: the root frame's by a generation mark per
    /// state (grammars without calls have no other), the others in a set.
    private var mark: [UInt32]
    private var generation: UInt32 = 0
    private var seenInCalls: Set<Int64> = []
    private var stack: [Int64] = []

    private(set) var start: Int32 = LazyDFA.dead
    /// States at most; a state past it is not made (its transition reads as dead) and
    /// `overflowed` is set for good.
    let stateLimit: Int
    private(set) var overflowed = false

    init(nfa: ByteNFA, liveness: NFALiveness, maxRecursionDepth: Int, stateLimit: Int = .max) {
        self.nfa = nfa
        self.stateLimit = stateLimit
        contexts = CallContexts(nfa: nfa, liveness: liveness, maxRecursionDepth: maxRecursionDepth)
        capacity = 1024  // 1 MiB of rows; pages are touched only as states appear
        table = .allocate(capacity: capacity * 256)
        mark = [UInt32](repeating: 0, count: nfa.count)
        // Ordinary characters: bytes 0x20-0xFF but `"` and `\` (UTF-8 multibyte characters included).
        movesOnPlainCharacter = nfa.edges.map { edges in
            edges.contains { e in e.hi >= 0x20 && !(e.lo == e.hi && (e.lo == 0x22 || e.lo == 0x5C)) }
        }
        let first = closure(of: [Int64(nfa.start)])
        start = first.isEmpty ? Self.dead : (intern(first) ?? Self.dead)
    }

    @inline(__always) static func state(_ run: Int64) -> Int32 { Int32(truncatingIfNeeded: run) }
    @inline(__always) static func frame(_ run: Int64) -> Int32 { Int32(truncatingIfNeeded: run >> 32) }
    @inline(__always) static func run(_ state: Int32, _ frame: Int32) -> Int64 { Int64(frame) << 32 | Int64(state) }

    deinit { table.deallocate() }

    var stateCount: Int { sets.count }

    /// The state after byte `b` from state `s` (`dead` when no live path takes it).
    @inline(__always)
    func next(_ s: Int32, _ b: UInt8) -> Int32 {
        let v = table[Int(s) &* 256 &+ Int(b)]
        return v != Self.unknown ? v : compute(s, b)
    }

    /// Fills the whole row of `s` on its first use: the edges of its NFA states split the bytes
    /// into intervals that behave alike, and each interval is determinized once.
    private func compute(_ s: Int32, _ b: UInt8) -> Int32 {
        let set = sets[Int(s)]
        var cuts: [Int] = [0, 256]
        for r in set { for e in nfa.edges[Int(Self.state(r))] { cuts.append(Int(e.lo)); cuts.append(Int(e.hi) + 1) } }
        cuts.sort()
        var targets: [Int64] = []
        var lo = 0
        for cut in cuts where cut > lo {
            targets.removeAll(keepingCapacity: true)
            for r in set {
                let frame = Self.frame(r)
                for e in nfa.edges[Int(Self.state(r))] where Int(e.lo) <= lo && lo <= Int(e.hi) {
                    targets.append(Self.run(e.target, frame))
                }
            }
            let t: Int32
            if targets.isEmpty { t = Self.dead } else {
                let next = closure(of: targets)
                t = next.isEmpty ? Self.dead : (intern(next) ?? Self.dead)
            }
            // `intern` may have moved the table.
            let row = table + Int(s) * 256
            for byte in lo..<cut { row[byte] = t }
            lo = cut
        }
        return table[Int(s) * 256 + Int(b)]
    }

    /// The kernel runs reachable from `seeds` by epsilon moves, calls and returns, keeping only
    /// runs that can complete; sorted.
    private func closure(of seeds: [Int64]) -> [Int64] {
        generation &+= 1
        if generation == 0 {
            for i in mark.indices { mark[i] = 0 }
            generation = 1
        }
        seenInCalls.removeAll(keepingCapacity: true)
        var out: [Int64] = []
        stack.removeAll(keepingCapacity: true)
        for r in seeds where contexts.isLive(Self.state(r), in: Self.frame(r)) { enqueue(r) }
        while let r = stack.popLast() {
            let s = Self.state(r), f = Self.frame(r)
            if !nfa.edges[Int(s)].isEmpty || (s == nfa.accept && f == CallContexts.root) { out.append(r) }
            for t in nfa.epsilon[Int(s)] where contexts.isLive(t, in: f) { enqueue(Self.run(t, f)) }
            for c in nfa.calls[Int(s)] where contexts.isLive(c.returnTo, in: f) && contexts.mayCall(c.procedure, from: f) {
                let inner = contexts.push(c.procedure, returnTo: c.returnTo, on: f)
                enqueue(Self.run(nfa.procedures[Int(c.procedure)].start, inner))
            }
            if f != CallContexts.root {
                let frame = contexts.frames[Int(f)]
                // At its procedure's end a call returns (the return state was live when it was entered).
                if s == nfa.procedures[Int(frame.procedure)].end { enqueue(Self.run(frame.returnTo, frame.parent)) }
            }
        }
        out.sort()
        return out
    }

    @inline(__always)
    private func enqueue(_ r: Int64) {
        let s = Int(Self.state(r))
        if Self.frame(r) == CallContexts.root {
            guard mark[s] != generation else { return }
            mark[s] = generation
        } else {
            guard seenInCalls.insert(r).inserted else { return }
        }
        stack.append(r)
    }

    /// Forgets every state but `s` (and the start), keeping the table's memory; returns the new
    /// id of `s`. Ids from before are invalid afterwards.
    func flush(keeping s: Int32) -> Int32 {
        let keep = sets[Int(s)]
        let first = sets[Int(start)]
        sets.removeAll(keepingCapacity: true)
        index.removeAll(keepingCapacity: true)
        accepting.removeAll(keepingCapacity: true)
        inFreeString.removeAll(keepingCapacity: true)
        masks.removeAll(keepingCapacity: true)
        completionLengths.removeAll(keepingCapacity: true)
        start = intern(first) ?? Self.dead
        return intern(keep) ?? Self.dead
    }

    /// The id of `set`, made if new; nil (and `overflowed`) when a new state would pass `stateLimit`.
    private func intern(_ set: [Int64]) -> Int32? {
        if let id = index[set] { return id }
        guard sets.count < stateLimit else {
            overflowed = true
            return nil
        }
        let id = Int32(sets.count)
        sets.append(set)
        index[set] = id
        accepting.append(set.contains(Self.run(nfa.accept, CallContexts.root)))
        inFreeString.append(set.contains { nfa.isFreeStringHome[Int(Self.state($0))] }
                            && !set.contains { !nfa.isFreeStringHome[Int(Self.state($0))] && movesOnPlainCharacter[Int(Self.state($0))] })
        masks.append(nil)
        completionLengths.append(Self.unknown)
        if sets.count > capacity {
            let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: capacity * 2 * 256)
            bigger.update(from: table, count: capacity * 256)
            table.deallocate()
            table = bigger
            capacity *= 2
        }
        (table + Int(id) * 256).initialize(repeating: Self.unknown, count: 256)
        return id
    }
}
