/// Adds a regular expression to the automaton as JSON string content: characters JSON must
/// escape (`"`, `\`, controls) are accepted in their canonical escaped spelling, everything else
/// as raw UTF-8.
enum RegexCompiler {
    static func compile(_ pattern: String, into nfa: inout ByteNFA, from s: Int32) throws(GrammarError) -> Int32 {
        let node = try RegexParser.parse(pattern)
        return add(node, into: &nfa, from: s)
    }

    static func add(_ node: RegexNode, into nfa: inout ByteNFA, from s: Int32) -> Int32 {
        switch node {
        case let .set(set):
            let end = nfa.newState()
            addSet(set, into: &nfa, from: s, to: end)
            return end
        case let .concat(items):
            var cur = s
            for item in items {
                // A fresh entry per item keeps one item's loops from reaching the previous one.
                let entry = nfa.newState()
                nfa.epsilon(cur, entry)
                cur = add(item, into: &nfa, from: entry)
            }
            return cur
        case let .alternation(branches):
            let end = nfa.newState()
            for b in branches {
                let entry = nfa.newState()
                nfa.epsilon(s, entry)
                nfa.epsilon(add(b, into: &nfa, from: entry), end)
            }
            return end
        case let .repetition(inner, lo, hi):
            var cur = s
            for _ in 0..<lo {
                let entry = nfa.newState()
                nfa.epsilon(cur, entry)
                cur = add(inner, into: &nfa, from: entry)
            }
            let end = nfa.newState()
            nfa.epsilon(cur, end)
            if let hi {
                for _ in lo..<hi {
                    let entry = nfa.newState()
                    nfa.epsilon(cur, entry)
                    cur = add(inner, into: &nfa, from: entry)
                    nfa.epsilon(cur, end)
                }
            } else {
                let loop = nfa.newState()
                nfa.epsilon(cur, loop)
                let bodyEnd = add(inner, into: &nfa, from: loop)
                nfa.epsilon(bodyEnd, loop)
                nfa.epsilon(bodyEnd, end)
            }
            return end
        }
    }

    /// About how many states `add` creates for `node`, counted without building anything (an upper
    /// estimate; saturates at `Int.max`): repetition counts multiply through nesting, so
    /// `(a{1000}){1000}` counts a million copies of `a`.
    static func stateEstimate(_ node: RegexNode) -> Int {
        func plus(_ a: Int, _ b: Int) -> Int { let (r, o) = a.addingReportingOverflow(b); return o ? .max : r }
        func times(_ a: Int, _ b: Int) -> Int { let (r, o) = a.multipliedReportingOverflow(by: b); return o ? .max : r }
        switch node {
        case let .set(set):
            // One end state; escaped characters spell up to 6 bytes, other UTF-8 sequences up to 3 more.
            var n = 1
            for r in set.ranges {
                let controls = r.lowerBound < 0x20 ? Int(min(r.upperBound, 0x1F) - r.lowerBound + 1) : 0
                n += 6 * (controls + (r.contains(0x22) ? 1 : 0) + (r.contains(0x5C) ? 1 : 0))
                if r.upperBound >= 0x80 { n += 3 * utf8Sequences(max(r.lowerBound, 0x80), r.upperBound).count }
            }
            return n
        case let .concat(items): return items.reduce(0) { plus($0, plus(1, stateEstimate($1))) }
        case let .alternation(branches): return branches.reduce(1) { plus($0, plus(1, stateEstimate($1))) }
        case let .repetition(inner, lo, hi): return plus(2, times(plus(hi ?? lo, 1), plus(1, stateEstimate(inner))))
        }
    }

    /// One character of `set`, from `s` to `end`.
    static func addSet(_ set: ScalarSet, into nfa: inout ByteNFA, from s: Int32, to end: Int32) {
        for range in set.ranges {
            var lo = range.lowerBound
            // Characters JSON escapes: below 0x20, `"` (0x22) and `\` (0x5C).
            for special: UInt32 in [0x22, 0x5C] + Array(0..<0x20) where range.contains(special) {
                if let scalar = Unicode.Scalar(special) {
                    nfa.epsilon(nfa.literal(JSONText.escaped(scalar), from: s), end)
                }
            }
            // The raw remainder, split around the escaped characters.
            let cuts: [ClosedRange<UInt32>] = [0...0x1F, 0x22...0x22, 0x5C...0x5C]
            var pieces = ScalarSet([range])
            for cut in cuts { pieces = pieces.subtracting(cut) }
            for piece in pieces.ranges {
                lo = piece.lowerBound
                for seq in utf8Sequences(lo, piece.upperBound) {
                    var cur = s
                    for (k, byteRange) in seq.enumerated() {
                        let next = k == seq.count - 1 ? end : nfa.newState()
                        nfa.edge(cur, byteRange.lowerBound, byteRange.upperBound, next)
                        cur = next
                    }
                }
            }
        }
    }

    /// The UTF-8 encodings of scalars `lo...hi` as sequences of byte ranges (the range
    /// splitting of RE2 / Rust's utf8-ranges): split at encoding-length boundaries and at the
    /// surrogate gap, then wherever the ranges of the lower bytes are not full.
    static func utf8Sequences(_ lo: UInt32, _ hi: UInt32) -> [[ClosedRange<UInt8>]] {
        var out: [[ClosedRange<UInt8>]] = []
        var work: [(UInt32, UInt32)] = [(lo, hi)]
        while let (a, b) = work.popLast() {
            if a > b { continue }
            if a < 0xE000, b > 0xD7FF, !(b < 0xD800 || a > 0xDFFF) {
                work.append((max(a, 0xE000), b))
                work.append((a, min(b, 0xD7FF)))
                continue
            }
            var split = false
            for limit: UInt32 in [0x7F, 0x7FF, 0xFFFF] where a <= limit && b > limit {
                work.append((limit + 1, b))
                work.append((a, limit))
                split = true
                break
            }
            if split { continue }
            if b < 0x80 {
                out.append([UInt8(a)...UInt8(b)])
                continue
            }
            let n = b < 0x800 ? 2 : b < 0x10000 ? 3 : 4
            for k in 1..<n {
                let m: UInt32 = (1 << (6 * UInt32(k))) - 1
                if a & ~m != b & ~m {
                    if a & m != 0 { work.append(((a | m) + 1, b)); work.append((a, a | m)); split = true; break }
                    if b & m != m { work.append((b & ~m, b)); work.append((a, (b & ~m) - 1)); split = true; break }
                }
            }
            if split { continue }
            let ea = encode(a), eb = encode(b)
            out.append(zip(ea, eb).map { $0...$1 })
        }
        return out
    }

    static func encode(_ v: UInt32) -> [UInt8] {
        guard let scalar = Unicode.Scalar(v) else { return [] }
        return Array(String(Character(scalar)).utf8)
    }
}
