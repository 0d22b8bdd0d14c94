extension Grammar {
    /// Marks a string schema whose pattern guide has no source text (LMSession writes it for a
    /// Regex it cannot read back); reading it throws `unsupportedPattern`.
    package static let unavailablePatternKeyword = "x-lmsession-pattern-unavailable"

    /// Reads a JSON Schema: Apple's shape (`x-order`, `$defs`, `title`) or plain JSON Schema.
    ///
    /// Understood: `type` (one name or a list, a list meaning any of them), `properties` in
    /// `x-order` or else written order, `required`, `items`, `minItems`, `maxItems`, `enum` and
    /// `const` of strings, `pattern`, `minimum`, `maximum` (and `exclusiveMinimum` /
    /// `exclusiveMaximum` on integers), `anyOf`, `oneOf`, `$ref` to `#/$defs/...` or
    /// `#/definitions/...`. A schema without a type is any JSON value. Objects never allow
    /// properties outside `properties`. Other keywords (`description`, `format`...) are ignored.
    /// - Throws: `GrammarError.invalidSchema` with the path of what could not be read.
    public init(jsonSchema text: String) throws(GrammarError) {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw .invalidSchema(path: "", reason: "not JSON: \(error)") }
        try self.init(jsonSchema: json)
    }

    package init(jsonSchema json: JSONValue) throws(GrammarError) {
        var definitions: [String: GrammarNode] = [:]
        for key in ["$defs", "definitions"] {
            guard case let .object(defs, _)? = json[key] else { continue }
            for def in defs { definitions[def.key] = try Self.node(def.value, path: "/\(key)/\(def.key)") }
        }
        self.init(root: try Self.node(json, path: ""), definitions: definitions)
    }

    static func node(_ json: JSONValue, path: String) throws(GrammarError) -> GrammarNode {
        func fail(_ reason: String) -> GrammarError { .invalidSchema(path: path, reason: reason) }
        switch json {
        case .bool(true): return .anyValue
        case .object: break
        default: throw fail("a schema must be an object")
        }
        if case let .string(ref, _)? = json["$ref"] {
            for prefix in ["#/$defs/", "#/definitions/"] where ref.hasPrefix(prefix) {
                return .reference(String(ref.dropFirst(prefix.count)))
            }
            throw fail("unsupported $ref \"\(ref)\"")
        }
        for key in ["anyOf", "oneOf"] {
            guard let value = json[key] else { continue }
            guard case let .array(choices, _) = value, !choices.isEmpty else { throw fail("\(key) must be a non-empty array") }
            var nodes: [GrammarNode] = []
            for (i, c) in choices.enumerated() { nodes.append(try node(c, path: "\(path)/\(key)/\(i)")) }
            return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
        }
        if let constant = json["const"] {
            guard case let .string(s, _) = constant else { throw fail("only string constants are supported") }
            return .choices([s])
        }
        if let values = json["enum"] {
            guard case let .array(items, _) = values, !items.isEmpty else { throw fail("enum must be a non-empty array") }
            var strings: [String] = []
            for item in items {
                guard case let .string(s, _) = item else { throw fail("only string enums are supported") }
                strings.append(s)
            }
            return .choices(strings)
        }
        switch json["type"] {
        case nil:
            return .anyValue
        case let .string(type, _)?:
            return try typed(type, json, path: path)
        case let .array(types, _)?:
            var nodes: [GrammarNode] = []
            for t in types {
                guard case let .string(type, _) = t else { throw fail("type list must hold names") }
                nodes.append(try typed(type, json, path: path))
            }
            guard !nodes.isEmpty else { throw fail("empty type list") }
            return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
        default:
            throw fail("type must be a name or a list of names")
        }
    }

    static func typed(_ type: String, _ json: JSONValue, path: String) throws(GrammarError) -> GrammarNode {
        func fail(_ reason: String) -> GrammarError { .invalidSchema(path: path, reason: reason) }
        func int(_ key: String) throws(GrammarError) -> Int? {
            guard let v = json[key] else { return nil }
            guard case let .number(t, _) = v else { throw fail("\(key) must be a number") }
            if let i = Int(t) { return i }
            guard let d = Double(t), d.isFinite, abs(d) < 9e18 else { throw fail("\(key) out of range") }
            return key.hasPrefix("min") || key == "exclusiveMaximum" ? Int(d.rounded(.up)) : Int(d.rounded(.down))
        }
        func double(_ key: String) throws(GrammarError) -> Double? {
            guard let v = json[key] else { return nil }
            guard case let .number(t, _) = v, let d = Double(t) else { throw fail("\(key) must be a number") }
            return d
        }
        switch type {
        case "object":
            var fields: [GrammarField] = []
            let members: [JSONMember]
            switch json["properties"] {
            case nil: members = []
            case let .object(m, _)?: members = m
            default: throw fail("properties must be an object")
            }
            var required: Set<String> = []
            if case let .array(names, _)? = json["required"] {
                for n in names { if case let .string(s, _) = n { required.insert(s) } }
            }
            var order = members.map(\.key)
            if case let .array(names, _)? = json["x-order"] {
                order = []
                for n in names {
                    guard case let .string(s, _) = n, members.contains(where: { $0.key == s }) else {
                        throw fail("x-order names a property that is not in properties")
                    }
                    order.append(s)
                }
            }
            for name in order {
                guard let value = members.first(where: { $0.key == name })?.value else { continue }
                fields.append(GrammarField(name: name, value: try node(value, path: "\(path)/properties/\(name)"),
                                           isOptional: !required.contains(name)))
            }
            return .object(fields)
        case "array":
            let item = try json["items"].map { (j: JSONValue) throws(GrammarError) in try node(j, path: "\(path)/items") } ?? .anyValue
            return .array(item: item, minCount: try int("minItems") ?? 0, maxCount: try int("maxItems"))
        case "string":
            if json[unavailablePatternKeyword] == .bool(true) {
                throw .unsupportedPattern(pattern: "", reason: "a Regex without source text")
            }
            var pattern: String? = nil
            if let p = json["pattern"] {
                guard case let .string(s, _) = p else { throw fail("pattern must be a string") }
                pattern = s
            }
            return .string(pattern: pattern)
        case "integer":
            var lo = try int("minimum"), hi = try int("maximum")
            if let e = try int("exclusiveMinimum") { lo = max(lo ?? Int.min, e + 1) }
            if let e = try int("exclusiveMaximum") { hi = min(hi ?? Int.max, e - 1) }
            return .integer(minimum: lo, maximum: hi)
        case "number":
            return .number(minimum: try double("minimum"), maximum: try double("maximum"))
        case "boolean": return .boolean
        case "null": return .null
        default: throw fail("unsupported type \"\(type)\"")
        }
    }
}
