/// One render of a parsed template: executes statements into a provenance-tracked buffer and
/// keeps the ``JinjaLimits`` budget. Created per render, used on one thread.
final class Renderer {
    let limits: JinjaLimits
    let now: JinjaDateTime
    /// Position of the statement or expression being evaluated; errors thrown without a
    /// position get this one.
    var location = JinjaSourceLocation.unknown
    private var steps = 0
    private var bytesBuilt = 0
    private var callDepth = 0
    /// Context variables; the template's own top-level variables live in a child scope.
    let globals: Scope

    /// Bytes of strings a render may build in total (copies included): bounds the time a
    /// template can spend concatenating without ever exceeding the size of one string.
    var maxBytesBuilt: Int {
        let (total, overflow) = limits.maxOutputBytes.multipliedReportingOverflow(by: 64)
        return overflow ? .max : total
    }

    init(variables: [String: JinjaValue], options: JinjaRenderOptions, limits: JinjaLimits) throws(JinjaError) {
        self.limits = limits
        now = options.now ?? JinjaDateTime.localNow()
        globals = Scope(parent: nil)
        for (name, value) in variables {
            let origin: JinjaOrigin = options.trustedVariables.contains(name) ? .template : .data
            globals.set(name, try Self.convert(value, origin: origin, depth: 0, limits: limits))
        }
    }

