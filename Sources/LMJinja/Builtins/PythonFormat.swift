#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Python's string formatting: `format % args` (printf style, also the `format` filter) and
/// `str.format(*args, **kwargs)`. Floats with a precision are formatted by the C library's
/// `snprintf`, which rounds exactly as Python does. `Markup` formats escape their arguments.
enum PythonFormat {
    // MARK: - printf style

    /// `format % args`: a tuple gives the positional arguments, a dict named ones (`%(name)s`),
    /// anything else is the single argument.
    static func percent(_ format: Text, _ args: Value, _ r: Renderer) throws(JinjaError) -> Text {
        var positional: [Value]
        var mapping: Dict?
        switch args {
        case let .tuple(items): positional = items
        case let .dict(d): positional = [args]; mapping = d
        default: positional = [args]
        }
        let f = format.scalars, offsets = format.utf8Offsets()
        var out = Text.empty
        var next = 0
        var i = 0, literalStart = 0
        func nextArg() throws(JinjaError) -> Value {
            guard next < positional.count else { throw .type("not enough arguments for format string") }
            defer { next += 1 }
            return positional[next]
        }
        while i < f.count {
            guard f[i] == "%" else { i += 1; continue }
            out.append(format.slice(scalars: literalStart..<i, offsets: offsets))
            i += 1
            guard i < f.count else { throw .type("incomplete format") }
            var value: Value?
            if f[i] == "(" {
                guard let mapping else { throw .type("format requires a mapping") }
                var depth = 1, j = i + 1
                while j < f.count, depth > 0 { if f[j] == "(" { depth += 1 } else if f[j] == ")" { depth -= 1 }; j += 1 }
                guard depth == 0 else { throw .type("incomplete format key") }
                let key = String(String.UnicodeScalarView(f[(i + 1)..<(j - 1)]))
                guard let v = mapping.get(key) else { throw .type("KeyError: \(PythonRepr.string(key))") }
                value = v
                i = j
            }
            var spec = Spec()
            while i < f.count, "#0- +".unicodeScalars.contains(f[i]) {
                switch f[i] {
                case "-": spec.align = "<"
                case "+": spec.sign = "+"
                case " ": if spec.sign == nil { spec.sign = " " }
                case "0": spec.zero = true
                default: spec.alternate = true
                }
                i += 1
            }
            func number() throws(JinjaError) -> Int? {
                if i < f.count, f[i] == "*" {
                    i += 1
                    let v = try nextArg()
                    guard let n = v.integer else { throw .type("* wants int") }
                    // The same bound as a written width: padding is built before the output limit is checked.
                    if n.magnitude > 1 << 20 { throw .limit(.outputSize) }
                    return n
                }
                var n: Int?
                while i < f.count, let d = Int(String(f[i])), f[i].isASCII {
                    n = (n ?? 0) * 10 + d
                    if n! > 1 << 20 { throw .limit(.outputSize) }
                    i += 1
                }
                return n
            }
            spec.width = try number()
            if let w = spec.width, w < 0 { spec.align = "<"; spec.width = -w }
            if i < f.count, f[i] == "." { i += 1; spec.precision = try number() ?? 0 }
            while i < f.count, "hlL".unicodeScalars.contains(f[i]) { i += 1 }
            guard i < f.count else { throw .type("incomplete format") }
            let type = f[i]
            i += 1
            literalStart = i
            if type == "%" { out.append("%", origin: .template); continue }
            let arg: Value
            if let value { arg = value } else { arg = try nextArg() }
            spec.type = type
            var piece: Text
            switch type {
            case "s": piece = try PythonRepr.str(arg, r)
            case "r", "a": piece = Text(PythonRepr.repr(arg), origin: try PythonRepr.containsData(arg, depth: 0, limit: r.limits.maxNesting) ? .data : .template)
            case "c":
                if let n = arg.integer, let s = Unicode.Scalar(UInt32(clamping: max(0, n))) { piece = .template(String(s)) }
                else if case let .string(t) = arg, t.scalarCount == 1 { piece = t }
                else { throw .type("%c requires int or char") }
            default:
                if case let .undefined(u) = arg { throw u.error }
                piece = .template(try formatNumber(arg, spec, percentStyle: true))
            }
            if type == "s" || type == "r" || type == "a" || type == "c" {
                if let p = spec.precision { piece = piece.slice(scalars: 0..<min(p, piece.scalarCount), offsets: piece.utf8Offsets()) }
                piece = piece.padded(to: spec.width ?? 0, fill: .template(" "), align: spec.align == "<" ? .left : .right)
            }
            out.append(format.isMarkup ? HTML.escape(piece) : piece)
        }
        out.append(format.slice(scalars: literalStart..<f.count, offsets: offsets))
        if mapping == nil, next < positional.count { throw .type("not all arguments converted during string formatting") }
        return try r.built(out.markup(format.isMarkup))
    }

