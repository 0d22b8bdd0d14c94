import LMGrammar

extension GenerationSchema: Codable {
    /// Writes the schema as JSON Schema in Apple's shape (see `GenerationSchema+JSON`).
    public func encode(to encoder: any Encoder) throws {
        try SchemaJSON(value: jsonValue).encode(to: encoder)
    }

    /// Reads JSON Schema in Apple's shape or plain JSON Schema: objects (`properties`,
    /// `required`, `x-order`), arrays (`items`, `minItems`, `maxItems`), strings (`enum`,
    /// `const`, `pattern`), integers and numbers (`minimum`, `maximum`), booleans, null,
    /// `anyOf`, `$ref` into `$defs` or `definitions`. Other keywords are ignored.
    ///
    /// A decoder does not keep the order of object keys, so an object without `x-order` gets its
    /// `required` properties first, then the rest by name. `GenerationSchema(jsonSchema:)` reads
    /// text in written order instead.
    /// - Throws: `DecodingError.dataCorrupted` for a schema it cannot read.
    public init(from decoder: any Decoder) throws {
        let json = try SchemaJSON(from: decoder).value
        do {
            self = try GenerationSchema(json: json, keysOrdered: false)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Reads JSON Schema text (Apple's shape or plain), keeping properties in written order when
    /// there is no `x-order`. Not in Apple's API.
    /// - Throws: `SchemaReadError` for text that is not JSON or a schema this library cannot read.
    public init(jsonSchema text: String) throws {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw SchemaReadError(path: "", reason: "not JSON: \(error)") }
        self = try GenerationSchema(json: json, keysOrdered: true)
    }
}

/// A JSON Schema that could not be read: where (a JSON-pointer-like path) and why.
public struct SchemaReadError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "schema at \"\(path)\": \(reason)" }
}

extension GenerationSchema {
    init(json: JSONValue, keysOrdered: Bool) throws(SchemaReadError) {
        var reader = SchemaReader(keysOrdered: keysOrdered)
        if case let .object(defs, _)? = json["$defs"] ?? json["definitions"] {
            for def in defs {
                let node = try reader.node(def.value, path: "/$defs/\(def.key)")
                reader.definitions.append(SchemaDefinition(name: def.key, description: def.value["description"]?.stringValue, node: node))
            }
        }
        let root = try reader.node(json, path: "")
        self.init(title: json["title"]?.stringValue, description: json["description"]?.stringValue, root: root, definitions: reader.definitions)
    }
}

private struct SchemaReader {
    let keysOrdered: Bool
    var definitions: [SchemaDefinition] = []

    func fail(_ path: String, _ reason: String) -> SchemaReadError { SchemaReadError(path: path, reason: reason) }

    mutating func node(_ json: JSONValue, path: String) throws(SchemaReadError) -> SchemaNode {
        guard case .object = json else {
            if case .bool(true) = json { return .any }
            throw fail(path, "expected an object")
        }
        if let ref = json["$ref"]?.stringValue {
            guard let name = ref.split(separator: "/").last, ref.hasPrefix("#/$defs/") || ref.hasPrefix("#/definitions/")
            else { throw fail(path, "unsupported $ref \"\(ref)\"") }
            return .reference(String(name))
        }
        if case let .array(choices, _)? = json["anyOf"] ?? json["oneOf"] {
            var nodes: [SchemaNode] = []
            for (i, choice) in choices.enumerated() { nodes.append(try node(choice, path: "\(path)/anyOf/\(i)")) }
            return .anyOf(nodes)
        }
        if let constant = json["const"] {
            guard let s = constant.stringValue else { throw fail(path, "only string constants are supported") }
            return .string(StringSchema(constant: s))
        }
        if case let .array(values, _)? = json["enum"] {
            let strings = values.compactMap(\.stringValue)
            guard strings.count == values.count else { throw fail(path, "only string enums are supported") }
            return .string(StringSchema(choices: strings))
        }
        switch json["type"] {
        case nil:
            return .any
        case let .string(type, _)?:
            return try typed(type, json, path: path)
        case let other?:
            throw fail(path, "unsupported type \(other)")
        }
    }

