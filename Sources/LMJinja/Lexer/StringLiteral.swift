/// The value of a string literal's body, decoded as jinja2 decodes it: the text is made ASCII
/// with `backslashreplace` and then read with Python's `unicode-escape` codec.
///
/// So `\n`, `\t`, `\\`, `\'`, `\"`, `\a`, `\b`, `\f`, `\r`, `\v`, octal `\ooo`, `\xhh`, `\uhhhh`,
/// `\Uhhhhhhhh` and backslash-newline are escapes, and any other backslash stays as written.
enum StringLiteral {
    /// - Throws: ``JinjaError/syntax(message:at:)`` for truncated escapes, a final lone backslash
    ///   or a code point beyond U+10FFFF; ``JinjaError/unsupported(construct:at:)`` for `\N{name}`
    ///   and escapes that make a lone surrogate (Swift strings cannot hold one).
    static func unescape(_ body: String, at location: JinjaSourceLocation) throws(JinjaError) -> String {
        // Without a backslash the decoding gives the text back unchanged.
        if !body.utf8.contains(UInt8(ascii: "\\")) { return body }
        // backslashreplace: every non-ASCII scalar becomes its \x, \u or \U escape.
        var ascii: [Unicode.Scalar] = []
        for s in body.unicodeScalars {
            if s.isASCII { ascii.append(s); continue }
            let (prefix, width): (String, Int) = s.value < 0x100 ? ("\\x", 2) : s.value < 0x10000 ? ("\\u", 4) : ("\\U", 8)
            let hex = String(s.value, radix: 16)
            ascii.append(contentsOf: (prefix + String(repeating: "0", count: width - hex.count) + hex).unicodeScalars)
        }
        var out = String.UnicodeScalarView()
        var i = 0
        func fail(_ m: String) -> JinjaError { .syntax(message: m, at: location) }
        func hex(_ count: Int, _ name: String) throws(JinjaError) -> UInt32 {
            var v: UInt32 = 0
            for k in 0..<count {
                guard i + 1 + k < ascii.count, let d = ascii[i + 1 + k].properties.isASCIIHexDigit ? UInt32(String(ascii[i + 1 + k]), radix: 16) : nil else {
                    throw fail("truncated \\\(name) escape")
                }
                v = v * 16 + d
            }
            i += 1 + count
            return v
        }
        func append(_ value: UInt32) throws(JinjaError) {
            if (0xD800..<0xE000).contains(value) { throw .unsupported(construct: "lone surrogate in string literal", at: location) }
            guard let s = Unicode.Scalar(value) else { throw fail("illegal Unicode character") }
            out.append(s)
        }
        while i < ascii.count {
            let c = ascii[i]
            guard c == "\\" else { out.append(c); i += 1; continue }
            guard i + 1 < ascii.count else { throw fail("\\ at end of string") }
            let e = ascii[i + 1]
            i += 2
            switch e {
            case "\n": break
            case "\\": out.append("\\")
            case "'": out.append("'")
            case "\"": out.append("\"")
            case "a": out.append("\u{07}")
            case "b": out.append("\u{08}")
            case "f": out.append("\u{0C}")
            case "n": out.append("\n")
            case "r": out.append("\r")
            case "t": out.append("\t")
            case "v": out.append("\u{0B}")
            case "0"..."7":
                var v = e.value - 0x30
                var k = 0
                while k < 2, i < ascii.count, ("0"..."7").contains(ascii[i]) { v = v * 8 + ascii[i].value - 0x30; i += 1; k += 1 }
                try append(v)
            case "x": i -= 1; try append(try hex(2, "xXX"))
            case "u": i -= 1; try append(try hex(4, "uXXXX"))
            case "U": i -= 1; try append(try hex(8, "UXXXXXXXX"))
            case "N": throw .unsupported(construct: "\\N{...} escape in string literal", at: location)
            default:
                out.append("\\")
                out.append(e)
            }
        }
        return String(out)
    }
}
