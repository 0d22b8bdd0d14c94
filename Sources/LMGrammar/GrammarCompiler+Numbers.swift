// Numbers as JSON writes them (RFC 8259 §6), with inclusive bounds enforced digit by digit:
// the automaton accepts exactly the decimal spellings of values inside the range, so no digit
// can be generated that leaves it (`minutes` in 5...240 can never become 2400).

extension GrammarCompiler {
    /// Largest magnitude of an unbounded integer: 15 digits stay exact in a Double.
    static let unboundedInteger = 999_999_999_999_999
    /// Largest magnitude of an integer bound read from a schema: 2^53 - 1, the last integer after
    /// which a Double (how generated values are read) skips integers.
    static let exactIntegerLimit = 9_007_199_254_740_991
    /// Longest fraction written for a number.
    static let maxFractionDigits = 15

    mutating func integer(_ g: IntegerGrammar, from s: Int32) throws(GrammarError) -> Int32 {
        guard let m = g.multipleOf, m != 1 else { return try integer(minimum: g.minimum, maximum: g.maximum, from: s) }
        guard m > 0, m <= 100_000 else { throw .emptyLanguage("multipleOf \(m) outside 1...100000") }
        var range = scratch()
        let start = range.nfa.newState()
        range.nfa.start = start
        range.nfa.accept = try range.integer(minimum: g.minimum, maximum: g.maximum, from: start)
        return nfa.embed(try range.nfa.intersection(NumberAutomata.divisible(by: m), maxStates: options.maxStates), from: s)
    }

    mutating func integer(minimum: Int?, maximum: Int?, from s: Int32) throws(GrammarError) -> Int32 {
        // A missing bound is the 15-digit default, or 2^53 - 1 when the other bound lies past it.
        let lo = max(minimum ?? (maximum ?? 0 < -Self.unboundedInteger ? -Self.exactIntegerLimit : -Self.unboundedInteger), -Int.max)
        let hi = maximum ?? (lo > Self.unboundedInteger ? Self.exactIntegerLimit : Self.unboundedInteger)
        guard lo <= hi else { throw .emptyLanguage("integer range \(lo)...\(hi)") }
        let end = nfa.newState()
        if hi >= 0 { unsignedRange(UInt64(max(lo, 0)), UInt64(hi), from: s, to: end) }
        if lo < 0 {
            let minus = nfa.newState()
            nfa.edge(s, UInt8(ascii: "-"), minus)
            // "-0" is a valid spelling of zero.
            let smallest: UInt64 = hi >= 0 ? 0 : UInt64(-hi)
            unsignedRange(smallest, UInt64(-lo), from: minus, to: end)
        }
        return end
    }

    /// Decimal spellings without leading zeros of every integer in `a...b`.
    mutating func unsignedRange(_ a: UInt64, _ b: UInt64, from s: Int32, to end: Int32) {
        let da = Self.digits(a), db = Self.digits(b)
        for length in da.count...db.count {
            let lo = length == da.count ? da : [1] + [UInt8](repeating: 0, count: length - 1)
            let hi = length == db.count ? db : [UInt8](repeating: 9, count: length)
            fixedLength(lo[...], hi[...], from: s, to: end)
        }
    }

    static func digits(_ n: UInt64) -> [UInt8] { String(n).utf8.map { $0 - UInt8(ascii: "0") } }

