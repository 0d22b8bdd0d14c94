/// Python's `str` methods (`Markup`'s versions when the receiver is `Markup`: results stay
/// `Markup`, inserted strings are escaped).
enum StringMethods {
    static func call(_ s: Text, _ name: String, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        // Most str methods take positional arguments only.
        let keywordNames: [String: [String]] = ["split": ["sep", "maxsplit"], "rsplit": ["sep", "maxsplit"],
                                                "splitlines": ["keepends"], "expandtabs": ["tabsize"]]
        if name != "format", !keyword.isEmpty, keywordNames[name] == nil { throw .type("\(name)() takes no keyword arguments") }
        func args(_ names: [String], required: Int) throws(JinjaError) -> Binding {
            let b = try Binding(name, names, positional, keyword)
            if positional.count + keyword.count < required {
                throw .type("\(name)() takes at least \(required) argument\(required == 1 ? "" : "s") (\(positional.count) given)")
            }
            return b
        }
        func str(_ v: Value?, _ what: String) throws(JinjaError) -> Text? {
            guard let v else { return nil }
            switch v {
            case .none: return nil
            case let .string(t): return t
            case let .undefined(u): throw u.error
            default: throw .type("\(what) must be None or str, not \(v.typeName)")
            }
        }
        func requiredString(_ v: Value?) throws(JinjaError) -> Text {
            guard let v else { throw .type("\(name)() missing argument") }
            if case let .undefined(u) = v { throw u.error }
            guard case let .string(t) = v else { throw .type("must be str, not \(v.typeName)") }
            return t
        }
        func markupArg(_ t: Text) -> Text { s.isMarkup ? HTML.escape(t) : t }
        func result(_ t: Text) throws(JinjaError) -> Value { .string(try r.built(t.markup(s.isMarkup))) }
        func bounds(_ b: Binding) throws(JinjaError) -> (Int, Int) {
            let n = s.scalarCount
            func clamp(_ v: Value?, _ d: Int) throws(JinjaError) -> Int {
                guard let v else { return d }
                if case .none = v { return d }
                guard let i = v.integer else { throw .type("slice indices must be integers or None or have an __index__ method") }
                return i < 0 ? max(0, i + n) : min(i, n)
            }
            return (try clamp(b["start"], 0), try clamp(b["end"], n))
        }
        try r.tick(1)
        switch name {
        case "upper": _ = try args([], required: 0); return try result(s.upper())
        case "lower": _ = try args([], required: 0); return try result(s.lower())
        case "title": _ = try args([], required: 0); return try result(s.title())
        case "capitalize": _ = try args([], required: 0); return try result(s.capitalize())
        case "swapcase": _ = try args([], required: 0); return try result(s.swapcase())
        case "strip", "lstrip", "rstrip":
            let b = try args(["chars"], required: 0)
            let chars = try str(b["chars"], "strip arg")?.string
            return try result(s.stripped(chars, left: name != "rstrip", right: name != "lstrip"))
        case "split", "rsplit":
            let b = try args(["sep", "maxsplit"], required: 0)
            let sep = try str(b["sep"], "sep")?.string
            if sep == "" { throw .type("empty separator") }
            let maxSplit = try b.int("maxsplit", default: -1, name)
            let parts = name == "split" ? s.split(sep, maxSplit: maxSplit) : s.rsplit(sep, maxSplit: maxSplit)
            try r.tick(parts.count)
            return .list(parts.map { .string($0) })
        case "splitlines":
            let b = try args(["keepends"], required: 0)
            let parts = s.splitLines(keepEnds: b.bool("keepends", default: false))
            try r.tick(parts.count)
            return .list(parts.map { .string($0) })
        case "startswith", "endswith":
            let b = try args(["prefix", "start", "end"], required: 1)
            let (lo, hi) = try bounds(b)
            let window = lo <= hi ? s.slice(scalars: lo..<hi, offsets: s.utf8Offsets()).string : nil
            var candidates: [Value]
            switch b["prefix"] {
            case let .tuple(items)?: candidates = items
            case let v?: candidates = [v]
            case nil: candidates = []
            }
            for c in candidates {
                guard case let .string(p) = c else {
                    throw .type("\(name) first arg must be str or a tuple of str, not \(c.typeName)")
                }
                guard let window else { continue }
                let w = Array(window.unicodeScalars), q = Array(p.string.unicodeScalars)
                if q.count <= w.count, (name == "startswith" ? Array(w.prefix(q.count)) : Array(w.suffix(q.count))) == q { return .bool(true) }
            }
            return .bool(false)
        case "find", "rfind", "index", "rindex", "count":
            let b = try args(["sub", "start", "end"], required: 1)
            let sub = try requiredString(b["sub"]).string
            let (lo, hi) = try bounds(b)
            if name == "count" { return .int(s.count(sub, start: lo, end: hi)) }
            if let i = s.find(sub, start: lo, end: hi, fromRight: name.hasPrefix("r")) { return .int(i) }
            if name.hasSuffix("index") { throw .type("substring not found") }
            return .int(-1)
        case "replace":
            let b = try args(["old", "new", "count"], required: 2)
            let old = try requiredString(b["old"]).string
            let new = markupArg(try requiredString(b["new"]))
            let count = try b.int("count", default: -1, name)
            if s.utf8Count + (new.utf8Count * (s.scalarCount + 1)) > r.limits.maxOutputBytes, old.isEmpty { throw .limit(.outputSize) }
            return try result(s.replacing(old, with: new, count: count))
        case "join":
            let b = try args(["iterable"], required: 1)
            var pieces: [Text] = []
            for (i, item) in try Iteration.items(b["iterable"] ?? .none, r).enumerated() {
                guard case let .string(t) = item else { throw .type("sequence item \(i): expected str instance, \(item.typeName) found") }
                pieces.append(markupArg(t))
            }
            return try result(Text.joined(pieces, separator: s))
        case "center", "ljust", "rjust":
            let b = try args(["width", "fillchar"], required: 1)
            let width = try b.int("width", default: 0, name)
            if width > r.limits.maxOutputBytes { throw .limit(.outputSize) }
            var fill = Text.template(" ")
            if let f = b["fillchar"] {
                guard case let .string(t) = f, t.scalarCount == 1 else { throw .type("The fill character must be exactly one character long") }
                fill = markupArg(t)
            }
            let align: Text.Alignment = name == "center" ? .center : name == "ljust" ? .left : .right
            return try result(s.padded(to: width, fill: fill, align: align))
        case "zfill":
            let b = try args(["width"], required: 1)
            let width = try b.int("width", default: 0, name)
            if width > r.limits.maxOutputBytes { throw .limit(.outputSize) }
            let scalars = s.scalars
            guard width > scalars.count else { return try result(s) }
            let offsets = s.utf8Offsets()
            let hasSign = scalars.first == "+" || scalars.first == "-"
            var out = hasSign ? s.slice(scalars: 0..<1, offsets: offsets) : Text.empty
            out.append(String(repeating: "0", count: width - scalars.count), origin: .template)
            out.append(s.slice(scalars: (hasSign ? 1 : 0)..<scalars.count, offsets: offsets))
            return try result(out)
        case "removeprefix", "removesuffix":
            let b = try args(["affix"], required: 1)
            let affix = Array(try requiredString(b["affix"]).string.unicodeScalars)
            let scalars = s.scalars
            guard !affix.isEmpty, affix.count <= scalars.count else { return try result(s) }
            let offsets = s.utf8Offsets()
            if name == "removeprefix", Array(scalars.prefix(affix.count)) == affix {
                return try result(s.slice(scalars: affix.count..<scalars.count, offsets: offsets))
            }
            if name == "removesuffix", Array(scalars.suffix(affix.count)) == affix {
                return try result(s.slice(scalars: 0..<(scalars.count - affix.count), offsets: offsets))
            }
            return try result(s)
        case "partition", "rpartition":
            let b = try args(["sep"], required: 1)
            let sep = try requiredString(b["sep"]).string
            if sep.isEmpty { throw .type("empty separator") }
            let offsets = s.utf8Offsets()
            let n = s.scalarCount, k = sep.unicodeScalars.count
            guard let i = s.find(sep, fromRight: name == "rpartition") else {
                let whole = Value.string(s), empty = Value.string(Text.empty.markup(s.isMarkup))
                return .tuple(name == "partition" ? [whole, empty, empty] : [empty, empty, whole])
            }
            return .tuple([0..<i, i..<(i + k), (i + k)..<n].map { .string(s.slice(scalars: $0, offsets: offsets).markup(s.isMarkup)) })
        case "expandtabs":
            let b = try args(["tabsize"], required: 0)
            let size = try b.int("tabsize", default: 8, name)
            var out = Text.empty
            var column = 0
            let offsets = s.utf8Offsets()
            for (i, c) in s.scalars.enumerated() {
                if c == "\t" {
                    if size > 0 {
                        let n = size - column % size
                        if out.utf8Count + n > r.limits.maxOutputBytes { throw .limit(.outputSize) }
                        out.append(String(repeating: " ", count: n), origin: .template)
                        column += n
                    }
                } else {
                    out.append(s.slice(scalars: i..<(i + 1), offsets: offsets))
                    column = (c == "\n" || c == "\r") ? 0 : column + 1
                }
            }
            return try result(out)
        case "format":
            return .string(try PythonFormat.format(s, positional, keyword, r))
        case "escape":
            let b = try args(["s"], required: 1)
            return .string(HTML.escape(try PythonRepr.str(b["s"] ?? .none, r)))
        case "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric",
             "isprintable", "isspace", "istitle", "isupper":
            _ = try args([], required: 0)
            return .bool(predicate(name, s.scalars))
        default:
            throw .unsupportedHere("method '\(name)' of 'str'")
        }
    }

