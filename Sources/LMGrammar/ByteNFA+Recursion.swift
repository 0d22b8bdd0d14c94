extension ByteNFA {
    /// Whether some procedure may call itself, directly or through others, before reading a byte (left
    /// recursion: `L = L x | y`). Such recursion needs a count to end (`GrammarOptions.maxRecursionDepth`);
    /// recursion that reads bytes first nests one level per byte at most, so the input bounds it.
    ///
    /// Conservative: every call counts as possibly reading nothing, so a call site also leads straight to its
    /// return state. Linear in states and edges, then a cycle search over the procedures.
    var hasZeroWidthRecursion: Bool {
        guard !procedures.isEmpty else { return false }
        // The procedures each procedure may call before its first byte.
        var callsFirst = [Set<Int32>](repeating: [], count: procedures.count)
        var seen = [Bool](repeating: false, count: count)
        for (p, procedure) in procedures.enumerated() where procedure.start >= 0 {
            var stack: [Int32] = [procedure.start]
            var visited: [Int32] = []
            seen[Int(procedure.start)] = true
            while let s = stack.popLast() {
                visited.append(s)
                func visit(_ t: Int32) {
                    guard !seen[Int(t)] else { return }
                    seen[Int(t)] = true
                    stack.append(t)
                }
                for t in epsilon[Int(s)] { visit(t) }
                for c in calls[Int(s)] {
                    callsFirst[p].insert(c.procedure)
                    visit(c.returnTo)
                }
            }
            // Procedures share no states, but the marks are cleared so that a body reached twice is read twice.
            for s in visited { seen[Int(s)] = false }
        }
        // A cycle in `callsFirst` (depth-first, colours: 0 new, 1 on the path, 2 done).
        var colour = [UInt8](repeating: 0, count: procedures.count)
        for root in procedures.indices where colour[root] == 0 {
            var path: [(procedure: Int, next: [Int32])] = [(root, Array(callsFirst[root]))]
            colour[root] = 1
            while !path.isEmpty {
                guard let callee = path[path.count - 1].next.popLast() else {
                    colour[path.removeLast().procedure] = 2
                    continue
                }
                switch colour[Int(callee)] {
                case 1: return true
                case 0:
                    colour[Int(callee)] = 1
                    path.append((Int(callee), Array(callsFirst[Int(callee)])))
                default: break
                }
            }
        }
        return false
    }
}
