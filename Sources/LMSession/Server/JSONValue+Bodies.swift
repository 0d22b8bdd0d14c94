import LMGrammar

// Short spellings for building and reading server request and response bodies (Chat Completions, Claude's Messages
// API) with the package's one ordered `JSONValue` (members stay in the order written, so request bodies are
// byte-stable and testable, and a response schema keeps its key order, which llama.cpp's grammar follows).

extension JSONValue {
    /// A complete string.
    static func text(_ s: String) -> JSONValue { .string(s, complete: true) }
    /// A complete integer.
    static func integer(_ i: Int) -> JSONValue { .number(String(i), complete: true) }
    /// A complete number written with Swift's shortest round-trip form.
    static func double(_ d: Double) -> JSONValue { .number(GeneratedContent.jsonNumber(d), complete: true) }
    /// A complete array.
    static func items(_ values: [JSONValue]) -> JSONValue { .array(values, complete: true) }
    /// A complete object.
    static func members(_ members: [JSONMember]) -> JSONValue { .object(members, complete: true) }
    /// A complete object from `(key, value)` pairs, in order.
    static func fields(_ pairs: [(String, JSONValue)]) -> JSONValue { .object(pairs.map { JSONMember(key: $0.0, value: $0.1) }, complete: true) }

    // `stringValue` (the string's text) is declared in GenerationSchema+Codable.swift.

    /// The number as an `Int`, if this is an integral number.
    var intValue: Int? {
        if case let .number(text, _) = self { return Int(text) ?? Double(text).flatMap { Int(exactly: $0) } }
        return nil
    }
}
