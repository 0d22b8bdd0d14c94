/// The parsed template: statements and expressions as jinja2's parser builds them (jinja2/nodes.py).
/// Immutable once parsed, so a loaded template is shared freely across tasks.

/// An expression with its source position.
struct Expr: Sendable {
    indirect enum Kind: Sendable {
        case string(String)
        case integer(Int)
        case float(Double)
        case bool(Bool)
        case none
        case name(String)
        case list([Expr])
        case tuple([Expr])
        case dict([(key: Expr, value: Expr)])
        case getattr(Expr, String)
        case getitem(Expr, Expr)
        /// `a[start:stop:step]`; only inside `getitem`.
        case slice(start: Expr?, stop: Expr?, step: Expr?)
        case call(Expr, Arguments)
        /// `value | name(args)`; `value` is nil for the filter of a filter block or set block.
        case filter(Expr?, name: String, Arguments)
        case test(Expr, name: String, Arguments)
        case not(Expr)
        case negate(Expr)
        case plus(Expr)
        case binary(BinaryOp, Expr, Expr)
        case and(Expr, Expr)
        case or(Expr, Expr)
        /// `a ~ b ~ c`: each operand converted with `str()` and joined.
        case concat([Expr])
        case compare(Expr, [(op: CompareOp, operand: Expr)])
        /// `then if test else otherwise`; without `else` a false test gives an undefined value.
        case conditional(test: Expr, then: Expr, otherwise: Expr?)
    }

    var kind: Kind
    var location: JinjaSourceLocation
}

enum BinaryOp: String, Sendable {
    case add = "+", sub = "-", mul = "*", div = "/", floordiv = "//", mod = "%", pow = "**"
}

enum CompareOp: String, Sendable {
    case eq = "==", ne = "!=", lt = "<", lteq = "<=", gt = ">", gteq = ">=", isIn = "in", notIn = "not in"
}

/// Call arguments: positional, keyword, `*args`, `**kwargs`.
struct Arguments: Sendable {
    var positional: [Expr] = []
    var keyword: [(name: String, value: Expr)] = []
    var star: Expr?
    var doubleStar: Expr?
    static let none = Arguments()
}

/// Where `set`, `for` and `with` store values.
indirect enum Target: Sendable {
    case name(String)
    /// `ns.attr`: an attribute of a namespace object.
    case attribute(namespace: String, attribute: String)
    case tuple([Target])
}

/// A statement with its source position.
struct Stmt: Sendable {
    indirect enum Kind: Sendable {
        /// Literal template text.
        case text(String)
        /// `{{ expr }}` or `{% print expr %}`.
        case output(Expr)
        case ifChain(branches: [(test: Expr, body: [Stmt])], otherwise: [Stmt])
        case forLoop(ForLoop)
        case set(Target, Expr)
        /// `{% set x | filters %}body{% endset %}`.
        case setBlock(Target, filter: Expr?, body: [Stmt])
        case macro(MacroDefinition)
        /// `{% call(params) callee(args) %}body{% endcall %}`: `body` becomes the `caller` macro.
        case callBlock(caller: MacroDefinition, call: Expr)
        /// `{% filter f %}body{% endfilter %}`: `filter` has a nil operand standing for the body.
        case filterBlock(filter: Expr, body: [Stmt])
        case with(assignments: [(target: Target, value: Expr)], body: [Stmt])
        /// Hugging Face's `{% generation %}...{% endgeneration %}`: renders its body.
        case generation([Stmt])
        case breakLoop
        case continueLoop
    }

    var kind: Kind
    var location: JinjaSourceLocation
}

struct ForLoop: Sendable {
    var target: Target
    var iterable: Expr
    /// `for x in xs if test`: items failing it are skipped before the loop counts them.
    var filter: Expr?
    var body: [Stmt]
    /// Rendered when the loop ran zero times.
    var otherwise: [Stmt]
}

struct MacroDefinition: Sendable {
    var name: String
    var parameters: [(name: String, defaultValue: Expr?)]
    var body: [Stmt]
    /// Whether the body reads `caller`, `kwargs` or `varargs`, which makes the macro accept a
    /// caller, extra keyword arguments, extra positional arguments (as jinja2 decides it).
    var readsCaller: Bool
    var readsKwargs: Bool
    var readsVarargs: Bool
}