    /// Digit strings of one length between `lo` and `hi` (digit-wise, as numbers).
    mutating func fixedLength(_ lo: ArraySlice<UInt8>, _ hi: ArraySlice<UInt8>, from s: Int32, to end: Int32) {
        let l0 = lo[lo.startIndex], h0 = hi[hi.startIndex]
        let zero = UInt8(ascii: "0")
        if lo.count == 1 {
            nfa.edge(s, zero + l0, zero + h0, end)
            return
        }
        let loRest = lo.dropFirst(), hiRest = hi.dropFirst()
        if l0 == h0 {
            let t = nfa.newState()
            nfa.edge(s, zero + l0, t)
            fixedLength(loRest, hiRest, from: t, to: end)
            return
        }
        var midLo = l0 + 1, midHi = h0 - 1
        if loRest.allSatisfy({ $0 == 0 }) { midLo = l0 } else {
            let t = nfa.newState()
            nfa.edge(s, zero + l0, t)
            fixedLength(loRest, ArraySlice(repeating: 9, count: loRest.count), from: t, to: end)
        }
        if hiRest.allSatisfy({ $0 == 9 }) { midHi = h0 } else {
            let t = nfa.newState()
            nfa.edge(s, zero + h0, t)
            fixedLength(ArraySlice(repeating: 0, count: hiRest.count), hiRest, from: t, to: end)
        }
        if midLo <= midHi {
            var cur = nfa.newState()
            nfa.edge(s, zero + midLo, zero + midHi, cur)
            for i in 1..<lo.count {
                let next = i == lo.count - 1 ? end : nfa.newState()
                nfa.edge(cur, zero, zero + 9, next)
                cur = next
            }
        }
    }

    mutating func number(_ g: NumberGrammar, from s: Int32) throws(GrammarError) -> Int32 {
        guard g.nonInteger else { return try number(minimum: g.minimum, exclusive: g.exclusiveMinimum, maximum: g.maximum, exclusive: g.exclusiveMaximum, from: s) }
        var plain = scratch()
        let start = plain.nfa.newState()
        plain.nfa.start = start
        plain.nfa.accept = try plain.number(minimum: g.minimum, exclusive: g.exclusiveMinimum, maximum: g.maximum, exclusive: g.exclusiveMaximum, from: start)
        return nfa.embed(try plain.nfa.intersection(NumberAutomata.nonInteger, maxStates: options.maxStates), from: s)
    }

    /// Numbers between the bounds; an exclusive bound becomes the next value spelt with at most
    /// `maxFractionDigits` fraction digits, which is exact since no longer fraction is written.
    mutating func number(minimum: Double?, exclusive exclusiveMinimum: Bool = false, maximum: Double?, exclusive exclusiveMaximum: Bool = false,
                         from s: Int32) throws(GrammarError) -> Int32 {
        if minimum == nil, maximum == nil { return unboundedNumber(from: s) }
        let limit = FixedDecimal(integerPart: UInt64(Self.unboundedInteger))
        let limitValue = Double(Self.unboundedInteger)
        if let minimum, minimum.isNaN || minimum == .infinity { throw .emptyLanguage("number minimum \(minimum)") }
        if let maximum, maximum.isNaN || maximum == -.infinity { throw .emptyLanguage("number maximum \(maximum)") }
        // A range wholly past the plain digits is written with exponents.
        if let minimum, exclusiveMinimum ? minimum >= limitValue : minimum > limitValue {
            let lo = exclusiveMinimum ? minimum.nextUp : minimum
            let hi = min(maximum.map { exclusiveMaximum ? $0.nextDown : $0 } ?? .infinity, .greatestFiniteMagnitude)
            guard lo <= hi else { throw .emptyLanguage("number range \(minimum)...\(maximum.map { "\($0)" } ?? "")") }
            let end = nfa.newState()
            scientificRange(lo, hi, from: s, to: end)
            return end
        }
        if let maximum, exclusiveMaximum ? maximum <= -limitValue : maximum < -limitValue {
            let hi = exclusiveMaximum ? maximum.nextDown : maximum
            let lo = max(minimum.map { exclusiveMinimum ? $0.nextUp : $0 } ?? -.infinity, -.greatestFiniteMagnitude)
            guard lo <= hi else { throw .emptyLanguage("number range \(minimum.map { "\($0)" } ?? "")...\(maximum)") }
            let minus = nfa.newState()
            nfa.edge(s, UInt8(ascii: "-"), minus)
            let end = nfa.newState()
            scientificRange(-hi, -lo, from: minus, to: end)
            return end
        }
        var lo = minimum.map { FixedDecimal(max($0, -limitValue), roundingUp: true) } ?? limit.negated
        var hi = maximum.map { FixedDecimal(min($0, limitValue), roundingUp: false) } ?? limit
        if exclusiveMinimum, let minimum, lo.isExactly(minimum) { lo = lo.stepped(up: true) }
        if exclusiveMaximum, let maximum, hi.isExactly(maximum) { hi = hi.stepped(up: false) }
        lo = lo.clamped(to: limit)
        hi = hi.clamped(to: limit)
        guard lo <= hi else { throw .emptyLanguage("number range \(minimum.map { "\($0)" } ?? "")...\(maximum.map { "\($0)" } ?? "")") }
        let end = nfa.newState()
        if !hi.isNegative { magnitudeRange(lo.isNegative ? .zero : lo.magnitude, hi.magnitude, from: s, to: end) }
        if lo.isNegative {
            let minus = nfa.newState()
            nfa.edge(s, UInt8(ascii: "-"), minus)
            magnitudeRange(hi.isNegative ? hi.magnitude : .zero, lo.magnitude, from: minus, to: end)
        }
        return end
    }