    mutating func typed(_ type: String, _ json: JSONValue, path: String) throws(SchemaReadError) -> SchemaNode {
        switch type {
        case "object":
            return try object(json, path: path)
        case "array":
            let items = try json["items"].map { (j: JSONValue) throws(SchemaReadError) in try node(j, path: "\(path)/items") } ?? .any
            return .array(items: items, minimumCount: json["minItems"]?.intValue, maximumCount: json["maxItems"]?.intValue)
        case "string":
            return .string(StringSchema(pattern: json["pattern"]?.stringValue,
                                        hasOpaquePattern: json[Grammar.unavailablePatternKeyword] == .bool(true)))
        case "integer":
            return .integer(minimum: json["minimum"]?.intValue, maximum: json["maximum"]?.intValue)
        case "number":
            return .number(minimum: json["minimum"]?.doubleValue, maximum: json["maximum"]?.doubleValue)
        case "boolean": return .boolean
        case "null": return .null
        default: throw fail(path, "unsupported type \"\(type)\"")
        }
    }

    mutating func object(_ json: JSONValue, path: String) throws(SchemaReadError) -> SchemaNode {
        guard case let .object(members, _) = json["properties"] ?? .object([], complete: true) else {
            throw fail(path, "properties is not an object")
        }
        let required = json["required"]?.stringArray
        var order = json["x-order"]?.stringArray ?? members.map(\.key)
        if json["x-order"] == nil, !keysOrdered {
            let req = required ?? []
            order = req.filter { name in members.contains { $0.key == name } } + order.filter { !req.contains($0) }.sorted()
        }
        var properties: [SchemaProperty] = []
        for name in order {
            guard let value = members.first(where: { $0.key == name })?.value else {
                throw fail(path, "x-order names \"\(name)\", which is not among the properties")
            }
            let n = try node(value, path: "\(path)/properties/\(name)")
            properties.append(SchemaProperty(name: name, description: value["description"]?.stringValue, node: n,
                                             isOptional: !(required?.contains(name) ?? false)))
        }
        return .object(ObjectSchema(properties: properties))
    }
}

extension JSONValue {
    var stringValue: String? { if case let .string(s, _) = self { s } else { nil } }
    var intValue: Int? { if case let .number(t, _) = self { Int(t) ?? Double(t).flatMap { Int(exactly: $0) } } else { nil } }
    var doubleValue: Double? { if case let .number(t, _) = self { Double(t) } else { nil } }
    var stringArray: [String]? {
        guard case let .array(items, _) = self else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }
}

/// Bridges an ordered JSON tree to Encoder/Decoder (Foundation's JSON coders).
struct SchemaJSON: Codable {
    var value: JSONValue

    init(value: JSONValue) { self.value = value }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var members: [JSONMember] = []
            for key in keyed.allKeys {
                members.append(JSONMember(key: key.stringValue, value: try keyed.decode(SchemaJSON.self, forKey: key).value))
            }
            value = .object(members, complete: true)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(SchemaJSON.self).value) }
            value = .array(items, complete: true)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { value = .null }
            else if let b = try? single.decode(Bool.self) { value = .bool(b) }
            else if let i = try? single.decode(Int.self) { value = .number(String(i), complete: true) }
            else if let d = try? single.decode(Double.self) { value = .number(GeneratedContent.jsonNumber(d), complete: true) }
            else { value = .string(try single.decode(String.self), complete: true) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case let .bool(b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case let .number(text, _):
            var c = encoder.singleValueContainer()
            if let i = Int(text) { try c.encode(i) } else { try c.encode(Double(text) ?? 0) }
        case let .string(s, _):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case let .array(items, _):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(SchemaJSON(value: item)) }
        case let .object(members, _):
            var c = encoder.container(keyedBy: Key.self)
            for m in members { try c.encode(SchemaJSON(value: m.value), forKey: Key(m.key)) }
        }
    }
}
