import LMGrammar

// GenerationSchema <-> JSON Schema, in the shape Apple's encoder writes (measured on device):
// objects carry `title`, `properties`, `required`, `x-order` (generation order) and
// `additionalProperties: false`; named types are hoisted into `$defs` and referred to by `$ref`.

extension GenerationSchema {
    /// The schema as an ordered JSON tree (the same tree `encode(to:)` writes).
    var jsonValue: JSONValue {
        if case let .json(schema) = root, definitions.isEmpty { return schema }
        // A reference to the root's own name (a recursive root) is `#`.
        let rootName = title.flatMap { name in definitions.contains { $0.name == name } ? nil : name }
        var members = Self.json(root, title: title, description: rootDescription, rootName: rootName)
        if !definitions.isEmpty {
            let defs = definitions.map { JSONMember(key: $0.name, value: .object(Self.json($0.node, title: $0.name, description: $0.description, rootName: rootName), complete: true)) }
            members.append(JSONMember(key: "$defs", value: .object(defs, complete: true)))
        }
        return .object(members, complete: true)
    }

    /// The schema as JSON text, keys in a fixed order.
    func jsonSchemaText(pretty: Bool = false) -> String {
        jsonValue.text(indent: pretty ? 0 : nil)
    }

    private static func string(_ s: String) -> JSONValue { .string(s, complete: true) }
    private static func int(_ i: Int) -> JSONValue { .number(String(i), complete: true) }
    private static func member(_ key: String, _ value: JSONValue) -> JSONMember { JSONMember(key: key, value: value) }

    private static func json(_ node: SchemaNode, title: String? = nil, description: String? = nil, rootName: String?) -> [JSONMember] {
        var m: [JSONMember] = []
        func header(type: String?) {
            if let type { m.append(member("type", string(type))) }
            if let title { m.append(member("title", string(title))) }
            if let description { m.append(member("description", string(description))) }
        }
        switch node {
        case let .object(object):
            header(type: "object")
            let props = object.properties.map { p in
                member(p.name, .object(json(p.node, description: p.description, rootName: rootName), complete: true))
            }
            m.append(member("properties", .object(props, complete: true)))
            m.append(member("additionalProperties", .bool(false)))
            m.append(member("required", .array(object.properties.filter { !$0.isOptional }.map { string($0.name) }, complete: true)))
            m.append(member("x-order", .array(object.properties.map { string($0.name) }, complete: true)))
            if let reason = object.unbuildableReason { m.append(member(Grammar.unbuildableSchemaKeyword, string(reason))) }
        case let .string(s):
            if let constant = s.constant {
                header(type: nil)
                m.append(member("const", string(constant)))
            } else {
                header(type: "string")
                if let choices = s.choices { m.append(member("enum", .array(choices.map(string), complete: true))) }
                // JSON Schema matches a pattern anywhere; a guide matches the whole string.
                if let pattern = s.pattern { m.append(member("pattern", string(StringGrammar.wholeMatch(pattern)))) }
                // Keeps "a Regex guide without source" through JSON, so every path to a grammar rejects it.
                if s.hasOpaquePattern { m.append(member(Grammar.unavailablePatternKeyword, .bool(true))) }
            }
        case let .integer(lo, hi):
            header(type: "integer")
            if let lo { m.append(member("minimum", int(lo))) }
            if let hi { m.append(member("maximum", int(hi))) }
        case let .number(lo, hi):
            header(type: "number")
            if let lo { m.append(member("minimum", .number(GeneratedContent.jsonNumber(lo), complete: true))) }
            if let hi { m.append(member("maximum", .number(GeneratedContent.jsonNumber(hi), complete: true))) }
        case .boolean: header(type: "boolean")
        case .null: header(type: "null")
        case let .array(items, lo, hi):
            header(type: "array")
            m.append(member("items", .object(json(items, rootName: rootName), complete: true)))
            if let lo { m.append(member("minItems", int(lo))) }
            if let hi { m.append(member("maxItems", int(hi))) }
        case let .anyOf(choices):
            header(type: nil)
            m.append(member("anyOf", .array(choices.map { .object(json($0, rootName: rootName), complete: true) }, complete: true)))
        case let .reference(name):
            m.append(member("$ref", string(name == rootName ? "#" : "#/$defs/\(name)")))
            if let description { m.append(member("description", string(description))) }
        case .any:
            header(type: nil)
        case let .json(schema):
            if case let .object(members, _) = schema { m = members }
            if let description, schema["description"] == nil { m.append(member("description", string(description))) }
        }
        return m
    }
}
