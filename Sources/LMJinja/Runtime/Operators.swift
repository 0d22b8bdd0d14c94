#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Python's operators on template values: arithmetic with `bool`/`int`/`float` promotion and
/// overflow checked (Python's integers are unbounded; here a result beyond 64 bits is an error),
/// sequence concatenation and repetition, `Markup` escaping on `+`, equality and ordering.
enum Operators {
    static func unsupported(_ op: String, _ a: Value, _ b: Value) -> JinjaError {
        .type("unsupported operand type(s) for \(op): '\(a.typeName)' and '\(b.typeName)'")
    }

    static func overflow() -> JinjaError { .type("integer result beyond 64 bits") }

    /// Fails with the undefined value's error when either operand is undefined.
    static func checkDefined(_ a: Value, _ b: Value) throws(JinjaError) {
        if case let .undefined(u) = a { throw u.error }
        if case let .undefined(u) = b { throw u.error }
    }

    static func number(_ v: Value) -> Double? {
        switch v {
        case let .float(d): d
        case let .int(i): Double(i)
        case let .bool(b): b ? 1 : 0
        default: nil
        }
    }

    static func isFloat(_ v: Value) -> Bool {
        if case .float = v { return true }
        return false
    }

    static func binary(_ op: BinaryOp, _ a: Value, _ b: Value, _ r: Renderer) throws(JinjaError) -> Value {
        try checkDefined(a, b)
        switch op {
        case .add: return try add(a, b, r)
        case .sub:
            if let x = a.integer, let y = b.integer {
                let (v, o) = x.subtractingReportingOverflow(y)
                if o { throw overflow() }
                return .int(v)
            }
            if let x = number(a), let y = number(b), isFloat(a) || isFloat(b) { return .float(x - y) }
            throw unsupported("-", a, b)
        case .mul: return try multiply(a, b, r)
        case .div:
            guard let x = number(a), let y = number(b) else { throw unsupported("/", a, b) }
            if y == 0 { throw .type("division by zero") }
            if let i = a.integer, let j = b.integer { return .float(trueDivide(i, j)) }
            return .float(x / y)
        case .floordiv:
            if let x = a.integer, let y = b.integer {
                if y == 0 { throw .type("integer division or modulo by zero") }
                if x == .min, y == -1 { throw overflow() }
                return .int(floorDiv(x, y))
            }
            guard let x = number(a), let y = number(b) else { throw unsupported("//", a, b) }
            if y == 0 { throw .type("float floor division by zero") }
            return .float(floatFloorDiv(x, y))
        case .mod:
            if case let .string(format) = a { return .string(try PythonFormat.percent(format, b, r)) }
            if let x = a.integer, let y = b.integer {
                if y == 0 { throw .type("integer division or modulo by zero") }
                if y == -1 { return .int(0) }
                return .int(x - floorDiv(x, y) * y)
            }
            guard let x = number(a), let y = number(b) else { throw unsupported("%", a, b) }
            if y == 0 { throw .type("float modulo") }
            return .float(floatMod(x, y))
        case .pow:
            return try power(a, b)
        }
    }

