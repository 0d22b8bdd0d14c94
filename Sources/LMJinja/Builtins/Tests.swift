/// jinja2's tests (`x is defined`, `x is string`, `x is divisibleby 3`...), with Python's
/// meanings: `mapping` is a dict, `sequence` anything with a length and indexing (dicts and
/// strings included, and an undefined value), `iterable` anything `for` accepts, `number`
/// includes booleans.
enum Tests {
    static func apply(_ name: String, _ v: Value, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Bool {
        func one() throws(JinjaError) -> Value {
            let b = try Binding(name, ["other"], positional, keyword)
            return try b.required("other", name)
        }
        func noArguments() throws(JinjaError) {
            _ = try Binding(name, [], positional, keyword)
        }
        switch name {
        case "defined": try noArguments(); return !v.isUndefined
        case "undefined": try noArguments(); return v.isUndefined
        case "none": try noArguments(); if case .none = v { return true }; return false
        case "boolean": try noArguments(); if case .bool = v { return true }; return false
        case "false": try noArguments(); if case .bool(false) = v { return true }; return false
        case "true": try noArguments(); if case .bool(true) = v { return true }; return false
        case "integer": try noArguments(); if case .int = v { return true }; return false
        case "float": try noArguments(); if case .float = v { return true }; return false
        case "number":
            try noArguments()
            switch v { case .int, .float, .bool: return true; default: return false }
        case "string": try noArguments(); if case .string = v { return true }; return false
        case "mapping": try noArguments(); if case .dict = v { return true }; return false
        case "sequence":
            try noArguments()
            switch v { case .list, .tuple, .string, .dict, .undefined: return true; default: return false }
        case "iterable":
            try noArguments()
            switch v { case .list, .tuple, .string, .dict, .view, .iterator, .undefined, .loop: return true; default: return false }
        case "callable":
            try noArguments()
            switch v { case .macro, .function, .method, .undefined, .loop: return true; default: return false }
        case "escaped":
            try noArguments()
            if case let .string(t) = v { return t.isMarkup }
            return false
        case "lower", "upper":
            // str.islower(): no uppercase or titlecase character and at least one lowercase one.
            try noArguments()
            let s = try PythonRepr.str(v, r).scalars
            if name == "lower" {
                return !s.contains { PythonUnicode.isUpper($0) || PythonUnicode.isTitle($0) } && s.contains(where: PythonUnicode.isLower)
            }
            return !s.contains { PythonUnicode.isLower($0) || PythonUnicode.isTitle($0) } && s.contains(where: PythonUnicode.isUpper)
        case "odd", "even":
            try noArguments()
            let m = try Operators.binary(.mod, v, .int(2), r)
            return Operators.equal(m, .int(name == "odd" ? 1 : 0))
        case "divisibleby":
            let n = try one()
            return Operators.equal(try Operators.binary(.mod, v, n, r), .int(0))
        case "filter":
            try noArguments()
            if case let .string(t) = v { return Names.jinja2Filters.contains(t.string) }
            return false
        case "test":
            try noArguments()
            if case let .string(t) = v { return Names.tests.contains(t.string) }
            return false
        case "sameas":
            let other = try one()
            switch (v, other) {
            case (.none, .none): return true
            case let (.bool(a), .bool(b)): return a == b
            case let (.int(a), .int(b)): return a == b && (-5...256).contains(a)
            case let (.namespace(a), .namespace(b)): return a === b
            case let (.macro(a), .macro(b)): return a === b
            default: return false
            }
        case "in":
            return try Operators.contains(try one(), v, r)
        case "==", "eq", "equalto": return Operators.equal(v, try one())
        case "!=", "ne": return !Operators.equal(v, try one())
        case ">", "gt", "greaterthan": return try Operators.less(try one(), v, orEqual: false, op: ">")
        case ">=", "ge": return try Operators.less(try one(), v, orEqual: true, op: ">=")
        case "<", "lt", "lessthan": return try Operators.less(v, try one(), orEqual: false, op: "<")
        case "<=", "le": return try Operators.less(v, try one(), orEqual: true, op: "<=")
        default:
            throw .runtime("No test named '\(name)' found.")
        }
    }
}
