/// Load-time checks jinja2 makes when it compiles a template, plus LMJinja's own:
///
/// - a filter or test jinja2 does not know fails the load, except inside an `if` or an inline
///   `a if b else c` (jinja2's "soft" frames), where it fails only if evaluated;
/// - a filter, test, method or global function jinja2 has but LMJinja does not implement is
///   ``JinjaError/unsupported(construct:at:)`` wherever it appears.
enum Checker {
    static func check(_ body: [Stmt]) throws(JinjaError) {
        for stmt in body { try check(stmt, soft: false) }
    }

    private static func check(_ stmt: Stmt, soft: Bool) throws(JinjaError) {
        switch stmt.kind {
        case .text, .breakLoop, .continueLoop:
            break
        case let .output(e):
            try check(e, soft: soft)
        case let .ifChain(branches, otherwise):
            for (test, body) in branches {
                try check(test, soft: true)
                for s in body { try check(s, soft: true) }
            }
            for s in otherwise { try check(s, soft: true) }
        case let .forLoop(loop):
            try check(loop.iterable, soft: soft)
            if let f = loop.filter { try check(f, soft: false) }
            for s in loop.body + loop.otherwise { try check(s, soft: false) }
        case let .set(_, value):
            try check(value, soft: soft)
        case let .setBlock(_, filter, body):
            if let filter { try check(filter, soft: false) }
            for s in body { try check(s, soft: false) }
        case let .macro(m):
            try check(m, soft: soft)
        case let .callBlock(caller, call):
            try check(caller, soft: soft)
            try check(call, soft: soft)
        case let .filterBlock(filter, body):
            try check(filter, soft: false)
            for s in body { try check(s, soft: false) }
        case let .with(assignments, body):
            for a in assignments { try check(a.value, soft: soft) }
            for s in body { try check(s, soft: false) }
        case let .generation(body):
            for s in body { try check(s, soft: false) }
        }
    }

    private static func check(_ m: MacroDefinition, soft: Bool) throws(JinjaError) {
        for p in m.parameters { if let d = p.defaultValue { try check(d, soft: false) } }
        for s in m.body { try check(s, soft: false) }
    }

    private static func check(_ args: Arguments, soft: Bool) throws(JinjaError) {
        for a in args.positional { try check(a, soft: soft) }
        for k in args.keyword { try check(k.value, soft: soft) }
        if let s = args.star { try check(s, soft: soft) }
        if let s = args.doubleStar { try check(s, soft: soft) }
    }

    private static func check(_ e: Expr?, soft: Bool) throws(JinjaError) {
        guard let e else { return }
        switch e.kind {
        case .string, .integer, .float, .bool, .none, .name:
            break
        case let .list(items), let .tuple(items), let .concat(items):
            for i in items { try check(i, soft: soft) }
        case let .dict(pairs):
            for p in pairs { try check(p.key, soft: soft); try check(p.value, soft: soft) }
        case let .getattr(base, _):
            try check(base, soft: soft)
        case let .getitem(base, index):
            try check(base, soft: soft)
            try check(index, soft: soft)
        case let .slice(a, b, c):
            try check(a, soft: soft); try check(b, soft: soft); try check(c, soft: soft)
        case let .call(callee, args):
            if case let .getattr(_, method) = callee.kind, Names.unsupportedMethods.contains(method) {
                throw .unsupported(construct: "method '\(method)'", at: e.location)
            }
            if case let .name(function) = callee.kind, Names.unsupportedGlobals.contains(function) {
                throw .unsupported(construct: "global function '\(function)'", at: e.location)
            }
            try check(callee, soft: soft)
            try check(args, soft: soft)
        case let .filter(operand, name, args):
            if !Names.filters.contains(name) {
                if Names.jinja2Filters.contains(name) { throw .unsupported(construct: "filter '\(name)'", at: e.location) }
                if !soft { throw .syntax(message: "No filter named '\(name)'.", at: e.location) }
            }
            try check(operand, soft: soft)
            try check(args, soft: soft)
        case let .test(operand, name, args):
            if !Names.tests.contains(name), !soft { throw .syntax(message: "No test named '\(name)'.", at: e.location) }
            try check(operand, soft: soft)
            try check(args, soft: soft)
        case let .not(x), let .negate(x), let .plus(x):
            try check(x, soft: soft)
        case let .binary(_, a, b), let .and(a, b), let .or(a, b):
            try check(a, soft: soft); try check(b, soft: soft)
        case let .compare(first, rest):
            try check(first, soft: soft)
            for r in rest { try check(r.operand, soft: soft) }
        case let .conditional(test, then, otherwise):
            try check(test, soft: true); try check(then, soft: true); try check(otherwise, soft: true)
        }
    }
}

/// The names a macro body reads, to decide (as jinja2 does) whether the macro takes `caller`,
/// `kwargs` and `varargs`: every `name` expression anywhere in the body, nested macros included.
struct NameReads {
    private var names: Set<String> = []

    init(_ body: [Stmt]) {
        for s in body { visit(s) }
    }

    func contains(_ name: String) -> Bool { names.contains(name) }

    private mutating func visit(_ stmt: Stmt) {
        switch stmt.kind {
        case .text, .breakLoop, .continueLoop: break
        case let .output(e): visit(e)
        case let .ifChain(branches, otherwise):
            for b in branches { visit(b.test); b.body.forEach { visit($0) } }
            otherwise.forEach { visit($0) }
        case let .forLoop(l):
            visit(l.iterable); visit(l.filter)
            (l.body + l.otherwise).forEach { visit($0) }
        case let .set(_, v): visit(v)
        case let .setBlock(_, f, body): visit(f); body.forEach { visit($0) }
        case let .macro(m): visit(m)
        case let .callBlock(caller, call): visit(caller); visit(call)
        case let .filterBlock(f, body): visit(f); body.forEach { visit($0) }
        case let .with(assignments, body): assignments.forEach { visit($0.value) }; body.forEach { visit($0) }
        case let .generation(body): body.forEach { visit($0) }
        }
    }

    private mutating func visit(_ m: MacroDefinition) {
        m.parameters.forEach { visit($0.defaultValue) }
        m.body.forEach { visit($0) }
    }

    private mutating func visit(_ a: Arguments) {
        a.positional.forEach { visit($0) }
        a.keyword.forEach { visit($0.value) }
        visit(a.star); visit(a.doubleStar)
    }

    private mutating func visit(_ e: Expr?) {
        guard let e else { return }
        switch e.kind {
        case .string, .integer, .float, .bool, .none: break
        case let .name(n): names.insert(n)
        case let .list(items), let .tuple(items), let .concat(items): items.forEach { visit($0) }
        case let .dict(pairs): pairs.forEach { visit($0.key); visit($0.value) }
        case let .getattr(b, _): visit(b)
        case let .getitem(b, i): visit(b); visit(i)
        case let .slice(a, b, c): visit(a); visit(b); visit(c)
        case let .call(c, args): visit(c); visit(args)
        case let .filter(o, _, args): visit(o); visit(args)
        case let .test(o, _, args): visit(o); visit(args)
        case let .not(x), let .negate(x), let .plus(x): visit(x)
        case let .binary(_, a, b), let .and(a, b), let .or(a, b): visit(a); visit(b)
        case let .compare(f, rest): visit(f); rest.forEach { visit($0.operand) }
        case let .conditional(t, a, b): visit(t); visit(a); visit(b)
        }
    }
}