    /// `-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?([eE][+-]?[0-9]{1,3})?`: every JSON number, with
    /// digit counts bounded so a model cannot loop on digits.
    mutating func unboundedNumber(from s: Int32) -> Int32 {
        let sign = nfa.newState()
        nfa.epsilon(s, sign)
        nfa.edge(s, UInt8(ascii: "-"), sign)
        let intEnd = nfa.newState()
        unsignedRange(0, UInt64(Self.unboundedInteger), from: sign, to: intEnd)
        let fracEnd = nfa.newState()
        nfa.epsilon(intEnd, fracEnd)
        let dot = nfa.newState()
        nfa.edge(intEnd, UInt8(ascii: "."), dot)
        digitRun(1, Self.maxFractionDigits, from: dot, to: fracEnd)
        let end = nfa.newState()
        nfa.epsilon(fracEnd, end)
        let e = nfa.newState()
        nfa.edge(fracEnd, UInt8(ascii: "e"), e)
        nfa.edge(fracEnd, UInt8(ascii: "E"), e)
        let expSign = nfa.newState()
        nfa.epsilon(e, expSign)
        nfa.edge(e, UInt8(ascii: "+"), expSign)
        nfa.edge(e, UInt8(ascii: "-"), expSign)
        digitRun(1, 3, from: expSign, to: end)
        return end
    }

    /// Between `minCount` and `maxCount` digits.
    mutating func digitRun(_ minCount: Int, _ maxCount: Int, from s: Int32, to end: Int32) {
        var cur = s
        for i in 1...maxCount {
            let t = nfa.newState()
            nfa.edge(cur, UInt8(ascii: "0"), UInt8(ascii: "9"), t)
            if i >= minCount { nfa.epsilon(t, end) }
            cur = t
        }
    }

    /// Non-negative decimals (no exponent) in `a...b`.
    mutating func magnitudeRange(_ a: Decimal10, _ b: Decimal10, from s: Int32, to end: Int32) {
        if a.integer == b.integer {
            let t = nfa.newState()
            unsignedRange(a.integer, a.integer, from: s, to: t)
            fraction(lo: a.fraction[...], hi: b.fraction[...], from: t, to: end)
            return
        }
        let t1 = nfa.newState()
        unsignedRange(a.integer, a.integer, from: s, to: t1)
        fraction(lo: a.fraction[...], hi: nil, from: t1, to: end)
        if b.integer > a.integer + 1 {
            let t2 = nfa.newState()
            unsignedRange(a.integer + 1, b.integer - 1, from: s, to: t2)
            fraction(lo: nil, hi: nil, from: t2, to: end)
        }
        let t3 = nfa.newState()
        unsignedRange(b.integer, b.integer, from: s, to: t3)
        fraction(lo: nil, hi: b.fraction[...], from: t3, to: end)
    }

