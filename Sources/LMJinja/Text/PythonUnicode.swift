/// Python's character classes and case mappings on Unicode scalars (`str.isspace`, `str.upper`...),
/// from the Unicode properties Swift exposes. Python 3.11 uses Unicode 14; the toolchain's tables
/// may be newer, which only matters for characters assigned since.
enum PythonUnicode {
    /// `str.isspace()`: bidirectional class WS, B or S, or category Zs (also what `\s` matches).
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            true
        default:
            false
        }
    }

    /// The line boundaries of `str.splitlines()`.
    static func isLineBreak(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `str.isalpha()` per character: categories Lu, Ll, Lt, Lm, Lo.
    static func isAlpha(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    static func isDecimal(_ s: Unicode.Scalar) -> Bool { s.properties.generalCategory == .decimalNumber }

    static func isDigit(_ s: Unicode.Scalar) -> Bool {
        s.properties.numericType == .decimal || s.properties.numericType == .digit
    }

    static func isNumeric(_ s: Unicode.Scalar) -> Bool { s.properties.numericType != nil }

    static func isAlnum(_ s: Unicode.Scalar) -> Bool { isAlpha(s) || isNumeric(s) }

    /// Python's `\w`: alphanumeric or underscore.
    static func isWord(_ s: Unicode.Scalar) -> Bool { s == "_" || isAlnum(s) }

    static func isCased(_ s: Unicode.Scalar) -> Bool { s.properties.isCased }
    static func isLower(_ s: Unicode.Scalar) -> Bool { s.properties.isLowercase }
    static func isUpper(_ s: Unicode.Scalar) -> Bool { s.properties.isUppercase }
    static func isTitle(_ s: Unicode.Scalar) -> Bool { s.properties.generalCategory == .titlecaseLetter }

    /// `str.isprintable()` per character: not in Cc, Cf, Cs, Co, Cn, Zl, Zp, or Zs other than space.
    static func isPrintable(_ s: Unicode.Scalar) -> Bool {
        if s == " " { return true }
        switch s.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return false
        default:
            return true
        }
    }

    static func upper(_ s: Unicode.Scalar) -> String { s.properties.uppercaseMapping }
    static func lower(_ s: Unicode.Scalar) -> String { s.properties.lowercaseMapping }
    static func title(_ s: Unicode.Scalar) -> String { s.properties.titlecaseMapping }

    /// `str.lower()`, with Python's final-sigma rule (Σ at the end of a word becomes ς).
    static func lowered(_ scalars: [Unicode.Scalar]) -> String {
        var out = ""
        for (i, s) in scalars.enumerated() {
            if s.value == 0x3A3 { out += finalSigma(scalars, at: i) ? "\u{3C2}" : "\u{3C3}"; continue }
            out += lower(s)
        }
        return out
    }

    static func uppered(_ scalars: [Unicode.Scalar]) -> String {
        var out = ""
        for s in scalars { out += upper(s) }
        return out
    }

    /// Python's rule: preceded by a cased letter and not followed by one (case-ignorables skipped).
    static func finalSigma(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
        var j = i - 1
        while j >= 0, scalars[j].properties.isCaseIgnorable { j -= 1 }
        guard j >= 0, isCased(scalars[j]) else { return false }
        j = i + 1
        while j < scalars.count, scalars[j].properties.isCaseIgnorable { j += 1 }
        return !(j < scalars.count && isCased(scalars[j]))
    }
}
