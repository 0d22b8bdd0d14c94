import LMGrammar

/// Walks the subschemas of a JSON Schema (the values of `properties`, `items`, `allOf`, `$defs`...,
/// never data such as `enum`, `const` or `default`) to rewrite them.
enum SchemaLayout {
    /// Keywords whose value is one subschema.
    static let single: Set<String> = ["additionalProperties", "unevaluatedProperties", "items", "additionalItems", "unevaluatedItems",
                                      "contains", "not", "if", "then", "else", "propertyNames"]
    /// Keywords whose value is an array of subschemas.
    static let list: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems", "items"]
    /// Keywords whose value maps names to subschemas.
    static let named: Set<String> = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]

    /// `schema` with `transform` applied to it and to every subschema, innermost first.
    static func mapSchemas(_ schema: JSONValue, _ transform: (JSONValue) -> JSONValue) -> JSONValue {
        guard case let .object(members, complete) = schema else { return schema }
        let mapped = members.map { m -> JSONMember in
            switch m.value {
            case let .object(entries, c) where named.contains(m.key):
                return JSONMember(key: m.key, value: .object(entries.map { JSONMember(key: $0.key, value: mapSchemas($0.value, transform)) }, complete: c))
            case let .array(items, c) where list.contains(m.key):
                return JSONMember(key: m.key, value: .array(items.map { mapSchemas($0, transform) }, complete: c))
            case .object where single.contains(m.key):
                return JSONMember(key: m.key, value: mapSchemas(m.value, transform))
            default:
                return m
            }
        }
        return transform(.object(mapped, complete: complete))
    }

    /// Object members sorted by key, everywhere (a decoder's order is arbitrary).
    static func sortingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .object(members, c): .object(members.map { JSONMember(key: $0.key, value: sortingKeys($0.value)) }.sorted { $0.key < $1.key }, complete: c)
        case let .array(items, c): .array(items.map(sortingKeys), complete: c)
        default: value
        }
    }

    /// Every schema with `properties` and no `x-order` given one: its `required` properties in
    /// that order, then the others by name.
    static func orderingProperties(_ schema: JSONValue) -> JSONValue {
        mapSchemas(schema) { node in
            guard case let .object(members, c) = node, node["x-order"] == nil, case let .object(properties, _)? = node["properties"] else { return node }
            var required: [String] = []
            if case let .array(names, _)? = node["required"] {
                for n in names { if case let .string(s, _) = n, properties.contains(where: { $0.key == s }), !required.contains(s) { required.append(s) } }
            }
            let rest = properties.map(\.key).filter { !required.contains($0) }.sorted()
            let order = (required + rest).map { JSONValue.string($0, complete: true) }
            return .object(members + [JSONMember(key: "x-order", value: .array(order, complete: true))], complete: c)
        }
    }

    /// `schema` as it must read once placed at `#/$defs/<name>` of another document: its references
    /// into itself (`#...`) point there.
    static func relocating(_ schema: JSONValue, to name: String) -> JSONValue {
        let prefix = "#/$defs/" + name.replacingTilde()
        return mapSchemas(schema) { node in
            guard case let .object(members, c) = node, case let .string(ref, rc)? = node["$ref"], ref.hasPrefix("#") else { return node }
            let fragment = ref.dropFirst()
            let target = fragment.isEmpty || fragment.hasPrefix("/") ? prefix + fragment : ref
            return .object(members.map { $0.key == "$ref" ? JSONMember(key: "$ref", value: .string(target, complete: rc)) : $0 }, complete: c)
        }
    }
}

private extension String {
    /// A JSON pointer segment (RFC 6901).
    func replacingTilde() -> String {
        var out = ""
        for ch in self {
            switch ch {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(ch)
            }
        }
        return out
    }
}