    /// `int / int`; Python rounds once from the exact quotient, which this matches below 2^53.
    static func trueDivide(_ a: Int, _ b: Int) -> Double { Double(a) / Double(b) }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
    }

    static func floatMod(_ x: Double, _ y: Double) -> Double {
        var m = x.truncatingRemainder(dividingBy: y)
        if m != 0 {
            if (y < 0) != (m < 0) { m += y }
        } else {
            m = (y < 0 ? -0.0 : 0.0)
        }
        return m
    }

    static func floatFloorDiv(_ x: Double, _ y: Double) -> Double {
        let m = x.truncatingRemainder(dividingBy: y)
        var div = (x - m) / y
        if m != 0, (y < 0) != (m < 0) { div -= 1 }
        if div == 0 { return (x / y < 0 ? -0.0 : 0.0) }
        let floor = div.rounded(.down)
        return div - floor > 0.5 ? floor + 1 : floor
    }

    static func add(_ a: Value, _ b: Value, _ r: Renderer) throws(JinjaError) -> Value {
        switch (a, b) {
        case let (.string(x), .string(y)):
            // Markup's __add__/__radd__ escape the plain operand; the result is Markup.
            if x.isMarkup || y.isMarkup {
                let left = x.isMarkup ? x : HTML.escape(x)
                let right = y.isMarkup ? y : HTML.escape(y)
                return .string(try r.built((left + right).markup(true)))
            }
            return .string(try r.built(x + y))
        case let (.list(x), .list(y)):
            try r.checkLength(x.count + y.count)
            return .list(x + y)
        case let (.tuple(x), .tuple(y)):
            try r.checkLength(x.count + y.count)
            return .tuple(x + y)
        default:
            if let x = a.integer, let y = b.integer {
                let (v, o) = x.addingReportingOverflow(y)
                if o { throw overflow() }
                return .int(v)
            }
            if let x = number(a), let y = number(b) { return .float(x + y) }
            if case .string = a {
                throw .type("can only concatenate str (not \"\(b.typeName)\") to str")
            }
            if case .list = a { throw .type("can only concatenate list (not \"\(b.typeName)\") to list") }
            if case .tuple = a { throw .type("can only concatenate tuple (not \"\(b.typeName)\") to tuple") }
            throw unsupported("+", a, b)
        }
    }

    static func multiply(_ a: Value, _ b: Value, _ r: Renderer) throws(JinjaError) -> Value {
        if let x = a.integer, let y = b.integer {
            let (v, o) = x.multipliedReportingOverflow(by: y)
            if o { throw overflow() }
            return .int(v)
        }
        if let x = number(a), let y = number(b) { return .float(x * y) }
        func repeated(_ seq: Value, _ n: Int) throws(JinjaError) -> Value {
            let count = max(0, n)
            switch seq {
            case let .string(t):
                let (total, o) = t.utf8Count.multipliedReportingOverflow(by: count)
                if o || total > r.limits.maxOutputBytes { throw .limit(.outputSize) }
                var out = Text.empty
                for _ in 0..<count { out.append(t) }
                return .string(try r.built(out.markup(t.isMarkup)))
            case let .list(items), let .tuple(items):
                let (total, o) = items.count.multipliedReportingOverflow(by: count)
                if o { throw .limit(.sequenceLength) }
                try r.checkLength(total)
                var out: [Value] = []
                for _ in 0..<count { out += items }
                if case .list = seq { return .list(out) }
                return .tuple(out)
            default:
                throw unsupported("*", a, b)
            }
        }
        if let n = b.integer { return try repeated(a, n) }
        if let n = a.integer { return try repeated(b, n) }
        if case .string = a, case .float = b { throw .type("can't multiply sequence by non-int of type 'float'") }
        throw unsupported("*", a, b)
    }

    static func power(_ a: Value, _ b: Value) throws(JinjaError) -> Value {
        if let x = a.integer, let y = b.integer {
            if y < 0 {
                if x == 0 { throw .type("0.0 cannot be raised to a negative power") }
                return .float(pow(Double(x), Double(y)))
            }
            var result = 1, base = x, e = y
            while e > 0 {
                if e & 1 == 1 {
                    let (v, o) = result.multipliedReportingOverflow(by: base)
                    if o { throw overflow() }
                    result = v
                }
                e >>= 1
                if e > 0 {
                    let (v, o) = base.multipliedReportingOverflow(by: base)
                    if o { throw overflow() }
                    base = v
                }
            }
            return .int(result)
        }
        guard let x = number(a), let y = number(b) else { throw unsupported("** or pow()", a, b) }
        if x == 0, y < 0 { throw .type("0.0 cannot be raised to a negative power") }
        if x < 0, y.rounded() != y { throw .type("complex results are not supported") }
        let v = pow(x, y)
        if v.isInfinite, x.isFinite, y.isFinite { throw .type("(34, 'Numerical result out of range')") }
        return .float(v)
    }

    // MARK: - Comparison

    /// Python's `==`.
    static func equal(_ a: Value, _ b: Value, depth: Int = 0) -> Bool {
        guard depth < 512 else { return false }
        switch (a, b) {
        case (.undefined, .undefined), (.none, .none): return true
        case let (.string(x), .string(y)): return x.string.isExactly(y.string)
        case let (.list(x), .list(y)), let (.tuple(x), .tuple(y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1, depth: depth + 1) }
        case let (.dict(x), .dict(y)):
            guard x.count == y.count else { return false }
            for (k, v) in x.pairs {
                guard let other = try? y.get(k), equal(v, other, depth: depth + 1) else { return false }
            }
            return true
        case let (.view(kx, x), .view(ky, y)):
            guard kx == ky, kx != .values, x.count == y.count else { return false }
            for (k, v) in x.pairs {
                guard let other = try? y.get(k) else { return false }
                if kx == .items, !equal(v, other, depth: depth + 1) { return false }
            }
            return true
        case let (.namespace(x), .namespace(y)): return x === y
        case let (.macro(x), .macro(y)): return x === y
        case let (.loop(x), .loop(y)): return x === y
        case let (.iterator(x), .iterator(y)): return x === y
        case let (.function(x), .function(y)): return x == y
        default:
            if let x = a.integer, let y = b.integer { return x == y }
            if isFloat(a) || isFloat(b), let x = number(a), let y = number(b) {
                // int vs float compares exactly, as Python does.
                if let i = a.integer, case let .float(d) = b { return exactEqual(i, d) }
                if let i = b.integer, case let .float(d) = a { return exactEqual(i, d) }
                return x == y
            }
            return false
        }
    }

    static func exactEqual(_ i: Int, _ d: Double) -> Bool {
        guard d.isFinite, d.rounded() == d, let j = Int(exactly: d) else { return false }
        return i == j
    }

    /// Python's `<` (and, swapped, `>`); `orEqual` gives `<=`.
    static func less(_ a: Value, _ b: Value, orEqual: Bool, op: String, depth: Int = 0) throws(JinjaError) -> Bool {
        try checkDefined(a, b)
        if depth > 512 { throw .limit(.nesting) }
        switch (a, b) {
        case let (.string(x), .string(y)):
            return orEqual ? !y.string.isBefore(x.string) : x.string.isBefore(y.string)
        case let (.list(x), .list(y)), let (.tuple(x), .tuple(y)):
            for (p, q) in zip(x, y) where !equal(p, q) {
                return try less(p, q, orEqual: false, op: op, depth: depth + 1)
            }
            return orEqual ? x.count <= y.count : x.count < y.count
        default:
            if let x = a.integer, let y = b.integer { return orEqual ? x <= y : x < y }
            if let x = number(a), let y = number(b) { return orEqual ? x <= y : x < y }
            throw .type("'\(op)' not supported between instances of '\(a.typeName)' and '\(b.typeName)'")
        }
    }

    /// Python's `item in container`.
    static func contains(_ container: Value, _ item: Value, _ r: Renderer) throws(JinjaError) -> Bool {
        switch container {
        case let .string(s):
            if case let .undefined(u) = item { throw u.error }
            guard case let .string(needle) = item else {
                throw .type("'in <string>' requires string as left operand, not \(item.typeName)")
            }
            return needle.isEmpty || s.string.utf8.firstRange(of: needle.string.utf8) != nil
        case let .list(items), let .tuple(items):
            try r.tick(items.count)
            return items.contains { equal($0, item) }
        case let .dict(d):
            return try d.contains(item)
        case let .view(kind, d):
            switch kind {
            case .keys: return try d.contains(item)
            case .values: return d.values.contains { equal($0, item) }
            case .items:
                guard case let .tuple(pair) = item, pair.count == 2, let v = try d.get(pair[0]) else { return false }
                return equal(v, pair[1])
            }
        case .undefined:
            return false
        case let .iterator(it):
            while let x = try it.next() {
                try r.tick(1)
                if equal(x, item) { return true }
            }
            return false
        default:
            throw .type("argument of type '\(container.typeName)' is not iterable")
        }
    }
}