    /// The `str.is...()` predicates.
    static func predicate(_ name: String, _ c: [Unicode.Scalar]) -> Bool {
        switch name {
        case "isascii": return c.allSatisfy(\.isASCII)
        case "isprintable": return c.allSatisfy(PythonUnicode.isPrintable)
        case "isidentifier":
            guard let first = c.first, first == "_" || first.properties.isXIDStart else { return false }
            return c.dropFirst().allSatisfy { $0.properties.isXIDContinue }
        case "islower":
            return !c.contains { PythonUnicode.isUpper($0) || PythonUnicode.isTitle($0) } && c.contains(where: PythonUnicode.isLower)
        case "isupper":
            return !c.contains { PythonUnicode.isLower($0) || PythonUnicode.isTitle($0) } && c.contains(where: PythonUnicode.isUpper)
        case "istitle":
            var previousCased = false, any = false
            for s in c {
                if PythonUnicode.isUpper(s) || PythonUnicode.isTitle(s) {
                    if previousCased { return false }
                    previousCased = true
                    any = true
                } else if PythonUnicode.isLower(s) {
                    if !previousCased { return false }
                    previousCased = true
                    any = true
                } else {
                    previousCased = false
                }
            }
            return any
        default:
            guard !c.isEmpty else { return false }
            let test: (Unicode.Scalar) -> Bool = switch name {
            case "isalnum": PythonUnicode.isAlnum
            case "isalpha": PythonUnicode.isAlpha
            case "isdecimal": PythonUnicode.isDecimal
            case "isdigit": PythonUnicode.isDigit
            case "isnumeric": PythonUnicode.isNumeric
            default: PythonUnicode.isSpace
            }
            return c.allSatisfy(test)
        }
    }
}
