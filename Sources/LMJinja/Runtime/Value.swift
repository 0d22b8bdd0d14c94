/// A value during rendering: Python's types as chat templates see them under jinja2.
///
/// Lists, tuples and dicts are values (jinja2's immutable sandbox forbids mutating them, so
/// copies are indistinguishable from sharing). Namespaces, loops and one-shot iterators (what
/// `select`, `map`, `items`... return in jinja2) are references, as in Python.
enum Value {
    case undefined(Undefined)
    case none
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(Text)
    case list([Value])
    case tuple([Value])
    case dict(Dict)
    /// `dict.items()`, `.keys()`, `.values()`: re-iterable, sized, not indexable.
    case view(DictView, Dict)
    /// A generator: iterating consumes it.
    case iterator(ItemIterator)
    case namespace(Namespace)
    case macro(Macro)
    case function(GlobalFunction)
    /// An attribute that is a method (`s.split`), bound to its receiver, not yet called.
    case method(receiver: Box, name: String)
    case loop(LoopState)

    static func template(_ s: String) -> Value { .string(.template(s)) }
    static var emptyString: Value { .string(.empty) }
}

/// jinja2's default `Undefined`: prints as nothing, is false, iterates as empty, equals only
/// another undefined; anything else (attributes, calls, arithmetic) fails with the message.
struct Undefined {
    enum Failure { case undefined, security }
    /// The message an operation on it raises.
    var message: String
    var failure: Failure = .undefined

    static func named(_ name: String) -> Undefined { Undefined(message: "'\(name)' is undefined") }

    static func missing(attribute: String, of value: Value) -> Undefined {
        Undefined(message: "'\(value.typeName) object' has no attribute '\(attribute)'")
    }

    static func missing(item: Value, of value: Value) -> Undefined {
        if case let .string(s) = item {
            return Undefined(message: "'\(value.typeName) object' has no attribute '\(s.string)'")
        }
        return Undefined(message: "\(value.typeName) object has no element \(PythonRepr.repr(item))")
    }

    static func unsafe(_ attribute: String, of value: Value) -> Undefined {
        Undefined(message: "access to attribute '\(attribute)' of '\(value.typeName)' object is unsafe.", failure: .security)
    }

    var error: JinjaError {
        failure == .security ? .security(message: message, at: .unknown) : .undefined(message)
    }
}

/// `dict.items()`, `dict.keys()`, `dict.values()`.
enum DictView: String {
    case items = "dict_items", keys = "dict_keys", values = "dict_values"
}

/// A reference to a value, so that an enum case can hold a value of its own type.
final class Box {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A generator: produces items on demand (jinja2's `select`, `map`, `items`... are lazy, so an
/// error in an item never pulled is never raised), is consumed by iteration, is shared by
/// reference. After it ends or throws, it is exhausted.
final class ItemIterator {
    private var produce: (() throws(JinjaError) -> Value?)?

    init(_ produce: @escaping () throws(JinjaError) -> Value?) { self.produce = produce }

    convenience init(items: [Value]) {
        var position = 0
        self.init { () throws(JinjaError) -> Value? in
            guard position < items.count else { return nil }
            defer { position += 1 }
            return items[position]
        }
    }

    /// A generator that raises `error` when first pulled (a jinja2 generator function that
    /// checks its argument only once iterated).
    static func failing(_ error: JinjaError) -> ItemIterator {
        var raised = false
        func produce() throws(JinjaError) -> Value? {
            if raised { return nil }
            raised = true
            throw error
        }
        return ItemIterator(produce)
    }

    func next() throws(JinjaError) -> Value? {
        guard let produce else { return nil }
        do {
            if let v = try produce() { return v }
        } catch {
            self.produce = nil
            throw error
        }
        self.produce = nil
        return nil
    }

    /// Everything not yet consumed; the iterator is exhausted afterwards.
    func drain(_ r: Renderer) throws(JinjaError) -> [Value] {
        var out: [Value] = []
        while let v = try next() {
            try r.tick(1)
            out.append(v)
        }
        return out
    }
}

/// `namespace(...)`: the one mutable object templates have (`{% set ns.x = ... %}`).
final class Namespace {
    var attributes: Dict
    init(_ attributes: Dict) { self.attributes = attributes }
}

/// A macro (or a call block's `caller`) with the scope it was defined in.
final class Macro {
    let definition: MacroDefinition
    let scope: Scope
    init(_ definition: MacroDefinition, scope: Scope) {
        self.definition = definition
        self.scope = scope
    }
}

/// Functions the template can call by name.
enum GlobalFunction: String {
    case range, dict, namespace
    case raiseException = "raise_exception"
    case strftimeNow = "strftime_now"
}

extension Value {
    /// Python's type name, for messages.
    var typeName: String {
        switch self {
        case .undefined: "Undefined"
        case .none: "NoneType"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case let .string(t): t.isMarkup ? "Markup" : "str"
        case .list: "list"
        case .tuple: "tuple"
        case .dict: "dict"
        case let .view(kind, _): kind.rawValue
        case .iterator: "generator"
        case .namespace: "Namespace"
        case .macro: "Macro"
        case .function, .method: "builtin_function_or_method"
        case .loop: "LoopContext"
        }
    }

    /// Python truthiness.
    var isTruthy: Bool {
        switch self {
        case .undefined, .none: false
        case let .bool(b): b
        case let .int(i): i != 0
        case let .float(d): d != 0
        case let .string(t): !t.isEmpty
        case let .list(a), let .tuple(a): !a.isEmpty
        case let .dict(d), let .view(_, d): d.count > 0
        case .iterator, .namespace, .macro, .function, .method, .loop: true
        }
    }

    var isUndefined: Bool {
        if case .undefined = self { return true }
        return false
    }

    /// The text of a string value.
    var text: Text? {
        if case let .string(t) = self { return t }
        return nil
    }

    /// An integer operand: `int` or `bool`, as Python's `int` subclass `bool` behaves.
    var integer: Int? {
        switch self {
        case let .int(i): i
        case let .bool(b): b ? 1 : 0
        default: nil
        }
    }
}