    /// An optional `.digits` part whose value `0.d` lies in `0.lo...0.hi` (nil: unbounded side).
    mutating func fraction(lo: ArraySlice<UInt8>?, hi: ArraySlice<UInt8>?, from s: Int32, to end: Int32) {
        if lo.map({ $0.allSatisfy { $0 == 0 } }) ?? true { nfa.epsilon(s, end) }
        let dot = nfa.newState()
        nfa.edge(s, UInt8(ascii: "."), dot)
        fractionDigits(lo: lo, hi: hi, remaining: Self.maxFractionDigits, first: true, from: dot, to: end)
    }

    /// Fraction digits after the dot, compared digit by digit with the bounds. Each level adds
    /// at most three branches, two of which end in free digits, so the size stays linear.
    mutating func fractionDigits(lo rawLo: ArraySlice<UInt8>?, hi: ArraySlice<UInt8>?, remaining: Int, first: Bool, from s: Int32, to end: Int32) {
        let lo = (rawLo?.allSatisfy { $0 == 0 } ?? true) ? nil : rawLo
        // The digits so far reach the lower bound (and never pass the upper one): the fraction may end,
        // also after its last allowed digit.
        if !first, lo == nil { nfa.epsilon(s, end) }
        guard remaining > 0 else { return }
        let zero = UInt8(ascii: "0")
        if lo == nil, hi == nil {
            let t = nfa.newState()
            nfa.edge(s, zero, zero + 9, t)
            freeDigits(remaining - 1, from: t, to: end)
            return
        }
        let l0 = lo?.first ?? 0
        // With hi exhausted, only zeros may follow (0.5 <= "0.5" allows "50", "500").
        let h0 = hi.map { $0.first ?? 0 } ?? 9
        let hiRest: ArraySlice<UInt8>? = hi.map { $0.isEmpty ? [] : $0.dropFirst() }
        let loRest: ArraySlice<UInt8>? = lo.map { $0.dropFirst() }
        if l0 == h0 {
            let t = nfa.newState()
            nfa.edge(s, zero + l0, t)
            fractionDigits(lo: loRest, hi: hiRest, remaining: remaining - 1, first: false, from: t, to: end)
            return
        }
        if l0 + 1 < h0 {
            let t = nfa.newState()
            nfa.edge(s, zero + l0 + 1, zero + h0 - 1, t)
            freeDigits(remaining - 1, from: t, to: end)
        }
        let tl = nfa.newState()
        nfa.edge(s, zero + l0, tl)
        fractionDigits(lo: loRest, hi: nil, remaining: remaining - 1, first: false, from: tl, to: end)
        let th = nfa.newState()
        nfa.edge(s, zero + h0, th)
        fractionDigits(lo: nil, hi: hiRest, remaining: remaining - 1, first: false, from: th, to: end)
    }

    /// Up to `count` more digits after one already written.
    mutating func freeDigits(_ count: Int, from s: Int32, to end: Int32) {
        nfa.epsilon(s, end)
        if count > 0 { digitRun(1, count, from: s, to: end) }
    }
}

/// A non-negative number as integer digits and fraction digits, read from Swift's shortest
/// round-trip spelling of a Double (so 4.5 is 4 and [5], 1e-7 is 0 and [0,0,0,0,0,0,1]).
struct Decimal10: Equatable {
    var integer: UInt64
    var fraction: [UInt8]

    static let zero = Decimal10(integer: 0, fraction: [])

    init(integer: UInt64, fraction: [UInt8]) {
        self.integer = integer
        self.fraction = fraction
    }

