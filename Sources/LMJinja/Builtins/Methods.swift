/// Python methods on template values: `str` (and `Markup`), `dict`, `list`/`tuple`, numbers,
/// and `loop.cycle`/`loop.changed`. Mutating list and dict methods never get here: the sandbox
/// turns them into undefined values whose call is a security error.
enum Methods {
    static func call(_ receiver: Value, _ name: String, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        switch receiver {
        case let .string(t): return try StringMethods.call(t, name, positional, keyword, r)
        case let .dict(d): return try dict(d, name, positional, keyword, r)
        case let .list(items), let .tuple(items): return try sequence(receiver, items, name, positional, keyword, r)
        case let .loop(state):
            switch name {
            case "cycle":
                guard keyword.isEmpty else { throw .type("cycle() takes no keyword arguments") }
                guard !positional.isEmpty else { throw .type("no items for cycling given") }
                return positional[((state.index0 % positional.count) + positional.count) % positional.count]
            case "changed":
                guard keyword.isEmpty else { throw .type("changed() takes no keyword arguments") }
                return .bool(state.changed(positional))
            default: break
            }
        case .int, .bool:
            _ = try Binding(name, [], positional, keyword)
            guard let i = receiver.integer else { break }
            switch name {
            case "bit_length": return .int(i == 0 ? 0 : Int.bitWidth - i.magnitude.leadingZeroBitCount)
            case "bit_count": return .int(i.magnitude.nonzeroBitCount)
            case "conjugate": return .int(i)
            default: break
            }
        case let .float(d):
            _ = try Binding(name, [], positional, keyword)
            switch name {
            case "is_integer": return .bool(d.isFinite && d.rounded() == d)
            case "conjugate": return .float(d)
            default: break
            }
        default:
            break
        }
        throw .unsupportedHere("method '\(name)' of '\(receiver.typeName)'")
    }

    static func dict(_ d: Dict, _ name: String, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        guard keyword.isEmpty else { throw .type("\(name)() takes no keyword arguments") }
        switch name {
        case "get":
            guard (1...2).contains(positional.count) else { throw .type("get expected 1 or 2 arguments, got \(positional.count)") }
            return try d.get(positional[0]) ?? (positional.count == 2 ? positional[1] : .none)
        case "items", "keys", "values":
            guard positional.isEmpty else { throw .type("\(name)() takes no arguments (\(positional.count) given)") }
            return .view(DictView(rawValue: "dict_" + name) ?? .items, d)
        case "copy":
            guard positional.isEmpty else { throw .type("copy() takes no arguments (\(positional.count) given)") }
            return .dict(d)
        default:
            throw .unsupportedHere("method '\(name)' of 'dict'")
        }
    }

    static func sequence(_ receiver: Value, _ items: [Value], _ name: String, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        guard keyword.isEmpty else { throw .type("\(name)() takes no keyword arguments") }
        try r.tick(items.count)
        switch name {
        case "count":
            guard positional.count == 1 else { throw .type("count() takes exactly one argument (\(positional.count) given)") }
            return .int(items.filter { Operators.equal($0, positional[0]) }.count)
        case "index":
            guard (1...3).contains(positional.count) else { throw .type("index expected at least 1 argument, got \(positional.count)") }
            var start = 0, end = items.count
            func clamp(_ v: Value) throws(JinjaError) -> Int {
                guard let i = v.integer else { throw .type("slice indices must be integers or have an __index__ method") }
                return i < 0 ? max(0, i + items.count) : min(i, items.count)
            }
            if positional.count > 1 { start = try clamp(positional[1]) }
            if positional.count > 2 { end = try clamp(positional[2]) }
            if start < end, let i = items[start..<end].firstIndex(where: { Operators.equal($0, positional[0]) }) { return .int(i) }
            throw .type("\(PythonRepr.repr(positional[0])) is not in \(receiver.typeName)")
        case "copy":
            if case .list = receiver, positional.isEmpty { return receiver }
        default:
            break
        }
        throw .unsupportedHere("method '\(name)' of '\(receiver.typeName)'")
    }
}
