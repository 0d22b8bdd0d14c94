/// A regular expression over Unicode scalars, as parsed from a pattern's source.
indirect enum RegexNode: Equatable {
    case set(ScalarSet)
    case concat([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?)
}

/// A set of Unicode scalar values as sorted, disjoint, non-adjacent closed ranges.
struct ScalarSet: Equatable {
    var ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>]) {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for r in sorted {
            if let last = merged.last, r.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        self.ranges = merged
    }

    static func scalar(_ v: UInt32) -> ScalarSet { ScalarSet([v...v]) }

    /// Every scalar not in this set (surrogates are never scalars).
    var inverted: ScalarSet {
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            next = r.upperBound + 1
        }
        if next <= 0x10FFFF { out.append(next...0x10FFFF) }
        return ScalarSet(out).subtracting(0xD800...0xDFFF)
    }

    func subtracting(_ cut: ClosedRange<UInt32>) -> ScalarSet {
        var out: [ClosedRange<UInt32>] = []
        for r in ranges {
            if r.upperBound < cut.lowerBound || r.lowerBound > cut.upperBound { out.append(r); continue }
            if r.lowerBound < cut.lowerBound { out.append(r.lowerBound...(cut.lowerBound - 1)) }
            if r.upperBound > cut.upperBound { out.append((cut.upperBound + 1)...r.upperBound) }
        }
        return ScalarSet(out)
    }

    static let digit = ScalarSet([0x30...0x39])
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let space = ScalarSet([0x09...0x0D, 0x20...0x20])
    /// `.`: any scalar but a newline.
    static let dot = ScalarSet([0x0A...0x0A]).inverted
}

/// Parses the regex subset the matcher can enforce: literals and escapes, `.`, classes
/// `[...]` with ranges and negation, `\d \w \s` (ASCII meaning) and their negations, groups
/// (capturing, `(?:`, named), `|`, and the quantifiers `? * + {n} {n,} {n,m}` (lazy forms
/// accepted, as they match the same strings), `\Q...\E` quoting, and ASCII case-insensitivity
/// with `(?i:...)` or a leading `(?i)`. `^` and `$` are accepted only at the ends of top-level
/// alternatives.
struct RegexParser {
    let source: String
    let scalars: [Unicode.Scalar]
    var i = 0
    /// Inside `(?i:...)` (or after a leading `(?i)`): letters match either ASCII case.
    var ignoresCase = false

    init(_ source: String) {
        self.source = source
        self.scalars = Array(source.unicodeScalars)
    }

    func unsupported(_ reason: String) -> GrammarError { .unsupportedPattern(pattern: source, reason: reason) }

    static func parse(_ source: String) throws(GrammarError) -> RegexNode {
        let branches = try parseBranches(source)
        return branches.count == 1 ? branches[0].node : .alternation(branches.map(\.node))
    }

    /// One top-level alternative of a pattern and whether `^` / `$` anchor it.
    struct Branch {
        var node: RegexNode
        var anchoredStart: Bool
        var anchoredEnd: Bool
    }

    /// The top-level alternatives of `source`; `^` may open and `$` close each of them (JSON
    /// Schema's `pattern` matches anywhere in the string unless anchored so).
    static func parseBranches(_ source: String) throws(GrammarError) -> [Branch] {
        var p = RegexParser(source)
        var branches: [Branch] = []
        repeat {
            if !branches.isEmpty { p.i += 1 }  // the `|`
            var start = false
            if p.peek == "^" { p.i += 1; start = true }
            let (node, end) = try p.sequence(depth: 0)
            branches.append(Branch(node: node, anchoredStart: start, anchoredEnd: end))
        } while p.peek == "|"
        guard p.i == p.scalars.count else { throw p.unsupported("unexpected \"\(p.scalars[p.i])\" at offset \(p.i)") }
        return branches
    }

    var peek: Unicode.Scalar? { i < scalars.count ? scalars[i] : nil }