    init(_ value: Double) {
        var text = "\(value)"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var intDigits = Array(parts[0].utf8.map { $0 - UInt8(ascii: "0") })
        var fracDigits = parts.count > 1 ? Array(parts[1].utf8.map { $0 - UInt8(ascii: "0") }) : []
        while exponent > 0 { intDigits.append(fracDigits.isEmpty ? 0 : fracDigits.removeFirst()); exponent -= 1 }
        while exponent < 0 { fracDigits.insert(intDigits.popLast() ?? 0, at: 0); exponent += 1 }
        while fracDigits.last == 0 { fracDigits.removeLast() }
        integer = intDigits.reduce(0) { $0 &* 10 &+ UInt64($1) }
        fraction = fracDigits
    }
}

/// A decimal with at most `GrammarCompiler.maxFractionDigits` fraction digits, as a sign and a
/// magnitude in units of 10^-15: the values a bounded number can spell, so bounds are compared
/// and stepped exactly.
struct FixedDecimal: Comparable {
    static let scale: UInt64 = 1_000_000_000_000_000
    var isNegative: Bool
    /// The magnitude's integer digits and its 15 fraction digits as an integer.
    var integerPart: UInt64
    var fractionPart: UInt64

    static let zero = FixedDecimal(integerPart: 0)

    init(integerPart: UInt64, fractionPart: UInt64 = 0, isNegative: Bool = false) {
        self.integerPart = integerPart
        self.fractionPart = fractionPart
        self.isNegative = isNegative && (integerPart != 0 || fractionPart != 0)
    }

    /// `value` rounded to 15 fraction digits, towards +infinity or -infinity.
    init(_ value: Double, roundingUp: Bool) {
        let d = Decimal10(abs(value))
        var fraction: UInt64 = 0
        for k in 0..<GrammarCompiler.maxFractionDigits { fraction = fraction * 10 + UInt64(k < d.fraction.count ? d.fraction[k] : 0) }
        let truncated = d.fraction.count > GrammarCompiler.maxFractionDigits
        self.init(integerPart: d.integer, fractionPart: fraction, isNegative: value < 0)
        // Truncating the magnitude moved towards zero; step away from it when that is the wrong way.
        if truncated, roundingUp != (value < 0) { self = isNegative ? self.nextDown : self.nextUp }
    }

    var negated: FixedDecimal { FixedDecimal(integerPart: integerPart, fractionPart: fractionPart, isNegative: !isNegative) }

    /// The magnitude as digits.
    var magnitude: Decimal10 {
        var digits: [UInt8] = []
        var f = fractionPart
        for _ in 0..<GrammarCompiler.maxFractionDigits { digits.insert(UInt8(f % 10), at: 0); f /= 10 }
        while digits.last == 0 { digits.removeLast() }
        return Decimal10(integer: integerPart, fraction: digits)
    }

    /// True when this is `value` exactly.
    func isExactly(_ value: Double) -> Bool {
        Decimal10(abs(value)).fraction.count <= GrammarCompiler.maxFractionDigits && magnitude == Decimal10(abs(value))
            && (isNegative == (value < 0) || (integerPart == 0 && fractionPart == 0))
    }

    /// The nearest value up (or down) that a Double still tells apart from this one: a step in the
    /// last fraction digit a Double keeps for numbers of this size (15 significant digits), so
    /// the value written is never read back as the excluded bound.
    func stepped(up: Bool) -> FixedDecimal {
        let integerDigits = integerPart == 0 ? 1 : String(integerPart).count
        let kept = max(0, GrammarCompiler.maxFractionDigits - integerDigits)
        var units: UInt64 = 1  // the step, in units of 10^-15
        for _ in 0..<(GrammarCompiler.maxFractionDigits - kept) { units *= 10 }
        let v = Int128Like(self)
        return (up ? v.plus(units) : v.minus(units)).rounded(toMultipleOf: units, up: up).decimal
    }

