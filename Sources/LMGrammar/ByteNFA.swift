/// A nondeterministic automaton over bytes (Thompson construction) with calls: the compiled form
/// of a grammar. `LazyDFA` determinizes it on demand.
///
/// A grammar definition is compiled once, as a procedure: its states run from `start` to `end`,
/// and every use of it is a call edge that enters `start` and, once `end` is reached, goes on at
/// the call's return state (a recursive transition network, Woods 1970). A run therefore carries
/// a stack of return states; without procedures it is a plain NFA.
struct ByteNFA: Sendable {
    /// One transition on bytes `lo...hi`.
    struct Edge: Sendable {
        var lo: UInt8
        var hi: UInt8
        var target: Int32
    }

    /// An epsilon move into `procedure`'s start that comes back to `returnTo` from its end.
    struct Call: Sendable {
        var procedure: Int32
        var returnTo: Int32
    }

    /// A compiled definition: the states from `start` to `end` (its own, reached only by calls).
    struct Procedure: Sendable {
        var start: Int32
        var end: Int32
    }

    var edges: [[Edge]] = []
    var epsilon: [[Int32]] = []
    /// Call edges per state (empty for most).
    var calls: [[Call]] = []
    var procedures: [Procedure] = []
    /// States that are "inside a free string, at a character boundary": every token made only of
    /// ordinary string characters leads back to the same state.
    var isFreeStringHome: [Bool] = []
    var start: Int32 = 0
    var accept: Int32 = 0

    var count: Int { edges.count }

    mutating func newState() -> Int32 {
        edges.append([])
        epsilon.append([])
        calls.append([])
        isFreeStringHome.append(false)
        return Int32(edges.count - 1)
    }

    mutating func edge(_ from: Int32, _ lo: UInt8, _ hi: UInt8, _ to: Int32) {
        edges[Int(from)].append(Edge(lo: lo, hi: hi, target: to))
    }

    mutating func edge(_ from: Int32, _ byte: UInt8, _ to: Int32) { edge(from, byte, byte, to) }

    mutating func epsilon(_ from: Int32, _ to: Int32) { epsilon[Int(from)].append(to) }

    /// A call of `procedure` from `from`, continuing at `returnTo` when it ends.
    mutating func call(_ from: Int32, _ procedure: Int32, returnTo: Int32) {
        calls[Int(from)].append(Call(procedure: procedure, returnTo: returnTo))
    }

    /// Appends the bytes of `text` from `from`; returns the state after them.
    mutating func literal(_ bytes: some Sequence<UInt8>, from: Int32) -> Int32 {
        var s = from
        for b in bytes {
            let t = newState()
            edge(s, b, t)
            s = t
        }
        return s
    }
}
