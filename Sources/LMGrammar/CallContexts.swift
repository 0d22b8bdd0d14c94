/// The call stacks a run through an automaton with calls can be in, and which states can still
/// complete under each: what `LazyDFA` needs to keep only runs that can finish the value.
///
/// A stack is a frame id. Frame 0 is the root (no call open); any other frame is one call, its
/// procedure and return state, on top of its parent frame. Frames are interned, so one stack has
/// one id. A call may be entered when its procedure is open at most `maxRecursionDepth` times
/// below it (the bound `GrammarOptions.maxRecursionDepth` names) and the procedure can complete
/// in the new frame, so runs at the depth bound take the optional parts and empty arrays that
/// close the value.
///
/// With `maxRecursionDepth` ``unbounded`` (a grammar without left recursion whose options let the
/// input bound it) no call is refused for depth, so a state completes in any frame exactly when it
/// is live (`NFALiveness.live`): no search.
///
/// Per matcher: answers are cached as they are asked. Not thread-safe.
final class CallContexts {
    struct Frame: Hashable {
        let procedure: Int32
        let returnTo: Int32
        let parent: Int32
    }

    static let root: Int32 = 0
    /// The `maxRecursionDepth` of a grammar whose recursion the input bounds.
    static let unbounded = Int.max

    let nfa: ByteNFA
    let liveness: NFALiveness
    let maxRecursionDepth: Int
    private(set) var frames: [Frame] = [Frame(procedure: -1, returnTo: -1, parent: -1)]
    private var ids: [Frame: Int32] = [:]
    /// `frame << 32 | state` to whether the state completes in that frame.
    private var liveCache: [Int64: Bool] = [:]
    /// `frame << 32 | procedure` to whether a call of the procedure may be entered from the frame.
    private var callCache: [Int64: Bool] = [:]

    init(nfa: ByteNFA, liveness: NFALiveness, maxRecursionDepth: Int) {
        self.nfa = nfa
        self.liveness = liveness
        self.maxRecursionDepth = maxRecursionDepth
    }

    /// The frame of a call of `procedure` returning to `returnTo`, on top of `parent`.
    func push(_ procedure: Int32, returnTo: Int32, on parent: Int32) -> Int32 {
        let frame = Frame(procedure: procedure, returnTo: returnTo, parent: parent)
        if let id = ids[frame] { return id }
        let id = Int32(frames.count)
        frames.append(frame)
        ids[frame] = id
        return id
    }

    /// The calls of frame `f`, innermost first, as (procedure, return state) pairs.
    func stack(_ f: Int32) -> [(procedure: Int32, returnTo: Int32)] {
        var out: [(Int32, Int32)] = []
        var g = f
        while g != Self.root {
            out.append((frames[Int(g)].procedure, frames[Int(g)].returnTo))
            g = frames[Int(g)].parent
        }
        return out
    }

    /// Whether state `s` can still complete in frame `f` (reach the end of its procedure, or
    /// `accept` at the root).
    @inline(__always)
    func isLive(_ s: Int32, in f: Int32) -> Bool {
        if liveness.callFree[Int(s)] { return true }
        if !liveness.live[Int(s)] { return false }
        if maxRecursionDepth == Self.unbounded { return true }
        return search(s, in: f)
    }

    /// Whether a call of `procedure` from frame `f` may be entered: within the recursion bound,
    /// and the procedure able to complete in the frame it would open.
    func mayCall(_ procedure: Int32, from f: Int32) -> Bool {
        if maxRecursionDepth == Self.unbounded { return liveness.live[Int(nfa.procedures[Int(procedure)].start)] }
        let key = Int64(f) << 32 | Int64(procedure)
        if let known = callCache[key] { return known }
        var open = 0
        var g = f
        while g != Self.root {
            if frames[Int(g)].procedure == procedure { open += 1 }
            g = frames[Int(g)].parent
        }
        let start = nfa.procedures[Int(procedure)].start
        let result: Bool
        if open > maxRecursionDepth {
            result = false
        } else if liveness.callFree[Int(start)] {
            result = true
        } else if !liveness.live[Int(start)] {
            result = false
        } else {
            // The return state does not matter for completing the procedure itself.
            result = search(start, in: push(procedure, returnTo: -1, on: f))
        }
        callCache[key] = result
        return result
    }

    /// Depth-first search from `s` inside its procedure for a state that completes without calls,
    /// taking the calls `f` allows. A failed search caches every state it saw as unable.
    private func search(_ s: Int32, in f: Int32) -> Bool {
        let key = Int64(f) << 32 | Int64(s)
        if let known = liveCache[key] { return known }
        var seen: Set<Int32> = [s]
        var stack: [Int32] = [s]
        func visit(_ t: Int32) {
            if liveness.live[Int(t)], seen.insert(t).inserted { stack.append(t) }
        }
        while let u = stack.popLast() {
            if liveness.callFree[Int(u)] {
                liveCache[key] = true
                return true
            }
            if let known = liveCache[Int64(f) << 32 | Int64(u)], u != s {
                if known {
                    liveCache[key] = true
                    return true
                }
                continue
            }
            for e in nfa.edges[Int(u)] { visit(e.target) }
            for t in nfa.epsilon[Int(u)] { visit(t) }
            for c in nfa.calls[Int(u)] where liveness.live[Int(c.returnTo)] && !seen.contains(c.returnTo) {
                if mayCall(c.procedure, from: f) { visit(c.returnTo) }
            }
        }
        for u in seen { liveCache[Int64(f) << 32 | Int64(u)] = false }
        return false
    }
}
