/// A nondeterministic automaton over bytes (Thompson construction): the compiled form of a
/// grammar. `LazyDFA` determinizes it on demand.
struct ByteNFA: Sendable {
    /// One transition on bytes `lo...hi`.
    struct Edge: Sendable {
        var lo: UInt8
        var hi: UInt8
        var target: Int32
    }

    var edges: [[Edge]] = []
    var epsilon: [[Int32]] = []
    /// States that are "inside a free string, at a character boundary": every token made only of
    /// ordinary string characters leads back to the same state.
    var isFreeStringHome: [Bool] = []
    var start: Int32 = 0
    var accept: Int32 = 0

    var count: Int { edges.count }

    mutating func newState() -> Int32 {
        edges.append([])
        epsilon.append([])
        isFreeStringHome.append(false)
        return Int32(edges.count - 1)
    }

    mutating func edge(_ from: Int32, _ lo: UInt8, _ hi: UInt8, _ to: Int32) {
        edges[Int(from)].append(Edge(lo: lo, hi: hi, target: to))
    }

    mutating func edge(_ from: Int32, _ byte: UInt8, _ to: Int32) { edge(from, byte, byte, to) }

    mutating func epsilon(_ from: Int32, _ to: Int32) { epsilon[Int(from)].append(to) }

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

    /// States from which `accept` can be reached: the only ones worth entering.
    func coReachable() -> [Bool] {
        var reverse = [[Int32]](repeating: [], count: count)
        for (s, list) in edges.enumerated() { for e in list { reverse[Int(e.target)].append(Int32(s)) } }
        for (s, list) in epsilon.enumerated() { for t in list { reverse[Int(t)].append(Int32(s)) } }
        var live = [Bool](repeating: false, count: count)
        var stack = [accept]
        live[Int(accept)] = true
        while let s = stack.popLast() {
            for p in reverse[Int(s)] where !live[Int(p)] {
                live[Int(p)] = true
                stack.append(p)
            }
        }
        return live
    }
}
