/// jinja2's filters with jinja2's argument names and defaults (`indent(width=4, first=False,
/// blank=False)`...), as chat templates call them; string filters here, collection filters in
/// `Filters+Collections.swift`.
enum Filters {
    static func apply(_ name: String, _ v: Value, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        func bind(_ names: [String]) throws(JinjaError) -> Binding { try Binding(name, names, positional, keyword) }
        switch name {
        case "tojson":
            return try JSONEncoding.filter(v, positional, keyword, r)
        case "string":
            _ = try bind([])
            return .string(try soft(v, r))
        case "safe":
            _ = try bind([])
            return .string(try soft(v, r).markup(true))
        case "e", "escape":
            _ = try bind([])
            return .string(try r.built(HTML.escape(try soft(v, r))))
        case "forceescape":
            _ = try bind([])
            return .string(try r.built(HTML.force(try soft(v, r))))
        case "trim":
            let b = try bind(["chars"])
            var chars: String?
            if let c = b["chars"] {
                switch c {
                case .none: break
                case let .string(t): chars = t.string
                case let .undefined(u): throw u.error
                default: throw .type("strip arg must be None or str")
                }
            }
            return .string(try soft(v, r).stripped(chars))
        case "upper":
            _ = try bind([])
            return .string(try soft(v, r).upper())
        case "lower":
            _ = try bind([])
            return .string(try soft(v, r).lower())
        case "capitalize":
            _ = try bind([])
            return .string(try soft(v, r).capitalize())
        case "title":
            _ = try bind([])
            return .string(title(try soft(v, r)))
        case "replace":
            let b = try bind(["old", "new", "count"])
            let s = try PythonRepr.str(v, r).markup(false)
            let old = try PythonRepr.str(try b.required("old", name), r)
            let new = try PythonRepr.str(try b.required("new", name), r)
            var count = -1
            if let c = b["count"], !isNone(c) {
                guard let i = c.integer else { throw .type("'\(c.typeName)' object cannot be interpreted as an integer") }
                count = i
            }
            if old.isEmpty, s.utf8Count + new.utf8Count * (s.scalarCount + 1) > r.limits.maxOutputBytes { throw .limit(.outputSize) }
            return .string(try r.built(s.replacing(old.string, with: new.markup(false), count: count)))
        case "indent":
            return try indent(v, try bind(["width", "first", "blank"]), r)
        case "center":
            let b = try bind(["width"])
            let width = try b.int("width", default: 80, name)
            if width > r.limits.maxOutputBytes { throw .limit(.outputSize) }
            let s = try soft(v, r)
            return .string(try r.built(s.padded(to: width, fill: .template(" "), align: .center)))
        case "wordcount":
            _ = try bind([])
            var count = 0, inWord = false
            for c in try soft(v, r).scalars {
                let word = PythonUnicode.isWord(c)
                if word, !inWord { count += 1 }
                inWord = word
            }
            return .int(count)
        case "truncate":
            return try truncate(v, try bind(["length", "killwords", "end", "leeway"]), r)
        case "format":
            if !positional.isEmpty, !keyword.isEmpty { throw .type("can't handle positional and keyword arguments at the same time") }
            var arguments: Value = .tuple(positional)
            if !keyword.isEmpty {
                var d = Dict()
                for (k, x) in keyword { d.set(k, x) }
                arguments = .dict(d)
            }
            return .string(try PythonFormat.percent(try soft(v, r), arguments, r))
        default:
            return try collection(name, v, positional, keyword, r)
        }
    }

    static func isNone(_ v: Value) -> Bool {
        if case .none = v { return true }
        return false
    }

    /// markupsafe's `soft_str`: a string (Markup stays Markup), else `str(v)`.
    static func soft(_ v: Value, _ r: Renderer) throws(JinjaError) -> Text {
        if case let .string(t) = v { return t }
        return try PythonRepr.str(v, r)
    }

    /// jinja2's `title`: after `-`, whitespace, `(`, `{`, `[` or `<` (or at the start) a
    /// character is uppercased, elsewhere lowercased; the result is a plain string.
    static func title(_ s: Text) -> Text {
        var out = ""
        var word: [Unicode.Scalar] = []
        func flush() {
            if let first = word.first { out += PythonUnicode.upper(first) + PythonUnicode.lowered(Array(word.dropFirst())) }
            word = []
        }
        for c in s.scalars {
            if c == "-" || c == "(" || c == "{" || c == "[" || c == "<" || PythonUnicode.isSpace(c) {
                flush()
                out.unicodeScalars.append(c)
            } else {
                word.append(c)
            }
        }
        flush()
        return s.rewritten(out).markup(false)
    }

    /// `indent(width=4, first=False, blank=False)`: every line after the first gets the
    /// indentation (blank lines only with `blank`); line breaks of any kind become `\n`.
    static func indent(_ v: Value, _ b: Binding, _ r: Renderer) throws(JinjaError) -> Value {
        guard case let .string(s) = v else {
            if case let .undefined(u) = v { throw u.error }
            throw .type("unsupported operand type(s) for +=: '\(v.typeName)' and 'str'")
        }
        let width = b.value("width", default: .int(4))
        var indentation: Text
        switch width {
        case let .string(t): indentation = t
        case let .undefined(u): throw u.error
        default:
            guard let n = width.integer else { throw .type("can't multiply sequence by non-int of type '\(width.typeName)'") }
            if n > r.limits.maxOutputBytes { throw .limit(.outputSize) }
            indentation = .template(String(repeating: " ", count: max(0, n)))
        }
        if s.isMarkup { indentation = HTML.escape(indentation) }
        let newline = Text.template("\n")
        var lines = (s + newline).splitLines()
        try r.tick(lines.count)
        var out: Text
        if b.bool("blank", default: false) {
            out = Text.joined(lines, separator: newline + indentation)
        } else {
            out = lines.isEmpty ? .empty : lines.removeFirst()
            if !lines.isEmpty {
                out.append(newline)
                out.append(Text.joined(lines.map { $0.isEmpty ? $0 : indentation + $0 }, separator: newline))
            }
        }
        if b.bool("first", default: false) { out = indentation + out }
        return .string(try r.built(out.markup(s.isMarkup)))
    }

    /// `truncate(length=255, killwords=False, end='...', leeway=5)` on a string.
    static func truncate(_ v: Value, _ b: Binding, _ r: Renderer) throws(JinjaError) -> Value {
        let length = try b.int("length", default: 255, "truncate")
        let end = try PythonRepr.str(b.value("end", default: .template("...")), r)
        let leeway = try b.int("leeway", default: 5, "truncate")
        guard length >= end.scalarCount else { throw .type("expected length >= \(end.scalarCount), got \(length)") }
        guard leeway >= 0 else { throw .type("expected leeway >= 0, got \(leeway)") }
        guard case let .string(s) = v else {
            if case let .undefined(u) = v { throw u.error }
            throw .type("object of type '\(v.typeName)' has no len()")
        }
        let n = s.scalarCount
        if n <= length + leeway { return v }
        let offsets = s.utf8Offsets()
        let cut = s.slice(scalars: 0..<max(0, min(n, length - end.scalarCount)), offsets: offsets)
        if b.bool("killwords", default: false) { return .string(cut + end) }
        return .string((cut.rsplit(" ", maxSplit: 1).first ?? cut) + end)
    }
}
