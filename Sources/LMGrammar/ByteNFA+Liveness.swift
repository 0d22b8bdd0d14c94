// Which states can still complete: the pruning that makes every allowed token finishable.

/// Which states of an automaton with calls can still complete, computed once per compiled grammar
/// (linear in states and edges).
///
/// A root state completes at `accept`, a procedure's state at the procedure's `end` (its caller
/// then goes on). `callFree`: completes by bytes and epsilon moves alone, so whatever calls
/// enclose it. `live`: completes when a call may enter any procedure that can complete, however
/// deep (recursion unbounded). A state that is not live never completes; one that is live but not
/// call-free completes or not depending on the calls around it, which `CallContexts` decides.
struct NFALiveness: Sendable {
    let callFree: [Bool]
    let live: [Bool]

    init(_ nfa: ByteNFA) {
        let n = nfa.count
        // Predecessors by bytes and epsilon moves, in compressed rows: `preds[offsets[t]..<offsets[t + 1]]`.
        var offsets = [Int32](repeating: 0, count: n + 1)
        for list in nfa.edges { for e in list { offsets[Int(e.target) + 1] += 1 } }
        for list in nfa.epsilon { for t in list { offsets[Int(t) + 1] += 1 } }
        for i in 0..<n { offsets[i + 1] += offsets[i] }
        var fill = offsets
        var preds = [Int32](repeating: 0, count: Int(offsets[n]))
        for (s, list) in nfa.edges.enumerated() {
            for e in list {
                preds[Int(fill[Int(e.target)])] = Int32(s)
                fill[Int(e.target)] += 1
            }
        }
        for (s, list) in nfa.epsilon.enumerated() {
            for t in list {
                preds[Int(fill[Int(t)])] = Int32(s)
                fill[Int(t)] += 1
            }
        }
        let ends = [nfa.accept] + nfa.procedures.map(\.end)

        // Bytes and epsilon moves only.
        var callFree = [Bool](repeating: false, count: n)
        var stack: [Int32] = []
        for e in ends where e >= 0 && !callFree[Int(e)] {
            callFree[Int(e)] = true
            stack.append(e)
        }
        while let s = stack.popLast() {
            for i in Int(offsets[Int(s)])..<Int(offsets[Int(s) + 1]) where !callFree[Int(preds[i])] {
                callFree[Int(preds[i])] = true
                stack.append(preds[i])
            }
        }

        // With calls: a call (P, r) from s passes once P can complete (its start is live) and r is
        // live; whichever is learnt second marks s.
        var sites = [[(from: Int32, returnTo: Int32)]](repeating: [], count: nfa.procedures.count)
        var returning: [Int32: [(from: Int32, procedure: Int32)]] = [:]
        for (s, list) in nfa.calls.enumerated() {
            for c in list {
                sites[Int(c.procedure)].append((Int32(s), c.returnTo))
                returning[c.returnTo, default: []].append((Int32(s), c.procedure))
            }
        }
        var startOf: [Int32: [Int32]] = [:]
        for (p, procedure) in nfa.procedures.enumerated() { startOf[procedure.start, default: []].append(Int32(p)) }
        var productive = [Bool](repeating: false, count: nfa.procedures.count)
        var live = [Bool](repeating: false, count: n)
        func mark(_ s: Int32) {
            if !live[Int(s)] {
                live[Int(s)] = true
                stack.append(s)
            }
        }
        for e in ends where e >= 0 { mark(e) }
        while let s = stack.popLast() {
            for i in Int(offsets[Int(s)])..<Int(offsets[Int(s) + 1]) { mark(preds[i]) }
            for p in startOf[s] ?? [] where !productive[Int(p)] {
                productive[Int(p)] = true
                for site in sites[Int(p)] where live[Int(site.returnTo)] { mark(site.from) }
            }
            for caller in returning[s] ?? [] where productive[Int(caller.procedure)] { mark(caller.from) }
        }
        self.callFree = callFree
        self.live = live
    }
}
