extension Renderer {
    func evalCall(_ calleeExpr: Expr, _ args: Arguments, _ scope: Scope, at: JinjaSourceLocation, caller: Macro?) throws(JinjaError) -> Value {
        let callee = try eval(calleeExpr, scope)
        var (positional, keyword) = try evalArguments(args, scope)
        if let caller { keyword.append(("caller", .macro(caller))) }
        location = at
        return try call(callee, positional, keyword)
    }

    func call(_ callee: Value, _ positional: [Value], _ keyword: [(String, Value)]) throws(JinjaError) -> Value {
        switch callee {
        case let .undefined(u):
            throw u.error
        case let .macro(m):
            return try invoke(m, positional, keyword)
        case let .function(f):
            return try Globals.call(f, positional, keyword, self)
        case let .method(receiver, name):
            return try Methods.call(receiver.value, name, positional, keyword, self)
        default:
            throw .type("'\(callee.typeName)' object is not callable")
        }
    }

    /// Calls a macro with Python's binding rules as jinja2's `Macro.__call__` applies them:
    /// positional then keyword parameters, defaults evaluated at call time in the macro's scope
    /// (so they may use earlier parameters), unset parameters undefined, extra arguments an
    /// error unless the body reads `varargs`/`kwargs`.
    func invoke(_ macro: Macro, _ positional: [Value], _ keyword: [(String, Value)]) throws(JinjaError) -> Value {
        let d = macro.definition
        var kwargs = keyword
        func pop(_ name: String) -> Value? {
            guard let i = kwargs.firstIndex(where: { $0.0 == name }) else { return nil }
            return kwargs.remove(at: i).1
        }
        let names = d.parameters.map(\.name)
        var arguments: [Value?] = positional.prefix(names.count).map { $0 }
        var foundCaller = false
        if arguments.count != names.count {
            for name in names[arguments.count...] {
                arguments.append(pop(name))
                if name == "caller" { foundCaller = true }
            }
        } else {
            foundCaller = names.contains("caller")
        }
        let scope = Scope(parent: macro.scope)
        if d.readsCaller, !foundCaller {
            scope.set("caller", pop("caller") ?? .undefined(Undefined(message: "No caller defined")))
        }
        if d.readsKwargs {
            var dict = Dict()
            for (k, v) in kwargs { dict.set(k, v) }
            scope.set("kwargs", .dict(dict))
        } else if let (first, _) = kwargs.first {
            if first == "caller" {
                throw .type("macro '\(d.name)' was invoked with two values for the special caller argument. This is most likely a bug.")
            }
            throw .type("macro '\(d.name)' takes no keyword argument '\(first)'")
        }
        if d.readsVarargs {
            scope.set("varargs", .tuple(Array(positional.dropFirst(names.count))))
        } else if positional.count > names.count {
            throw .type("macro '\(d.name)' takes not more than \(names.count) argument(s)")
        }
        try enterCall()
        defer { leaveCall() }
        try tick(1)
        for (i, parameter) in d.parameters.enumerated() {
            if let value = arguments[i] {
                scope.set(parameter.name, value)
            } else if let defaultValue = parameter.defaultValue {
                scope.set(parameter.name, try eval(defaultValue, scope))
            } else {
                scope.set(parameter.name, .undefined(Undefined(message: "parameter '\(parameter.name)' was not provided")))
            }
        }
        var out = Text.empty
        _ = try exec(d.body, scope, &out)
        return .string(out)
    }
}
