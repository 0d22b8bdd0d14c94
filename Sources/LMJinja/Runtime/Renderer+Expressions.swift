extension Renderer {
    /// The value of `e` in `scope`. `caller` is the call block body passed to a macro call.
    func eval(_ e: Expr, _ scope: Scope, caller: Macro? = nil) throws(JinjaError) -> Value {
        location = e.location
        switch e.kind {
        case let .string(s): return .string(.template(s))
        case let .integer(i): return .int(i)
        case let .float(d): return .float(d)
        case let .bool(b): return .bool(b)
        case .none: return .none
        case let .name(n):
            if let v = scope.lookup(n) { return v }
            if let f = GlobalFunction(rawValue: n) { return .function(f) }
            return .undefined(.named(n))
        case let .list(items):
            try checkLength(items.count)
            var out: [Value] = []
            for item in items { out.append(try eval(item, scope)) }
            return .list(out)
        case let .tuple(items):
            var out: [Value] = []
            for item in items { out.append(try eval(item, scope)) }
            return .tuple(out)
        case let .dict(pairs):
            var d = Dict()
            for (k, v) in pairs {
                let key = try eval(k, scope)
                let value = try eval(v, scope)
                location = k.location
                try d.set(key, value)
            }
            return .dict(d)
        case let .getattr(base, name):
            let v = try eval(base, scope)
            location = e.location
            return try Attributes.getattr(v, name)
        case let .getitem(base, index):
            let v = try eval(base, scope)
            if case let .slice(start, stop, step) = index.kind {
                let a = try start.map { (x) throws(JinjaError) in try eval(x, scope) }
                let b = try stop.map { (x) throws(JinjaError) in try eval(x, scope) }
                let c = try step.map { (x) throws(JinjaError) in try eval(x, scope) }
                location = e.location
                return try Attributes.slice(v, start: a, stop: b, step: c)
            }
            let key = try eval(index, scope)
            location = e.location
            return try Attributes.getitem(v, key)
        case .slice:
            throw .runtime("slice outside a subscript")
        case let .call(callee, args):
            return try evalCall(callee, args, scope, at: e.location, caller: caller)
        case .filter:
            return try evalFilter(e, scope, input: nil)
        case let .test(operand, name, args):
            let v = try eval(operand, scope)
            let (positional, keyword) = try evalArguments(args, scope)
            location = e.location
            return .bool(try Tests.apply(name, v, positional, keyword, self))
        case let .not(x):
            return .bool(!(try eval(x, scope).isTruthy))
        case let .negate(x):
            let v = try eval(x, scope)
            location = e.location
            switch v {
            case let .undefined(u): throw u.error
            case let .float(d): return .float(-d)
            default:
                guard let i = v.integer else { throw .type("bad operand type for unary -: '\(v.typeName)'") }
                if i == .min { throw Operators.overflow() }
                return .int(-i)
            }
        case let .plus(x):
            let v = try eval(x, scope)
            location = e.location
            switch v {
            case let .undefined(u): throw u.error
            case .float: return v
            default:
                guard let i = v.integer else { throw .type("bad operand type for unary +: '\(v.typeName)'") }
                return .int(i)
            }
        case let .binary(op, a, b):
            let x = try eval(a, scope)
            let y = try eval(b, scope)
            location = e.location
            return try Operators.binary(op, x, y, self)
        case let .and(a, b):
            let x = try eval(a, scope)
            return x.isTruthy ? try eval(b, scope) : x
        case let .or(a, b):
            let x = try eval(a, scope)
            return x.isTruthy ? x : try eval(b, scope)
        case let .concat(items):
            var out = Text.empty
            for item in items { out.append(try PythonRepr.str(try eval(item, scope), self)) }
            location = e.location
            return .string(try built(out.markup(false)))
        case let .compare(first, rest):
            var left = try eval(first, scope)
            for (op, operandExpr) in rest {
                let right = try eval(operandExpr, scope)
                location = operandExpr.location
                if !(try compare(op, left, right)) { return .bool(false) }
                left = right
            }
            return .bool(true)
        case let .conditional(test, then, otherwise):
            if try eval(test, scope).isTruthy { return try eval(then, scope) }
            if let otherwise { return try eval(otherwise, scope) }
            return .undefined(Undefined(message: "the inline if-expression on line \(e.location.line) evaluated to false and no else section was defined."))
        }
    }

    func compare(_ op: CompareOp, _ a: Value, _ b: Value) throws(JinjaError) -> Bool {
        switch op {
        case .eq: return Operators.equal(a, b)
        case .ne: return !Operators.equal(a, b)
        case .lt: return try Operators.less(a, b, orEqual: false, op: "<")
        case .lteq: return try Operators.less(a, b, orEqual: true, op: "<=")
        case .gt: return try Operators.less(b, a, orEqual: false, op: ">")
        case .gteq: return try Operators.less(b, a, orEqual: true, op: ">=")
        case .isIn: return try Operators.contains(b, a, self)
        case .notIn: return !(try Operators.contains(b, a, self))
        }
    }

    /// A filter expression (a chain of them); `input` stands for a nil operand (block filters).
    func evalFilter(_ e: Expr, _ scope: Scope, input: Value?) throws(JinjaError) -> Value {
        guard case let .filter(operand, name, args) = e.kind else { return try eval(e, scope) }
        let value: Value
        if let operand {
            value = try evalFilter(operand, scope, input: input)
        } else {
            value = input ?? .undefined(.named("input"))
        }
        let (positional, keyword) = try evalArguments(args, scope)
        location = e.location
        return try Filters.apply(name, value, positional, keyword, self)
    }

    /// Positional and keyword argument values, with `*args` and `**kwargs` expanded.
    func evalArguments(_ args: Arguments, _ scope: Scope) throws(JinjaError) -> ([Value], [(String, Value)]) {
        var positional: [Value] = []
        for a in args.positional { positional.append(try eval(a, scope)) }
        var keyword: [(String, Value)] = []
        for k in args.keyword { keyword.append((k.name, try eval(k.value, scope))) }
        if let star = args.star {
            positional += try Iteration.items(try eval(star, scope), self)
        }
        if let doubleStar = args.doubleStar {
            let v = try eval(doubleStar, scope)
            guard case let .dict(d) = v else { throw .type("argument after ** must be a mapping, not \(v.typeName)") }
            for (k, value) in d.pairs {
                guard case let .string(name) = k else { throw .type("keywords must be strings") }
                if keyword.contains(where: { $0.0 == name.string }) {
                    throw .type("got multiple values for keyword argument '\(name.string)'")
                }
                keyword.append((name.string, value))
            }
        }
        return (positional, keyword)
    }
}
