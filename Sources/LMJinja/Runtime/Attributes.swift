/// `value.name` and `value[key]` as jinja2's sandbox resolves them.
///
/// `.name` prefers the Python attribute (so `d.items` is the method even when the dict has an
/// `"items"` key) and falls back to the item; `[key]` prefers the item and falls back to the
/// attribute. Only attributes of our own values exist: Python internals (`__class__`, `mro`...)
/// are undefined values, and methods that mutate a list or dict are undefined values whose use
/// is a ``JinjaError/security(message:at:)`` error, as in `ImmutableSandboxedEnvironment`.
enum Attributes {
    static func getattr(_ v: Value, _ name: String) throws(JinjaError) -> Value {
        if case let .undefined(u) = v { throw u.error }
        if let attribute = try attribute(v, name) { return attribute }
        if case let .dict(d) = v, let item = d.get(name) { return item }
        return .undefined(.missing(attribute: name, of: v))
    }

    static func getitem(_ v: Value, _ key: Value) throws(JinjaError) -> Value {
        switch v {
        case let .undefined(u):
            throw u.error
        case let .dict(d):
            if let item = try? d.get(key) { return item }
        case let .list(items), let .tuple(items):
            if let i = key.integer, let j = index(i, count: items.count) { return items[j] }
        case let .string(t):
            if let i = key.integer {
                let scalars = t.utf8Offsets()
                if let j = index(i, count: scalars.count - 1) {
                    return .string(t.slice(scalars: j..<(j + 1), offsets: scalars).markup(t.isMarkup))
                }
            }
        default:
            break
        }
        if case let .string(name) = key, let attribute = try attribute(v, name.string) { return attribute }
        return .undefined(.missing(item: key, of: v))
    }

    private static func index(_ i: Int, count: Int) -> Int? {
        let j = i < 0 ? i + count : i
        return j >= 0 && j < count ? j : nil
    }

    /// `v[start:stop:step]`; non-integer bounds give an undefined value (jinja2 swallows the
    /// `TypeError`), a zero step fails as in Python.
    static func slice(_ v: Value, start: Value?, stop: Value?, step: Value?) throws(JinjaError) -> Value {
        if case let .undefined(u) = v { throw u.error }
        func bound(_ b: Value?) -> Int?? {
            guard let b else { return .some(nil) }
            if case .none = b { return .some(nil) }
            if let i = b.integer { return .some(i) }
            return nil
        }
        guard let a = bound(start), let b = bound(stop), let c = bound(step) else {
            return .undefined(Undefined(message: "\(v.typeName) object has no element slice"))
        }
        let count: Int
        switch v {
        case let .list(items), let .tuple(items): count = items.count
        case let .string(t): count = t.scalarCount
        default: return .undefined(Undefined(message: "\(v.typeName) object has no element slice"))
        }
        if c == 0 { throw .type("slice step cannot be zero") }
        let indices = sliceIndices(count: count, start: a, stop: b, step: c ?? 1)
        switch v {
        case let .list(items): return .list(indices.map { items[$0] })
        case let .tuple(items): return .tuple(indices.map { items[$0] })
        case let .string(t):
            let offsets = t.utf8Offsets()
            if c == nil || c == 1, let first = indices.first {
                return .string(t.slice(scalars: first..<(first + indices.count), offsets: offsets).markup(t.isMarkup))
            }
            var out = Text.empty
            for i in indices { out.append(t.slice(scalars: i..<(i + 1), offsets: offsets)) }
            return .string(out.markup(t.isMarkup))
        default:
            return .undefined(Undefined(message: "\(v.typeName) object has no element slice"))
        }
    }

    /// The indices Python's `slice(start, stop, step).indices(count)` visits.
    static func sliceIndices(count: Int, start: Int?, stop: Int?, step: Int) -> [Int] {
        func clamp(_ x: Int?, _ defaultValue: Int, lower: Int, upper: Int) -> Int {
            guard let x else { return defaultValue }
            if x < 0 { return max(x + count, lower) }
            return min(x, upper)
        }
        var out: [Int] = []
        if step > 0 {
            let lo = clamp(start, 0, lower: 0, upper: count)
            let hi = clamp(stop, count, lower: 0, upper: count)
            var i = lo
            while i < hi { out.append(i); i += step }
        } else {
            let lo = clamp(start, count - 1, lower: -1, upper: count - 1)
            let hi = clamp(stop, -1, lower: -1, upper: count - 1)
            var i = lo
            while i > hi { out.append(i); i += step }
        }
        return out
    }

    /// The Python attribute `name` of `v`, or nil when the type has none by that name.
    static func attribute(_ v: Value, _ name: String) throws(JinjaError) -> Value? {
        func method() -> Value { .method(receiver: Box(v), name: name) }
        if name.hasPrefix("__"), name.hasSuffix("__"), name.count > 4 {
            if case .namespace = v {} else { return .undefined(.unsafe(name, of: v)) }
        }
        switch v {
        case .dict:
            if Names.mutatingDictMethods.contains(name) { return .undefined(.unsafe(name, of: v)) }
            if Names.dictMethods.contains(name) { return method() }
        case let .string(t):
            if Names.stringMethods.contains(name) || (t.isMarkup && Names.markupMethods.contains(name)) { return method() }
        case .list:
            if Names.mutatingListMethods.contains(name) { return .undefined(.unsafe(name, of: v)) }
            if Names.sequenceMethods.contains(name) || name == "copy" { return method() }
        case .tuple:
            if Names.sequenceMethods.contains(name) { return method() }
        case .int, .bool:
            if let i = v.integer {
                switch name {
                case "real", "numerator": return .int(i)
                case "imag": return .int(0)
                case "denominator": return .int(1)
                default: if Names.intMethods.contains(name) { return method() }
                }
            }
        case let .float(d):
            switch name {
            case "real": return .float(d)
            case "imag": return .float(0)
            default: if Names.floatMethods.contains(name) { return method() }
            }
        case let .namespace(n):
            guard let value = n.attributes.get(name) else { return nil }
            return name.hasPrefix("_") ? .undefined(.unsafe(name, of: v)) : value
        case let .macro(m):
            let d = m.definition
            switch name {
            case "name": return .template(d.name)
            case "arguments": return .tuple(d.parameters.map { .template($0.name) })
            case "catch_kwargs": return .bool(d.readsKwargs)
            case "catch_varargs": return .bool(d.readsVarargs)
            case "caller": return .bool(d.readsCaller)
            default: return nil
            }
        case let .loop(state):
            return try loopAttribute(state, name)
        default:
            return nil
        }
        return nil
    }

    static func loopAttribute(_ state: LoopState, _ name: String) throws(JinjaError) -> Value? {
        switch name {
        case "index0": return .int(state.index0)
        case "index": return .int(state.index0 + 1)
        case "revindex": return .int(try state.count() - state.index0)
        case "revindex0": return .int(try state.count() - state.index0 - 1)
        case "first": return .bool(state.isFirst)
        case "last": return .bool(try state.isLast())
        case "length": return .int(try state.count())
        case "depth": return .int(1)
        case "depth0": return .int(0)
        case "previtem":
            if state.isFirst { return .undefined(Undefined(message: "there is no previous item")) }
            return state.previous ?? .undefined(Undefined(message: "there is no previous item"))
        case "nextitem":
            return try state.peek() ?? .undefined(Undefined(message: "there is no next item"))
        case "cycle", "changed":
            return .method(receiver: Box(.loop(state)), name: name)
        default:
            return nil
        }
    }
}
