/// Python's `str()` and `repr()` of template values, byte for byte: `None`, `True`, float repr
/// (`1.0`, `1e+16`, `0.30000000000000004`), quoted string reprs with escapes, `[...]`, `(x,)`,
/// `{'k': v}`, `dict_items([...])`, `<Namespace {...}>`.
///
/// Numbers and the punctuation of containers count as template text; the `str()` of a container
/// holding data strings is data as a whole.
enum PythonRepr {
    /// `str(v)` with provenance (what `{{ v }}`, `~` and `|string` produce).
    /// - Throws: ``JinjaError/unsupported(construct:at:)`` for values whose Python text holds a
    ///   memory address (functions, methods, generators), ``JinjaError/limitExceeded(_:at:)``
    ///   for values nested deeper than the limit (a namespace can contain itself).
    static func str(_ v: Value, _ r: Renderer) throws(JinjaError) -> Text {
        switch v {
        case .undefined: return .empty
        case let .string(t): return t
        case .none, .bool, .int, .float: return .template(try repr(v, depth: 0, limit: r.limits.maxNesting))
        default:
            let s = try repr(v, depth: 0, limit: r.limits.maxNesting)
            return try r.built(Text(s, origin: try containsData(v, depth: 0, limit: r.limits.maxNesting) ? .data : .template))
        }
    }

    /// Whether any string inside `v` (keys included) is data.
    static func containsData(_ v: Value, depth: Int, limit: Int) throws(JinjaError) -> Bool {
        if depth > limit { throw .limit(.nesting) }
        switch v {
        case let .string(t): return t.containsData
        case let .list(items), let .tuple(items):
            for i in items where try containsData(i, depth: depth + 1, limit: limit) { return true }
            return false
        case let .dict(d), let .view(_, d):
            for (k, x) in d.pairs {
                if try containsData(k, depth: depth + 1, limit: limit) { return true }
                if try containsData(x, depth: depth + 1, limit: limit) { return true }
            }
            return false
        case let .namespace(n):
            return try containsData(.dict(n.attributes), depth: depth + 1, limit: limit)
        default:
            return false
        }
    }

    /// `repr(v)` for error messages: never fails.
    static func repr(_ v: Value) -> String {
        (try? repr(v, depth: 0, limit: 8)) ?? "<\(v.typeName)>"
    }

    static func repr(_ v: Value, depth: Int, limit: Int) throws(JinjaError) -> String {
        if depth > limit { throw .limit(.nesting) }
        func items(_ a: [Value]) throws(JinjaError) -> String {
            var parts: [String] = []
            for x in a { parts.append(try repr(x, depth: depth + 1, limit: limit)) }
            return parts.joined(separator: ", ")
        }
        func pairs(_ d: Dict) throws(JinjaError) -> String {
            var parts: [String] = []
            for (k, x) in d.pairs {
                parts.append(try repr(k, depth: depth + 1, limit: limit) + ": " + repr(x, depth: depth + 1, limit: limit))
            }
            return "{" + parts.joined(separator: ", ") + "}"
        }
        switch v {
        case .undefined: return "Undefined"
        case .none: return "None"
        case let .bool(b): return b ? "True" : "False"
        case let .int(i): return String(i)
        case let .float(d): return float(d)
        case let .string(t): return t.isMarkup ? "Markup(\(string(t.string)))" : string(t.string)
        case let .list(a): return "[" + (try items(a)) + "]"
        case let .tuple(a): return a.count == 1 ? "(" + (try items(a)) + ",)" : "(" + (try items(a)) + ")"
        case let .dict(d): return try pairs(d)
        case let .view(kind, d): return kind.rawValue + "([" + (try items(Iteration.viewItems(kind, d))) + "])"
        case let .namespace(n): return "<Namespace " + (try pairs(n.attributes)) + ">"
        case let .macro(m): return "<Macro \(string(m.definition.name))>"
        case let .loop(state): return "<LoopContext \(state.index0 + 1)/\(try state.count())>"
        case .iterator, .function, .method:
            throw .unsupportedHere("printing a \(v.typeName) (Python shows a memory address)")
        }
    }

    /// Python's `repr()` of a string: single quotes unless the text has `'` and no `"`,
    /// backslash escapes for `\\`, the quote, `\t`, `\n`, `\r`, and `\x..`/`\u....`/`\U........`
    /// for characters `str.isprintable()` rejects.
    static func string(_ s: String) -> String {
        let quote: Unicode.Scalar = s.unicodeScalars.contains("'") && !s.unicodeScalars.contains("\"") ? "\"" : "'"
        var out = String.UnicodeScalarView()
        out.append(quote)
        for c in s.unicodeScalars {
            switch c {
            case quote, "\\": out.append("\\"); out.append(c)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            default:
                if c.value < 0x20 || c.value == 0x7F || (!c.isASCII && !PythonUnicode.isPrintable(c)) {
                    let (prefix, width) = c.value <= 0xFF ? ("\\x", 2) : c.value <= 0xFFFF ? ("\\u", 4) : ("\\U", 8)
                    let hex = String(c.value, radix: 16)
                    out.append(contentsOf: (prefix + String(repeating: "0", count: width - hex.count) + hex).unicodeScalars)
                } else {
                    out.append(c)
                }
            }
        }
        out.append(quote)
        return String(out)
    }

    /// Python's `repr(float)`: the shortest digits that round-trip, positional when the decimal
    /// exponent is in [-4, 16), else `d.ddde+XX`.
    static func float(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        let (negative, digits, point) = shortestDigits(d)
        let sign = negative ? "-" : ""
        if digits == "0" { return sign + "0.0" }
        let n = digits.count
        if point > -4, point <= 16 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
            if point >= n { return sign + digits + String(repeating: "0", count: point - n) + ".0" }
            let i = digits.index(digits.startIndex, offsetBy: point)
            return sign + digits[..<i] + "." + digits[i...]
        }
        let exponent = point - 1
        let mantissa = n == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
        let e = abs(exponent)
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (e < 10 ? "0" : "") + String(e)
    }

    /// Shortest round-trip digits of `d` (from Swift's own shortest formatting) and the decimal
    /// point position: `d = 0.DIGITS × 10^point`.
    static func shortestDigits(_ d: Double) -> (negative: Bool, digits: String, point: Int) {
        var text = d.magnitude.description
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        var point = text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? text.count
        var digits = text.replacingOccurrences(of: ".")
        while digits.hasPrefix("0"), digits.count > 1 { digits.removeFirst(); point -= 1 }
        while digits.hasSuffix("0"), digits.count > 1 { digits.removeLast() }
        if digits == "0" { return (d.sign == .minus, "0", 1) }
        return (d.sign == .minus, digits, point + exponent)
    }
}

extension String {
    /// This string without any `target` characters.
    fileprivate func replacingOccurrences(of target: Character) -> String { filter { $0 != target } }
}