    mutating func alternation(depth: Int) throws(GrammarError) -> RegexNode {
        guard depth < 100 else { throw unsupported("groups nested too deeply") }
        var branches = [try sequence(depth: depth).node]
        while peek == "|" {
            i += 1
            branches.append(try sequence(depth: depth).node)
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// A concatenation up to `|`, `)` or the end; `anchoredEnd` when a top-level `$` closed it.
    mutating func sequence(depth: Int) throws(GrammarError) -> (node: RegexNode, anchoredEnd: Bool) {
        var items: [RegexNode] = []
        var anchoredEnd = false
        while let c = peek, c != "|", c != ")" {
            if c == "$" {
                // `$` only at the end of a top-level alternative.
                guard i + 1 == scalars.count || scalars[i + 1] == "|" else { throw unsupported("anchor $ inside the pattern") }
                // At the very end inside a group, the group was never closed (`^(ab$`).
                guard depth == 0 else { throw unsupported(i + 1 == scalars.count ? "unbalanced parenthesis" : "anchor $ inside a group") }
                i += 1
                anchoredEnd = true
                continue
            }
            if c == "^" { throw unsupported("anchor ^ inside the pattern") }
            let atom = try self.atom(depth: depth)
            items.append(try quantified(atom))
        }
        return (items.count == 1 ? items[0] : .concat(items), anchoredEnd)
    }

    mutating func quantified(_ atom: RegexNode) throws(GrammarError) -> RegexNode {
        var node = atom
        while let c = peek {
            var range: (Int, Int?)
            switch c {
            case "?": range = (0, 1); i += 1
            case "*": range = (0, nil); i += 1
            case "+": range = (1, nil); i += 1
            case "{":
                guard let r = try braces() else { return node }
                range = r
            default: return node
            }
            if peek == "?" { i += 1 } else if peek == "+" { throw unsupported("possessive quantifier") }
            if let hi = range.1, hi < range.0 { throw unsupported("quantifier {\(range.0),\(hi)} with max below min") }
            if range.0 > 1000 || (range.1 ?? 0) > 1000 { throw unsupported("repetition count above 1000") }
            node = .repetition(node, min: range.0, max: range.1)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}`, `{,m}`; nil (and no input consumed) when `{` is a literal.
    mutating func braces() throws(GrammarError) -> (Int, Int?)? {
        var j = i + 1
        func number(_ j: inout Int) -> Int? {
            var n: Int? = nil
            while j < scalars.count, let d = scalars[j].properties.numericType == .decimal ? Int(String(scalars[j])) : nil {
                // Every digit is read (a count too large to hold is still a count, refused by the caller), capped.
                n = min((n ?? 0) * 10 + d, 100_001)
                j += 1
            }
            return n
        }
        let lo = number(&j)
        var hi = lo
        if j < scalars.count, scalars[j] == "," {
            j += 1
            hi = number(&j)
        } else if lo == nil { return nil }
        guard j < scalars.count, scalars[j] == "}" else { return nil }
        i = j + 1
        return (lo ?? 0, hi)
    }

    mutating func atom(depth: Int) throws(GrammarError) -> RegexNode {
        guard let c = peek else { throw unsupported("pattern ends early") }
        i += 1
        switch c {
        case "(":
            if peek == "?" {
                i += 1
                if peek == ":" { i += 1 }
                else if peek == "<" || peek == "P" || peek == "'" {
                    if peek == "P" { i += 1 }
                    guard let open = peek, open == "<" || open == "'" else { throw unsupported("unknown group syntax") }
                    if open == "<", i + 1 < scalars.count, scalars[i + 1] == "=" || scalars[i + 1] == "!" {
                        throw unsupported("lookbehind")
                    }
                    let close: Unicode.Scalar = open == "<" ? ">" : "'"
                    while let n = peek, n != close { i += 1 }
                    guard peek == close else { throw unsupported("unterminated group name") }
                    i += 1
                } else if peek == "=" || peek == "!" {
                    throw unsupported("lookahead")
                } else if peek == "i", i + 1 < scalars.count, scalars[i + 1] == ":" || scalars[i + 1] == ")" {
                    let scoped = scalars[i + 1] == ":"
                    i += 2
                    if !scoped {
                        // `(?i)` applies to the rest of the pattern (only at its start, as RegexBuilder writes it).
                        guard depth == 0, i == 4 || (i == 5 && scalars[0] == "^") else { throw unsupported("(?i) after the start") }
                        ignoresCase = true
                        return .concat([])
                    }
                    let saved = ignoresCase
                    ignoresCase = true
                    defer { ignoresCase = saved }
                    let inner = try alternation(depth: depth + 1)
                    guard peek == ")" else { throw unsupported("unbalanced parenthesis") }
                    i += 1
                    return inner
                } else {
                    throw unsupported("group options (?...)")
                }
            }
            let inner = try alternation(depth: depth + 1)
            guard peek == ")" else { throw unsupported("unbalanced parenthesis") }
            i += 1
            return inner
        case ".": return .set(.dot)
        case "[": return .set(cased(try characterClass()))
        case "\\":
            if peek == "Q" { return quoted() }
            return .set(cased(try escape(inClass: false)))
        case "*", "+", "?": throw unsupported("quantifier with nothing to repeat")
        default: return .set(cased(.scalar(c.value)))
        }
    }

    /// `\Q...\E`: everything up to `\E` (or the end) is literal (RegexBuilder writes strings so).
    mutating func quoted() -> RegexNode {
        i += 1
        var items: [RegexNode] = []
        while let c = peek {
            if c == "\\", i + 1 < scalars.count, scalars[i + 1] == "E" {
                i += 2
                break
            }
            items.append(.set(cased(.scalar(c.value))))
            i += 1
        }
        return items.count == 1 ? items[0] : .concat(items)
    }

    /// With `ignoresCase`, the set plus the other ASCII case of its letters.
    func cased(_ set: ScalarSet) -> ScalarSet {
        guard ignoresCase else { return set }
        var ranges = set.ranges
        for r in set.ranges {
            let upper = r.clamped(to: 0x41...0x5A), lower = r.clamped(to: 0x61...0x7A)
            if !upper.isEmpty, r.overlaps(0x41...0x5A) { ranges.append((upper.lowerBound + 32)...(upper.upperBound + 32)) }
            if !lower.isEmpty, r.overlaps(0x61...0x7A) { ranges.append((lower.lowerBound - 32)...(lower.upperBound - 32)) }
        }
        return ScalarSet(ranges)
    }

    mutating func characterClass() throws(GrammarError) -> ScalarSet {
        var negated = false
        if peek == "^" { negated = true; i += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard let c = peek else { throw unsupported("unterminated character class") }
            if c == "]", !first { i += 1; break }
            first = false
            if c == "[" { throw unsupported("nested class or POSIX class") }
            if c == "&" || c == "-", i + 1 < scalars.count, scalars[i + 1] == c, c == "&" || ranges.count > 0 {
                throw unsupported("class set operation")
            }
            i += 1
            var low: ScalarSet
            if c == "\\" { low = try escape(inClass: true) } else { low = .scalar(c.value) }
            // A range a-b, when `-` is followed by something other than `]`.
            if peek == "-", i + 1 < scalars.count, scalars[i + 1] != "]", low.ranges.count == 1, low.ranges[0].count == 1 {
                i += 1
                let hc = scalars[i]
                i += 1
                let high = hc == "\\" ? try escape(inClass: true) : .scalar(hc.value)
                guard high.ranges.count == 1, high.ranges[0].count == 1, high.ranges[0].lowerBound >= low.ranges[0].lowerBound
                else { throw unsupported("invalid class range") }
                low = ScalarSet([low.ranges[0].lowerBound...high.ranges[0].lowerBound])
            }
            ranges += low.ranges
        }
        let set = ScalarSet(ranges).subtracting(0xD800...0xDFFF)
        return negated ? set.inverted : set
    }

    /// The escape after a backslash.
    mutating func escape(inClass: Bool) throws(GrammarError) -> ScalarSet {
        guard let c = peek else { throw unsupported("pattern ends after a backslash") }
        i += 1
        switch c {
        case "d": return .digit
        case "D": return ScalarSet.digit.inverted
        case "w": return .word
        case "W": return ScalarSet.word.inverted
        case "s": return .space
        case "S": return ScalarSet.space.inverted
        case "n": return .scalar(0x0A)
        case "t": return .scalar(0x09)
        case "r": return .scalar(0x0D)
        case "f": return .scalar(0x0C)
        case "v": return .scalar(0x0B)
        case "e": return .scalar(0x1B)
        case "a": return .scalar(0x07)
        case "0": return .scalar(0)
        case "u", "x":
            let value: UInt32?
            if peek == "{" {
                i += 1
                var digits = ""
                while let d = peek, d != "}" { digits.unicodeScalars.append(d); i += 1 }
                guard peek == "}" else { throw unsupported("unterminated \\\(c){...}") }
                i += 1
                value = UInt32(digits, radix: 16)
            } else {
                let n = c == "u" ? 4 : 2
                guard i + n <= scalars.count else { throw unsupported("short \\\(c) escape") }
                value = UInt32(String(String.UnicodeScalarView(scalars[i..<(i + n)])), radix: 16)
                i += n
            }
            guard let v = value, Unicode.Scalar(v) != nil else { throw unsupported("invalid \\\(c) escape") }
            return .scalar(v)
        case "b" where inClass: return .scalar(0x08)
        case "b", "B", "A", "z", "Z", "G": throw unsupported("anchor \\\(c)")
        case "1"..."9", "k": throw unsupported("backreference")
        case "p", "P", "N", "X", "R", "h", "H", "V", "K", "Q", "E", "g", "o", "c":
            throw unsupported("escape \\\(c)")
        default:
            // Escaped punctuation stands for itself; escaped letters are reserved.
            if c.properties.isAlphabetic { throw unsupported("escape \\\(c)") }
            return .scalar(c.value)
        }
    }
}
