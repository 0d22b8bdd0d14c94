/// The `tojson` filter as Hugging Face defines it for chat templates:
/// `json.dumps(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False)`, byte for
/// byte (Python's float repr, `NaN`/`Infinity`, `", "` and `": "` separators unless indented,
/// non-ASCII kept unless `ensure_ascii`). Not jinja2's own `tojson`, which HTML-escapes.
///
/// The result is data when the value holds any data string, else template text.
enum JSONEncoding {
    struct Options {
        var ensureASCII = false
        /// Per-level indentation; nil for one line.
        var indent: String?
        var itemSeparator = ", "
        var keySeparator = ": "
        var sortKeys = false
    }

    /// Binds `tojson(ensure_ascii=False, indent=None, separators=None, sort_keys=False)`.
    static func filter(_ value: Value, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        let b = try Binding("tojson", ["ensure_ascii", "indent", "separators", "sort_keys"], positional, keyword)
        var o = Options()
        o.ensureASCII = b.bool("ensure_ascii", default: false)
        o.sortKeys = b.bool("sort_keys", default: false)
        if let indent = b["indent"] {
            switch indent {
            case .none: break
            case let .string(t): o.indent = t.string
            default:
                guard let n = indent.integer else { throw .type("can't multiply sequence by non-int of type '\(indent.typeName)'") }
                try r.checkLength(n)
                o.indent = String(repeating: " ", count: max(0, n))
            }
        }
        if o.indent != nil { o.itemSeparator = "," }
        if let separators = b["separators"], !isNone(separators) {
            let parts = try Iteration.items(separators, r)
            guard parts.count == 2, case let .string(item) = parts[0], case let .string(key) = parts[1] else {
                throw .type("separators must be a pair of strings")
            }
            o.itemSeparator = item.string
            o.keySeparator = key.string
        }
        var out = ""
        try encode(value, o, level: 0, into: &out, r)
        let origin: JinjaOrigin = try PythonRepr.containsData(value, depth: 0, limit: r.limits.maxNesting) ? .data : .template
        return .string(try r.built(Text(out, origin: origin)))
    }

    private static func isNone(_ v: Value) -> Bool {
        if case .none = v { return true }
        return false
    }

    static func encode(_ v: Value, _ o: Options, level: Int, into out: inout String, _ r: Renderer) throws(JinjaError) {
        if level > r.limits.maxNesting { throw .limit(.nesting) }
        if out.utf8.count > r.limits.maxOutputBytes { throw .limit(.outputSize) }
        switch v {
        case .none: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .int(i): out += String(i)
        case let .float(d): out += float(d)
        case let .string(t): string(t.string, ascii: o.ensureASCII, into: &out)
        case let .list(items), let .tuple(items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                out += i == 0 ? newline(o, level + 1) : o.itemSeparator + newline(o, level + 1)
                try encode(item, o, level: level + 1, into: &out, r)
            }
            out += newline(o, level) + "]"
        case let .dict(d):
            if d.count == 0 { out += "{}"; return }
            var pairs = Array(d.pairs)
            if o.sortKeys {
                pairs = try Sorting.stableSorted(pairs) { (a, b) throws(JinjaError) in
                    try Operators.less(a.0, b.0, orEqual: false, op: "<")
                }
            }
            out += "{"
            for (i, (k, value)) in pairs.enumerated() {
                out += i == 0 ? newline(o, level + 1) : o.itemSeparator + newline(o, level + 1)
                switch k {
                case let .string(t): string(t.string, ascii: o.ensureASCII, into: &out)
                case .float, .int, .bool, .none:
                    var key = ""
                    try encode(k, o, level: level + 1, into: &key, r)
                    string(key, ascii: o.ensureASCII, into: &out)
                default:
                    throw .type("keys must be str, int, float, bool or None, not \(k.typeName)")
                }
                out += o.keySeparator
                try encode(value, o, level: level + 1, into: &out, r)
            }
            out += newline(o, level) + "}"
        default:
            throw .type("Object of type \(v.typeName) is not JSON serializable")
        }
    }

    private static func newline(_ o: Options, _ level: Int) -> String {
        guard let indent = o.indent else { return "" }
        return "\n" + String(repeating: indent, count: level)
    }

    /// `float.__repr__`, with JSON's names for the non-finite values.
    static func float(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return PythonRepr.float(d)
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`... or
    /// `\u00XX`; with `ascii`, every character outside space..`~` as `\uXXXX` (surrogate pairs
    /// beyond U+FFFF).
    static func string(_ s: String, ascii: Bool, into out: inout String) {
        out += "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if c.value < 0x20 || (ascii && c.value > 0x7E) {
                    if c.value > 0xFFFF {
                        let v = c.value - 0x10000
                        out += hex4(0xD800 + (v >> 10)) + hex4(0xDC00 + (v & 0x3FF))
                    } else {
                        out += hex4(c.value)
                    }
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        out += "\""
    }

    private static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - h.count) + h
    }
}

/// A stable merge sort with a throwing comparison: Python's `sorted` is stable, and comparing
/// mismatched types raises.
enum Sorting {
    static func stableSorted<T>(_ items: [T], by less: (T, T) throws(JinjaError) -> Bool) throws(JinjaError) -> [T] {
        guard items.count > 1 else { return items }
        var a = items
        var buffer = items
        var width = 1
        while width < a.count {
            var start = 0
            while start < a.count {
                let mid = min(start + width, a.count), end = min(start + 2 * width, a.count)
                var i = start, j = mid, k = start
                while i < mid, j < end {
                    // Take from the right only when strictly less: equal items keep their order.
                    if try less(a[j], a[i]) { buffer[k] = a[j]; j += 1 } else { buffer[k] = a[i]; i += 1 }
                    k += 1
                }
                while i < mid { buffer[k] = a[i]; i += 1; k += 1 }
                while j < end { buffer[k] = a[j]; j += 1; k += 1 }
                start = end
            }
            swap(&a, &buffer)
            width *= 2
        }
        return a
    }
}
