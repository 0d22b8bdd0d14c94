// Numbers past the plain spelling's 15 integer digits, in scientific notation: `m[.fff]e[+]N`,
// one non-zero digit and at most 15 fraction digits before the exponent. Bounds such as
// `minimum: 1e20` or `1e300...1e301` are enforced exactly this way instead of being clamped to
// 15 digits (which produced values outside them).

extension GrammarCompiler {
    /// Numbers in `lo...hi` (1 <= lo <= hi, both finite) spelt `m e N`. A spelling is compared
    /// digit by digit with each bound's shortest round-trip spelling, and reading a decimal into a
    /// Double rounds monotonically, so every spelling reads back as a Double inside the bounds
    /// (and never as infinity).
    mutating func scientificRange(_ lo: Double, _ hi: Double, from s: Int32, to end: Int32) {
        let a = Scientific(lo), b = Scientific(hi)
        if a.exponent == b.exponent {
            exponent(a.exponent...a.exponent, from: mantissa(a.mantissa, b.mantissa, from: s), to: end)
            return
        }
        exponent(a.exponent...a.exponent, from: mantissa(a.mantissa, Scientific.largestMantissa, from: s), to: end)
        if b.exponent > a.exponent + 1 {
            exponent((a.exponent + 1)...(b.exponent - 1), from: mantissa(Scientific.smallestMantissa, Scientific.largestMantissa, from: s), to: end)
        }
        exponent(b.exponent...b.exponent, from: mantissa(Scientific.smallestMantissa, b.mantissa, from: s), to: end)
    }

    /// A mantissa in `lo...hi` (integer parts 1...9); returns the state after it.
    private mutating func mantissa(_ lo: Decimal10, _ hi: Decimal10, from s: Int32) -> Int32 {
        let t = nfa.newState()
        magnitudeRange(lo, hi, from: s, to: t)
        return t
    }

    /// `e` or `E`, an optional `+`, and an exponent in `range` (non-negative) without leading zeros.
    private mutating func exponent(_ range: ClosedRange<Int>, from s: Int32, to end: Int32) {
        let e = nfa.newState()
        nfa.edge(s, UInt8(ascii: "e"), e)
        nfa.edge(s, UInt8(ascii: "E"), e)
        let sign = nfa.newState()
        nfa.epsilon(e, sign)
        nfa.edge(e, UInt8(ascii: "+"), sign)
        unsignedRange(UInt64(range.lowerBound), UInt64(range.upperBound), from: sign, to: end)
    }
}

/// A positive Double as `mantissa × 10^exponent` with 1 <= mantissa < 10, read from Swift's
/// shortest round-trip spelling (so 1e20 is 1 and 20, 2.5e17 is 2.5 and 17).
struct Scientific {
    var mantissa: Decimal10
    var exponent: Int

    static let smallestMantissa = Decimal10(integer: 1, fraction: [])
    static let largestMantissa = Decimal10(integer: 9, fraction: [UInt8](repeating: 9, count: GrammarCompiler.maxFractionDigits))

    init(_ value: Double) {
        var text = Substring("\(value.magnitude)")
        var written = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            written = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integerDigits = parts[0].utf8.map { $0 - UInt8(ascii: "0") }
        let all = integerDigits + (parts.count > 1 ? parts[1].utf8.map { $0 - UInt8(ascii: "0") } : [])
        let leadingZeros = all.prefix { $0 == 0 }.count
        var significant = Array(all.dropFirst(leadingZeros))
        while significant.last == 0 { significant.removeLast() }
        exponent = integerDigits.count - leadingZeros - 1 + written
        mantissa = Decimal10(integer: UInt64(significant.first ?? 0), fraction: Array(significant.dropFirst()))
    }
}
