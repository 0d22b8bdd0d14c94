/// The grammar's automaton determinized on demand (subset construction, one byte at a time),
/// with each state's transitions and token mask cached once computed.
///
/// A DFA state is the set of live NFA states it stands for, keeping only states with byte
/// edges or the accept state. Live means "can still reach accept", so every non-dead DFA state
/// can still complete the value.
final class LazyDFA {
    static let unknown: Int32 = -2
    static let dead: Int32 = -1

    let nfa: ByteNFA
    let live: [Bool]
    /// NFA states worth keeping in a set: live, and with byte edges or accepting.
    let kernel: [Bool]

    private(set) var sets: [[Int32]] = []
    private var index: [[Int32]: Int32] = [:]
    private(set) var accepting: [Bool] = []
    private(set) var inFreeString: [Bool] = []
    /// Transitions, `[stateCount, 256]`, grown by doubling.
    private(set) var table: UnsafeMutablePointer<Int32>
    private var capacity: Int
    var masks: [[UInt64]?] = []
    /// Single-byte tokens that close the value from each state: `unknown` until computed, `dead`
    /// when no such completion exists (see `GrammarMatcher+Budget`).
    var completionLengths: [Int32] = []

    private var mark: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [Int32] = []

    private(set) var start: Int32 = LazyDFA.dead

    init(nfa: ByteNFA) {
        self.nfa = nfa
        let live = nfa.coReachable()
        self.live = live
        kernel = (0..<nfa.count).map { s in live[s] && (!nfa.edges[s].isEmpty || s == Int(nfa.accept)) }
        capacity = 1024  // 1 MiB of rows; pages are touched only as states appear
        table = .allocate(capacity: capacity * 256)
        mark = [UInt32](repeating: 0, count: nfa.count)
        let first = closure(of: [nfa.start])
        start = first.isEmpty ? Self.dead : intern(first)
    }

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
        for n in set { for e in nfa.edges[Int(n)] { cuts.append(Int(e.lo)); cuts.append(Int(e.hi) + 1) } }
        cuts.sort()
        var targets: [Int32] = []
        var lo = 0
        for cut in cuts where cut > lo {
            targets.removeAll(keepingCapacity: true)
            for n in set {
                for e in nfa.edges[Int(n)] where Int(e.lo) <= lo && lo <= Int(e.hi) && live[Int(e.target)] {
                    targets.append(e.target)
                }
            }
            let t: Int32
            if targets.isEmpty { t = Self.dead } else {
                let next = closure(of: targets)
                t = next.isEmpty ? Self.dead : intern(next)
            }
            // `intern` may have moved the table.
            let row = table + Int(s) * 256
            for byte in lo..<cut { row[byte] = t }
            lo = cut
        }
        return table[Int(s) * 256 + Int(b)]
    }

    /// The kernel states reachable from `seeds` by epsilon moves, sorted.
    private func closure(of seeds: [Int32]) -> [Int32] {
        generation &+= 1
        if generation == 0 {
            for i in mark.indices { mark[i] = 0 }
            generation = 1
        }
        var out: [Int32] = []
        stack.removeAll(keepingCapacity: true)
        for s in seeds where live[Int(s)] && mark[Int(s)] != generation {
            mark[Int(s)] = generation
            stack.append(s)
        }
        while let s = stack.popLast() {
            if kernel[Int(s)] { out.append(s) }
            for t in nfa.epsilon[Int(s)] where live[Int(t)] && mark[Int(t)] != generation {
                mark[Int(t)] = generation
                stack.append(t)
            }
        }
        out.sort()
        return out
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
        start = intern(first)
        return intern(keep)
    }

    private func intern(_ set: [Int32]) -> Int32 {
        if let id = index[set] { return id }
        let id = Int32(sets.count)
        sets.append(set)
        index[set] = id
        accepting.append(set.contains(nfa.accept))
        inFreeString.append(set.contains { nfa.isFreeStringHome[Int($0)] })
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
