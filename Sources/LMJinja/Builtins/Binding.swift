/// Python's argument binding for built-in filters, tests, methods and functions: positional
/// arguments fill parameters in order, keywords by name; too many, unknown or repeated
/// arguments are a `TypeError`.
struct Binding {
    private var values: [Value?]
    private let names: [String]
    /// Positional arguments beyond the named parameters (for `*args` functions).
    let rest: [Value]
    /// Keyword arguments not matching a parameter (for `**kwargs` functions).
    let extraKeywords: [(String, Value)]

    init(_ function: String, _ names: [String], _ positional: [Value], _ keyword: [(String, Value)],
         acceptsRest: Bool = false, acceptsExtraKeywords: Bool = false) throws(JinjaError) {
        self.names = names
        var values = [Value?](repeating: nil, count: names.count)
        for (i, v) in positional.prefix(names.count).enumerated() { values[i] = v }
        if positional.count > names.count, !acceptsRest {
            throw .type("\(function)() takes at most \(names.count) argument\(names.count == 1 ? "" : "s") (\(positional.count) given)")
        }
        rest = Array(positional.dropFirst(names.count))
        var extra: [(String, Value)] = []
        for (k, v) in keyword {
            if let i = names.firstIndex(of: k) {
                if values[i] != nil { throw .type("\(function)() got multiple values for argument '\(k)'") }
                values[i] = v
            } else if acceptsExtraKeywords {
                extra.append((k, v))
            } else {
                throw .type("\(function)() got an unexpected keyword argument '\(k)'")
            }
        }
        extraKeywords = extra
        self.values = values
    }

    /// The argument for parameter `name`, nil when not given.
    subscript(_ name: String) -> Value? {
        guard let i = names.firstIndex(of: name) else { return nil }
        return values[i]
    }

    /// The argument for `name`, or `defaultValue`.
    func value(_ name: String, default defaultValue: Value) -> Value { self[name] ?? defaultValue }

    /// The argument for a required parameter.
    func required(_ name: String, _ function: String) throws(JinjaError) -> Value {
        guard let v = self[name] else { throw .type("\(function)() missing required argument: '\(name)'") }
        return v
    }

    /// An integer argument (bool counts), or `defaultValue` when absent.
    func int(_ name: String, default defaultValue: Int, _ function: String) throws(JinjaError) -> Int {
        guard let v = self[name] else { return defaultValue }
        if case let .undefined(u) = v { throw u.error }
        guard let i = v.integer else { throw .type("'\(v.typeName)' object cannot be interpreted as an integer") }
        return i
    }

    func bool(_ name: String, default defaultValue: Bool) -> Bool { self[name]?.isTruthy ?? defaultValue }
}