    /// A caller's value as a template value; strings and keys get `origin`.
    static func convert(_ v: JinjaValue, origin: JinjaOrigin, depth: Int, limits: JinjaLimits) throws(JinjaError) -> Value {
        guard depth <= limits.maxNesting else { throw .limitExceeded(.nesting, at: .unknown) }
        switch v {
        case .null: return .none
        case let .bool(b): return .bool(b)
        case let .int(i): return .int(i)
        case let .double(d): return .float(d)
        case let .string(s): return .string(Text(s, origin: origin))
        case let .array(items):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try convert(item, origin: origin, depth: depth + 1, limits: limits)) }
            return .list(out)
        case let .object(pairs):
            var d = Dict()
            for (k, value) in pairs { d.set(k, try convert(value, origin: origin, depth: depth + 1, limits: limits), origin: origin) }
            return .dict(d)
        }
    }

    func run(_ body: [Stmt]) throws(JinjaError) -> Text {
        var out = Text.empty
        do {
            _ = try exec(body, Scope(parent: globals), &out)
        } catch {
            throw error.located(location)
        }
        return out
    }

    // MARK: - Budget

    /// Counts `n` steps: statements, invocations, loop iterations or items visited.
    func tick(_ n: Int) throws(JinjaError) {
        steps += n
        if steps > limits.maxSteps { throw .limit(.steps) }
    }

    /// Checks a newly built string against the size limits and counts its bytes.
    func built(_ t: Text) throws(JinjaError) -> Text {
        let n = t.utf8Count
        if n > limits.maxOutputBytes { throw .limit(.outputSize) }
        bytesBuilt += n
        if bytesBuilt > maxBytesBuilt { throw .limit(.outputSize) }
        return t
    }

    func checkLength(_ n: Int) throws(JinjaError) {
        if n > limits.maxSequenceLength { throw .limit(.sequenceLength) }
    }

    func enterCall() throws(JinjaError) {
        callDepth += 1
        if callDepth > limits.maxCallDepth { throw .limit(.callDepth) }
    }

    func leaveCall() { callDepth -= 1 }

    func write(_ t: Text, _ out: inout Text) throws(JinjaError) {
        guard !t.isEmpty else { return }
        bytesBuilt += t.utf8Count
        out.append(t)
        if out.utf8Count > limits.maxOutputBytes || bytesBuilt > maxBytesBuilt { throw .limit(.outputSize) }
    }

    // MARK: - Statements

    enum Flow { case normal, breakLoop, continueLoop }

    func exec(_ body: [Stmt], _ scope: Scope, _ out: inout Text) throws(JinjaError) -> Flow {
        for stmt in body {
            let flow = try exec(stmt, scope, &out)
            if flow != .normal { return flow }
        }
        return .normal
    }

    func exec(_ stmt: Stmt, _ scope: Scope, _ out: inout Text) throws(JinjaError) -> Flow {
        location = stmt.location
        try tick(1)
        switch stmt.kind {
        case let .text(s):
            try write(.template(s), &out)
        case let .output(e):
            let v = try eval(e, scope)
            try write(try PythonRepr.str(v, self), &out)
        case let .ifChain(branches, otherwise):
            for (test, body) in branches where try eval(test, scope).isTruthy {
                return try exec(body, scope, &out)
            }
            return try exec(otherwise, scope, &out)
        case let .forLoop(loop):
            return try execFor(loop, scope, &out)
        case let .set(target, e):
            try checkNamespaces(target, scope)
            try assign(target, try eval(e, scope), scope)
        case let .setBlock(target, filter, body):
            let inner = Scope(parent: scope)
            var buffer = Text.empty
            let flow = try exec(body, inner, &buffer)
            if flow != .normal { return flow }
            var value = Value.string(buffer)
            if let filter { value = try evalFilter(filter, inner, input: value) }
            try checkNamespaces(target, scope)
            try assign(target, value, scope)
        case let .macro(definition):
            scope.set(definition.name, .macro(Macro(definition, scope: scope)))
        case let .callBlock(caller, call):
            let v = try eval(call, scope, caller: Macro(caller, scope: scope))
            try write(try PythonRepr.str(v, self), &out)
        case let .filterBlock(filter, body):
            let inner = Scope(parent: scope)
            var buffer = Text.empty
            let flow = try exec(body, inner, &buffer)
            if flow != .normal { return flow }
            let v = try evalFilter(filter, inner, input: .string(buffer))
            try write(try PythonRepr.str(v, self), &out)
        case let .with(assignments, body):
            let inner = Scope(parent: scope)
            for (target, e) in assignments { try assign(target, try eval(e, scope), inner) }
            return try exec(body, inner, &out)
        case let .generation(body):
            try enterCall()
            defer { leaveCall() }
            _ = try exec(body, Scope(parent: scope), &out)
        case .breakLoop:
            return .breakLoop
        case .continueLoop:
            return .continueLoop
        }
        return .normal
    }

    private func execFor(_ loop: ForLoop, _ scope: Scope, _ out: inout Text) throws(JinjaError) -> Flow {
        let iterable = try eval(loop.iterable, scope)
        let source = try Iteration.source(iterable, filtered: loop.filter != nil, self)
        let state = LoopState(source: source) { [unowned self] (item: Value) throws(JinjaError) -> Bool in
            guard let test = loop.filter else { return true }
            try self.tick(1)
            let testScope = Scope(parent: scope)
            try self.assign(loop.target, item, testScope)
            return try self.eval(test, testScope).isTruthy
        }
        var ran = false
        while let item = try state.advance() {
            try tick(1)
            ran = true
            let iteration = Scope(parent: scope)
            iteration.set("loop", .loop(state))
            try assign(loop.target, item, iteration)
            if try exec(loop.body, iteration, &out) == .breakLoop { break }
        }
        if !ran { return try exec(loop.otherwise, Scope(parent: scope), &out) }
        return .normal
    }

    /// jinja2 checks `ns` is a namespace before evaluating `{% set ns.attr = ... %}`.
    private func checkNamespaces(_ target: Target, _ scope: Scope) throws(JinjaError) {
        switch target {
        case .name: return
        case let .attribute(ns, _):
            guard case .namespace = scope.lookup(ns) else { throw .runtime("cannot assign attribute on non-namespace object") }
        case let .tuple(items):
            for t in items { try checkNamespaces(t, scope) }
        }
    }

    func assign(_ target: Target, _ value: Value, _ scope: Scope) throws(JinjaError) {
        switch target {
        case let .name(n):
            scope.set(n, value)
        case let .attribute(ns, attribute):
            guard case let .namespace(object) = scope.lookup(ns) else {
                throw .runtime("cannot assign attribute on non-namespace object")
            }
            object.attributes.set(attribute, value)
        case let .tuple(targets):
            let items = try Iteration.unpack(value, count: targets.count, self)
            for (t, v) in zip(targets, items) { try assign(t, v, scope) }
        }
    }
}