    // MARK: - str.format

    /// `format.format(*args, **kwargs)`, with sandboxed field lookups (`{0.name}`, `{x[key]}`).
    static func format(_ format: Text, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Text {
        var auto = 0
        var manual = false
        return try r.built(try expand(format, positional, keyword, r, auto: &auto, manual: &manual, depth: 0).markup(format.isMarkup))
    }

    private static func expand(_ format: Text, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer,
                               auto: inout Int, manual: inout Bool, depth: Int) throws(JinjaError) -> Text {
        if depth > 2 { throw .type("Max string recursion exceeded") }
        let f = format.scalars, offsets = format.utf8Offsets()
        var out = Text.empty
        var i = 0, literalStart = 0
        while i < f.count {
            if f[i] == "}" {
                guard i + 1 < f.count, f[i + 1] == "}" else { throw .type("Single '}' encountered in format string") }
                out.append(format.slice(scalars: literalStart..<(i + 1), offsets: offsets))
                i += 2
                literalStart = i
                continue
            }
            guard f[i] == "{" else { i += 1; continue }
            if i + 1 < f.count, f[i + 1] == "{" {
                out.append(format.slice(scalars: literalStart..<(i + 1), offsets: offsets))
                i += 2
                literalStart = i
                continue
            }
            out.append(format.slice(scalars: literalStart..<i, offsets: offsets))
            var j = i + 1, level = 1
            while j < f.count {
                if f[j] == "{" { level += 1 } else if f[j] == "}" { level -= 1; if level == 0 { break } }
                j += 1
            }
            guard j < f.count else { throw .type("Single '{' encountered in format string") }
            let field = String(String.UnicodeScalarView(f[(i + 1)..<j]))
            i = j + 1
            literalStart = i
            // field_name[!conversion][:spec]
            var name = field, conversion: Character?, specText = ""
            if let colon = nameEnd(field, ":") {
                specText = String(field[field.index(after: colon)...])
                name = String(field[..<colon])
            }
            if let bang = nameEnd(name, "!") {
                let conv = name[name.index(after: bang)...]
                guard conv.count == 1 else { throw .type("expected ':' after conversion specifier") }
                conversion = conv.first
                name = String(name[..<bang])
            }
            var value = try lookup(name, positional, keyword, auto: &auto, manual: &manual)
            if specText.contains("{") {
                specText = try expand(.template(specText), positional, keyword, r, auto: &auto, manual: &manual, depth: depth + 1).string
            }
            var piece: Text
            switch conversion {
            case "r", "a": piece = Text(PythonRepr.repr(value), origin: try PythonRepr.containsData(value, depth: 0, limit: r.limits.maxNesting) ? .data : .template)
            case "s": piece = try PythonRepr.str(value, r)
            case nil: piece = .empty
            default: throw .type("Unknown conversion specifier \(conversion!)")
            }
            if conversion != nil { value = .string(piece) }
            piece = try formatValue(value, specText, r)
            out.append(format.isMarkup ? HTML.escape(piece) : piece)
        }
        out.append(format.slice(scalars: literalStart..<f.count, offsets: offsets))
        return out
    }

    /// Index of the first `c` outside brackets in a field.
    private static func nameEnd(_ s: String, _ c: Character) -> String.Index? {
        var inBracket = false
        for i in s.indices {
            if s[i] == "[" { inBracket = true } else if s[i] == "]" { inBracket = false } else if s[i] == c, !inBracket { return i }
        }
        return nil
    }

    private static func lookup(_ field: String, _ positional: [Value], _ keyword: [(String, Value)],
                               auto: inout Int, manual: inout Bool) throws(JinjaError) -> Value {
        var rest = Substring(field)
        let first = rest.prefix { $0 != "." && $0 != "[" }
        rest = rest.dropFirst(first.count)
        var value: Value
        if first.isEmpty {
            if manual { throw .type("cannot switch from manual field specification to automatic field numbering") }
            guard auto < positional.count else { throw .type("Replacement index \(auto) out of range for positional args tuple") }
            value = positional[auto]
            auto += 1
        } else if let n = Int(first) {
            if auto > 0 { throw .type("cannot switch from automatic field numbering to manual field specification") }
            manual = true
            guard n < positional.count else { throw .type("Replacement index \(n) out of range for positional args tuple") }
            value = positional[n]
        } else {
            guard let v = keyword.first(where: { $0.0 == first })?.1 else { throw .type("KeyError: \(PythonRepr.string(String(first)))") }
            value = v
        }
        while let c = rest.first {
            if c == "." {
                rest = rest.dropFirst()
                let attr = rest.prefix { $0 != "." && $0 != "[" }
                rest = rest.dropFirst(attr.count)
                value = try Attributes.getattr(value, String(attr))
            } else if c == "[" {
                guard let close = rest.firstIndex(of: "]") else { throw .type("Missing ']' in format string") }
                let key = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                value = try Attributes.getitem(value, Int(key).map { .int($0) } ?? .template(String(key)))
            } else {
                throw .type("Only '.' or '[' may follow ']' in format field specifier")
            }
        }
        return value
    }

    // MARK: - Format specs

    struct Spec {
        var fill: Unicode.Scalar = " "
        var align: Unicode.Scalar?
        var sign: Unicode.Scalar?
        var alternate = false
        var zero = false
        var width: Int?
        var grouping: Unicode.Scalar?
        var precision: Int?
        var type: Unicode.Scalar?
    }

    /// Parses `[[fill]align][sign][#][0][width][,|_][.precision][type]`.
    static func parseSpec(_ text: String) throws(JinjaError) -> Spec {
        var s = Spec()
        let c = Array(text.unicodeScalars)
        var i = 0
        func isAlign(_ x: Unicode.Scalar) -> Bool { "<>=^".unicodeScalars.contains(x) }
        if c.count >= 2, isAlign(c[1]) { s.fill = c[0]; s.align = c[1]; i = 2 } else if let f = c.first, isAlign(f) { s.align = f; i = 1 }
        if i < c.count, "+- ".unicodeScalars.contains(c[i]) { s.sign = c[i]; i += 1 }
        if i < c.count, c[i] == "#" { s.alternate = true; i += 1 }
        if i < c.count, c[i] == "0" { s.zero = true; i += 1 }
        var width: Int?
        while i < c.count, c[i].properties.numericType == .decimal, c[i].isASCII {
            width = (width ?? 0) * 10 + Int(c[i].value - 0x30)
            if width! > 1 << 20 { throw .limit(.outputSize) }
            i += 1
        }
        s.width = width
        if i < c.count, c[i] == "," || c[i] == "_" { s.grouping = c[i]; i += 1 }
        if i < c.count, c[i] == "." {
            i += 1
            var p: Int?
            while i < c.count, c[i].properties.numericType == .decimal, c[i].isASCII {
                p = (p ?? 0) * 10 + Int(c[i].value - 0x30)
                if p! > 1 << 20 { throw .limit(.outputSize) }
                i += 1
            }
            guard let p else { throw .type("Format specifier missing precision") }
            s.precision = p
        }
        if i < c.count { s.type = c[i]; i += 1 }
        guard i == c.count else { throw .type("Invalid format specifier") }
        return s
    }

    /// `format(value, spec)` (`value.__format__(spec)`).
    static func formatValue(_ value: Value, _ specText: String, _ r: Renderer) throws(JinjaError) -> Text {
        if specText.isEmpty { return try PythonRepr.str(value, r) }
        let spec = try parseSpec(specText)
        switch value {
        case let .string(t):
            guard spec.type == nil || spec.type == "s" else { throw .type("Unknown format code '\(spec.type!)' for object of type 'str'") }
            guard spec.sign == nil, !spec.alternate, spec.grouping == nil, spec.align != "=" else {
                throw .type("Invalid format specifier for str")
            }
            var piece = t
            if let p = spec.precision { piece = t.slice(scalars: 0..<min(p, t.scalarCount), offsets: t.utf8Offsets()) }
            let align: Text.Alignment = switch spec.align { case ">": .right; case "^": .center; default: .left }
            return piece.padded(to: spec.width ?? 0, fill: .template(String(spec.fill)), align: align)
        case .int, .bool, .float:
            return .template(try formatNumber(value, spec, percentStyle: false))
        case let .undefined(u):
            throw u.error
        default:
            throw .type("unsupported format string passed to \(value.typeName).__format__")
        }
    }

    /// A number per a spec, for both `%` (`percentStyle`) and `format()`.
    static func formatNumber(_ value: Value, _ spec: Spec, percentStyle: Bool) throws(JinjaError) -> String {
        var type = spec.type ?? (Operators.isFloat(value) ? (spec.precision == nil ? "r" : "g") : "d")
        if percentStyle, type == "i" || type == "u" { type = "d" }
        var body: String
        var negative = false
        switch type {
        case "d", "b", "o", "x", "X", "c", "n":
            var i: Int
            if let n = value.integer { i = n } else if case let .float(d) = value, percentStyle, d.isFinite, let n = Int(exactly: d.rounded(.towardZero)) { i = n } else {
                throw .type(percentStyle ? "%\(type) format: a real number is required, not \(value.typeName)" : "Unknown format code '\(type)' for object of type '\(value.typeName)'")
            }
            if type == "c" {
                guard let s = Unicode.Scalar(UInt32(clamping: max(0, i))) else { throw .type("%c arg not in range(0x110000)") }
                return String(s)
            }
            negative = i < 0
            let magnitude = i.magnitude
            switch type {
            case "b": body = String(magnitude, radix: 2); if spec.alternate { body = "0b" + body }
            case "o": body = String(magnitude, radix: 8); if spec.alternate { body = "0o" + body }
            case "x": body = String(magnitude, radix: 16); if spec.alternate { body = "0x" + body }
            case "X": body = String(magnitude, radix: 16).uppercased(); if spec.alternate { body = "0X" + body }
            default: body = String(magnitude)
            }
            if let g = spec.grouping { body = group(body, Character(g)) }
        case "r":
            guard case let .float(d) = value else { throw .type("bad float") }
            negative = d.sign == .minus && !d.isNaN
            body = PythonRepr.float(d.magnitude)
        case "e", "E", "f", "F", "g", "G", "%":
            guard let d = Operators.number(value) else { throw .type("must be real number, not \(value.typeName)") }
            negative = d.sign == .minus && !d.isNaN
            let precision = spec.precision ?? 6
            if precision > 4096 { throw .limit(.outputSize) }
            let x = type == "%" ? d.magnitude * 100 : d.magnitude
            let c = type == "%" ? "f" : String(type)
            body = cFormat("%" + (spec.alternate ? "#" : "") + ".\(precision)" + c, x)
            if type == "%" { body += "%" }
            if let g = spec.grouping { body = group(body, Character(g)) }
        default:
            throw .type("Unknown format code '\(type)' for object of type '\(value.typeName)'")
        }
        let sign = negative ? "-" : (spec.sign == "+" ? "+" : spec.sign == " " ? " " : "")
        let width = spec.width ?? 0
        let length = sign.count + body.count
        guard width > length else { return sign + body }
        let pad = width - length
        let align = spec.align ?? (spec.zero ? "=" : (percentStyle ? ">" : ">"))
        let fill = spec.zero && spec.align == nil ? "0" : String(spec.fill)
        switch align {
        case "<": return sign + body + String(repeating: fill, count: pad)
        case "^": return String(repeating: fill, count: pad / 2) + sign + body + String(repeating: fill, count: pad - pad / 2)
        case "=": return sign + String(repeating: fill, count: pad) + body
        default: return String(repeating: fill, count: pad) + sign + body
        }
    }

    /// Thousands grouping of the integer part.
    private static func group(_ s: String, _ separator: Character) -> String {
        let integerPart = s.prefix { $0.isNumber }
        let rest = s.dropFirst(integerPart.count)
        var out = ""
        for (i, c) in integerPart.enumerated() {
            if i > 0, (integerPart.count - i) % 3 == 0 { out.append(separator) }
            out.append(c)
        }
        return out + rest
    }

    /// The C library's formatting of one double (`%.6f`, `%.3e`...), which rounds exactly.
    static func cFormat(_ format: String, _ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = withVaList([value]) { args in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 512, format, args) }
        }
        if n >= 512 {
            buffer = [CChar](repeating: 0, count: Int(n) + 1)
            _ = withVaList([value]) { args in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, Int(n) + 1, format, args) }
            }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