    /// The next value up by 10^-15.
    var nextUp: FixedDecimal { isNegative ? magnitudeDown(self) : magnitudeUp(self) }
    /// The next value down by 10^-15.
    var nextDown: FixedDecimal { isNegative || (integerPart == 0 && fractionPart == 0) ? magnitudeUp(self.withSign(true)) : magnitudeDown(self) }

    private func withSign(_ negative: Bool) -> FixedDecimal { FixedDecimal(integerPart: integerPart, fractionPart: fractionPart, isNegative: negative) }

    private func magnitudeUp(_ x: FixedDecimal) -> FixedDecimal {
        var i = x.integerPart, f = x.fractionPart + 1
        if f == Self.scale { f = 0; i += 1 }
        return FixedDecimal(integerPart: i, fractionPart: f, isNegative: x.isNegative)
    }

    private func magnitudeDown(_ x: FixedDecimal) -> FixedDecimal {
        var i = x.integerPart, f = x.fractionPart
        if f == 0 { f = Self.scale - 1; i -= 1 } else { f -= 1 }
        return FixedDecimal(integerPart: i, fractionPart: f, isNegative: x.isNegative)
    }

    func clamped(to limit: FixedDecimal) -> FixedDecimal {
        if self > limit { return limit }
        if self < limit.negated { return limit.negated }
        return self
    }

    static func < (a: FixedDecimal, b: FixedDecimal) -> Bool {
        if a.isNegative != b.isNegative { return a.isNegative }
        let less = (a.integerPart, a.fractionPart) < (b.integerPart, b.fractionPart)
        let equal = (a.integerPart, a.fractionPart) == (b.integerPart, b.fractionPart)
        return a.isNegative ? !less && !equal : less
    }
}

/// Small automata over a number's spelling, intersected with a number automaton.
enum NumberAutomata {
    /// Spellings with a `.`, no exponent, at most 9 integer digits, and among the first 6 fraction
    /// digits one that is not 0 and one that is not 9: numbers that are not integers (JSON Schema
    /// counts 1.0 as an integer) and stay so once read into a Double (1e9 is far enough from the
    /// precision limit that a fraction at least 1e-6 from an integer survives).
    static let nonInteger: ByteNFA = {
        var nfa = ByteNFA()
        let start = nfa.newState()
        let sign = nfa.newState()
        nfa.edge(start, UInt8(ascii: "-"), sign)
        nfa.epsilon(start, sign)
        let integer = (0..<9).map { _ in nfa.newState() }
        let dot = nfa.newState()
        nfa.edge(sign, UInt8(ascii: "0"), UInt8(ascii: "9"), integer[0])
        for k in 0..<9 {
            if k + 1 < 9 { nfa.edge(integer[k], UInt8(ascii: "0"), UInt8(ascii: "9"), integer[k + 1]) }
            nfa.edge(integer[k], UInt8(ascii: "."), dot)
        }
        // fraction[position][nonZero][nonNine], position 1...6 digits read.
        let done = nfa.newState()
        nfa.edge(done, UInt8(ascii: "0"), UInt8(ascii: "9"), done)
        var fraction: [[[Int32]]] = (0...6).map { _ in (0...1).map { _ in (0...1).map { _ in nfa.newState() } } }
        nfa.epsilon(dot, fraction[0][0][0])
        for position in 0..<6 {
            for z in 0...1 {
                for n in 0...1 {
                    let from = fraction[position][z][n]
                    for d in 0...9 {
                        let nz = z == 1 || d != 0 ? 1 : 0, nn = n == 1 || d != 9 ? 1 : 0
                        let to = nz == 1 && nn == 1 ? done : fraction[position + 1][nz][nn]
                        nfa.edge(from, UInt8(ascii: "0") + UInt8(d), to)
                    }
                }
            }
        }
        _ = fraction
        nfa.start = start
        nfa.accept = done
        return nfa
    }()

