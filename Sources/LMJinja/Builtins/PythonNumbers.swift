/// Python's `int(str, base)` and `float(str)` parsing: surrounding whitespace, a sign,
/// `_` between digits, base prefixes (`0x`, `0o`, `0b`) when the base is 0 or matches;
/// `inf`, `nan`, `infinity` in any case for floats.
enum PythonNumbers {
    enum Parsed: Equatable {
        case value(Int)
        /// A valid integer that does not fit 64 bits (Python's would).
        case overflow
        case invalid
    }

    static func parseInt(_ text: String, base: Int) -> Int? {
        if case let .value(i) = parseInteger(text, base: base) { return i }
        return nil
    }

    static func parseInteger(_ text: String, base: Int) -> Parsed {
        var s = Substring(text.trimmingPythonSpace())
        var negative = false
        if let c = s.first, c == "+" || c == "-" { negative = c == "-"; s = s.dropFirst() }
        var base = base
        let lower = s.lowercased()
        for (prefix, b) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) && (base == 0 || base == b) {
            base = b
            s = s.dropFirst(2)
            if s.first == "_" { s = s.dropFirst() }
        }
        if base == 0 {
            base = 10
            // Base 0 forbids leading zeros in decimal literals other than zero itself.
            if s.count > 1, s.first == "0", !s.allSatisfy({ $0 == "0" || $0 == "_" }) { return .invalid }
        }
        guard (2...36).contains(base), !s.isEmpty, s.first != "_", s.last != "_", !s.contains("__") else { return .invalid }
        let digits = s.filter { $0 != "_" }
        guard digits.allSatisfy({ c in c.isASCII && (Int(String(c), radix: 36).map { $0 < base } ?? false) }) else {
            return .invalid
        }
        guard let magnitude = UInt(digits, radix: base) else { return .overflow }
        if negative {
            return magnitude <= UInt(Int.max) + 1 ? .value(Int(truncatingIfNeeded: 0 &- magnitude)) : .overflow
        }
        return magnitude <= UInt(Int.max) ? .value(Int(magnitude)) : .overflow
    }

    static func parseFloat(_ text: String) -> Double? {
        let s = text.trimmingPythonSpace()
        var body = Substring(s)
        var sign = 1.0
        if let c = body.first, c == "+" || c == "-" { sign = c == "-" ? -1 : 1; body = body.dropFirst() }
        switch body.lowercased() {
        case "inf", "infinity": return sign * .infinity
        case "nan": return .nan
        default: break
        }
        // Digits, one point, an exponent; underscores only between digits.
        let chars = Array(body)
        guard !chars.isEmpty else { return nil }
        for (i, c) in chars.enumerated() where c == "_" {
            guard i > 0, i + 1 < chars.count, chars[i - 1].isASCII, chars[i - 1].isNumber, chars[i + 1].isASCII, chars[i + 1].isNumber else { return nil }
        }
        let cleaned = chars.filter { $0 != "_" }
        guard cleaned.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
              cleaned.contains(where: { $0.isNumber }) else { return nil }
        guard let d = Double(String(cleaned)) else { return nil }
        return sign * d
    }
}

extension String {
    /// Without leading and trailing Python whitespace.
    func trimmingPythonSpace() -> String {
        let scalars = Array(unicodeScalars)
        var lo = 0, hi = scalars.count
        while lo < hi, PythonUnicode.isSpace(scalars[lo]) { lo += 1 }
        while hi > lo, PythonUnicode.isSpace(scalars[hi - 1]) { hi -= 1 }
        return String(String.UnicodeScalarView(scalars[lo..<hi]))
    }
}