    /// Integer spellings (an optional `-`, digits) whose value is a multiple of `m`: the remainder
    /// so far is the state.
    static func divisible(by m: Int) -> ByteNFA {
        var nfa = ByteNFA()
        let start = nfa.newState()
        let remainders = (0..<m).map { _ in nfa.newState() }
        nfa.epsilon(start, remainders[0])
        let sign = nfa.newState()
        nfa.edge(start, UInt8(ascii: "-"), sign)
        nfa.epsilon(sign, remainders[0])
        for r in 0..<m {
            for d in 0...9 { nfa.edge(remainders[r], UInt8(ascii: "0") + UInt8(d), remainders[(r * 10 + d) % m]) }
        }
        nfa.start = start
        nfa.accept = remainders[0]
        return nfa
    }
}

/// A FixedDecimal as one signed count of 10^-15 units (below 10^30, so two 64-bit halves).
struct Int128Like {
    var negative: Bool
    /// Magnitude = high * 10^15 + low, low < 10^15.
    var high: UInt64
    var low: UInt64

    init(_ d: FixedDecimal) {
        negative = d.isNegative
        high = d.integerPart
        low = d.fractionPart
    }

    init(negative: Bool, high: UInt64, low: UInt64) {
        self.negative = negative && (high != 0 || low != 0)
        self.high = high
        self.low = low
    }

    var decimal: FixedDecimal { FixedDecimal(integerPart: high, fractionPart: low, isNegative: negative) }

    private static let scale = FixedDecimal.scale

    /// |a| + u for a magnitude.
    private static func add(_ h: UInt64, _ l: UInt64, _ u: UInt64) -> (UInt64, UInt64) {
        let sum = l + u % scale
        return (h + u / scale + sum / scale, sum % scale)
    }

    /// |a| - u for a magnitude, as (negative?, h, l).
    private static func subtract(_ h: UInt64, _ l: UInt64, _ u: UInt64) -> (Bool, UInt64, UInt64) {
        let uh = u / scale, ul = u % scale
        if (h, l) >= (uh, ul) {
            if l >= ul { return (false, h - uh, l - ul) }
            return (false, h - uh - 1, l + scale - ul)
        }
        let (_, rh, rl) = subtract(uh, ul, h * scale + l)
        return (true, rh, rl)
    }

    func plus(_ u: UInt64) -> Int128Like {
        if !negative { let (h, l) = Self.add(high, low, u); return Int128Like(negative: false, high: h, low: l) }
        let (flip, h, l) = Self.subtract(high, low, u)
        return Int128Like(negative: !flip, high: h, low: l)
    }

    func minus(_ u: UInt64) -> Int128Like {
        if negative { let (h, l) = Self.add(high, low, u); return Int128Like(negative: true, high: h, low: l) }
        let (flip, h, l) = Self.subtract(high, low, u)
        return Int128Like(negative: flip, high: h, low: l)
    }

    /// Rounded to a multiple of `u` towards +infinity (`up`) or -infinity.
    func rounded(toMultipleOf u: UInt64, up: Bool) -> Int128Like {
        // Units per whole number are a multiple of u (u divides 10^15 or is a multiple of it).
        let remainder: UInt64 = u <= Self.scale ? low % u : (high % (u / Self.scale)) * Self.scale + low
        if remainder == 0 { return self }
        // Towards zero on the magnitude, then one more step away when that was the wrong way.
        let towardsZero = minusMagnitude(remainder)
        let awayNeeded = up != negative
        return awayNeeded ? towardsZero.plusMagnitude(u) : towardsZero
    }

    private func minusMagnitude(_ u: UInt64) -> Int128Like {
        let (_, h, l) = Self.subtract(high, low, u)
        return Int128Like(negative: negative, high: h, low: l)
    }

    private func plusMagnitude(_ u: UInt64) -> Int128Like {
        let (h, l) = Self.add(high, low, u)
        return Int128Like(negative: negative, high: h, low: l)
    }
}
