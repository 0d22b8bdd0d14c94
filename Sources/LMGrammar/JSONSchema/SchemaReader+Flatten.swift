// Reading the keywords of a conjunction of subschemas into one `Flat`.

extension SchemaReader {
    /// The constraints of all `terms` together; `$ref` targets and `allOf` entries are read into
    /// the same conjunction (each subschema once).
    func flatten(_ terms: [Term]) throws(GrammarError) -> Flat {
        var flat = Flat(path: Self.path(of: terms))
        var queue: [Located] = []
        for t in terms {
            switch t {
            case let .schema(l): queue.append(l)
            case let .not(inner): flat.nots.append(inner)
            }
        }
        var seen: Set<String> = []
        var next = 0
        while next < queue.count {
            let l = queue[next]
            next += 1
            guard seen.insert(l.path).inserted else { continue }
            queue += try absorb(l, into: &flat)
        }
        return flat
    }

    /// Reads one subschema's keywords into `flat`; returns the subschemas joined to it (`$ref`,
    /// `allOf`). Unknown keywords are annotations and are ignored.
    private func absorb(_ l: Located, into flat: inout Flat) throws(GrammarError) -> [Located] {
        let members: [JSONMember]
        switch l.json {
        case .bool(true): return []
        case .bool(false): flat.kinds = []; return []
        case let .object(m, _): members = m
        default: throw .invalidSchema(path: l.path, reason: "a schema must be an object or a boolean")
        }
        var joined: [Located] = []
        var minimum: NumberBound?, maximum: NumberBound?
        var exclusiveMinimumFlag = false, exclusiveMaximumFlag = false
        var array = ArrayClause(), hasArray = false
        var object = ObjectClause(path: l.path), hasObject = false
        var contains: Located?, minContains = 1
        for m in members {
            let at = l.child(m.key, m.value)
            let v = m.value
            switch m.key {
            case "$ref":
                guard case let .string(ref, _) = v else { throw .invalidSchema(path: at.path, reason: "$ref must be a string") }
                joined.append(try document.resolve(ref, at: l.path))
            case "$dynamicRef", "$recursiveRef":
                throw .unsupportedKeyword(path: at.path, keyword: m.key, reason: "dynamic references are not read")
            case "allOf":
                joined += try subschemas(v, at: at)
            case "anyOf":
                flat.anyOf.append(try subschemas(v, at: at).map { [$0] })
            case "oneOf":
                flat.oneOf.append(try subschemas(v, at: at).map { [$0] })
            case "not":
                flat.nots.append([.schema(at)])
            case "if":
                flat.conditionals.append((at, l.json["then"].map { l.child("then", $0) }, l.json["else"].map { l.child("else", $0) }))
            case "type":
                flat.kinds.formIntersection(try kinds(v, at: at))
                flat.typed = true
            case "enum":
                guard case let .array(values, _) = v else { throw .invalidSchema(path: at.path, reason: "enum must be an array") }
                // One automaton state per byte of the values: refused here with its pointer rather than as
                // an automaton over the state budget.
                var bytes = 0
                for value in values { bytes += value.compactText.utf8.count }
                if bytes > options.maxStates {
                    throw .unsupportedKeyword(path: at.path, keyword: "enum", reason:
                        "\(values.count) value\(values.count == 1 ? "" : "s") of \(bytes) bytes in all take a state per byte, above GrammarOptions.maxStates (\(options.maxStates))")
                }
                flat = flat.merging(literalFlat(values, path: l.path))
            case "const":
                flat = flat.merging(literalFlat([v], path: l.path))
            case "minimum":
                minimum = NumberBound.tighterMinimum(minimum, NumberBound(value: try bound(v, at: at, lower: true), exclusive: false, path: at.path))
            case "maximum":
                maximum = NumberBound.tighterMaximum(maximum, NumberBound(value: try bound(v, at: at, lower: false), exclusive: false, path: at.path))
            case "exclusiveMinimum":
                if case let .bool(b) = v { exclusiveMinimumFlag = b } else {
                    minimum = NumberBound.tighterMinimum(minimum, NumberBound(value: try bound(v, at: at, lower: true), exclusive: true, path: at.path))
                }
            case "exclusiveMaximum":
                if case let .bool(b) = v { exclusiveMaximumFlag = b } else {
                    maximum = NumberBound.tighterMaximum(maximum, NumberBound(value: try bound(v, at: at, lower: false), exclusive: true, path: at.path))
                }
            case "multipleOf":
                let d = try number(v, at: at)
                guard d > 0 else { throw .invalidSchema(path: at.path, reason: "multipleOf must be positive") }
                flat.multipleOf.append((d, at.path))
                flat.constrainedKinds.formUnion(.number)
            case "minLength":
                let n = try count(v, at: at)
                if n > flat.minLength { (flat.minLength, flat.minLengthPath) = (n, at.path) }
                flat.constrainedKinds.formUnion(.string)
            case "maxLength":
                flat.maxLength = min(flat.maxLength ?? .max, try count(v, at: at))
                flat.constrainedKinds.formUnion(.string)
            case "pattern":
                guard case let .string(p, _) = v else { throw .invalidSchema(path: at.path, reason: "pattern must be a string") }
                flat.patterns.append((p, at.path))
                flat.constrainedKinds.formUnion(.string)
            case Grammar.unbuildableSchemaKeyword:
                let reason = if case let .string(r, _) = v { r } else { "the type's schema could not be built" }
                throw .unsupportedKeyword(path: at.path, keyword: m.key, reason: reason)
            case Grammar.unavailablePatternKeyword:
                if v == .bool(true) { throw .unsupportedPattern(pattern: "", reason: "a Regex without source text") }
            case "items":
                hasArray = true
                if case let .array(items, _) = v, l.json["prefixItems"] == nil {
                    array.prefix = items.enumerated().map { l.child("items", $0.offset, $0.element) }
                } else {
                    try checkSchema(v, at: at)
                    array.rest = at
                }
            case "prefixItems":
                hasArray = true
                guard case let .array(items, _) = v else { throw .invalidSchema(path: at.path, reason: "prefixItems must be an array") }
                array.prefix = items.enumerated().map { l.child("prefixItems", $0.offset, $0.element) }
            case "additionalItems":
                // Applies only after an `items` array (drafts 4 to 2019-09).
                if case .array? = l.json["items"], l.json["prefixItems"] == nil { array.rest = at }
            case "unevaluatedItems":
                if l.json["items"] == nil, l.json["additionalItems"] == nil { array.rest = at; hasArray = true }
            case "minItems":
                let n = try count(v, at: at)
                if n > flat.minItems { (flat.minItems, flat.minItemsPath) = (n, at.path) }
                flat.constrainedKinds.formUnion(.array)
            case "maxItems":
                let n = try count(v, at: at)
                if n < flat.maxItems ?? .max { (flat.maxItems, flat.maxItemsPath) = (n, at.path) }
                flat.constrainedKinds.formUnion(.array)
            case "uniqueItems":
                if v == .bool(true), !flat.uniqueItems { flat.uniqueItems = true; flat.uniquePath = at.path }
                flat.constrainedKinds.formUnion(.array)
            case "contains":
                contains = at
            case "minContains":
                minContains = try count(v, at: at)
            case "maxContains":
                if l.json["contains"] != nil {
                    throw .unsupportedKeyword(path: at.path, keyword: "maxContains", reason: "items not matching `contains` cannot be told apart")
                }
            case "properties":
                hasObject = true
                guard case let .object(props, _) = v else { throw .invalidSchema(path: at.path, reason: "properties must be an object") }
                object.properties = props.map { ($0.key, at.child($0.key, $0.value)) }
            case "x-order":
                guard case let .array(names, _) = v else { throw .invalidSchema(path: at.path, reason: "x-order must be an array of names") }
                object.order = names.compactMap { if case let .string(s, _) = $0 { s } else { nil } }
                for name in object.order ?? [] where l.json["properties"]?[name] == nil {
                    throw .invalidSchema(path: at.path, reason: "x-order names \"\(name)\", which is not in properties")
                }
            case "patternProperties":
                hasObject = true
                guard case let .object(props, _) = v else { throw .invalidSchema(path: at.path, reason: "patternProperties must be an object") }
                object.patterns = props.map { ($0.key, at.child($0.key, $0.value), at.path + "/" + Located.escape($0.key)) }
            case "additionalProperties":
                hasObject = true
                try checkSchema(v, at: at)
                object.additional = at
            case "unevaluatedProperties":
                hasObject = true
                try checkSchema(v, at: at)
                object.unevaluated = at
            case "propertyNames":
                hasObject = true
                object.propertyNames = at
            case "required":
                guard case let .array(names, _) = v else { throw .invalidSchema(path: at.path, reason: "required must be an array of names") }
                for n in names {
                    guard case let .string(name, _) = n else { throw .invalidSchema(path: at.path, reason: "required must hold names") }
                    if !flat.required.contains(name) { flat.required.append(name) }
                }
                flat.constrainedKinds.formUnion(.object)
            case "minProperties":
                flat.minProperties = max(flat.minProperties, try count(v, at: at))
                flat.constrainedKinds.formUnion(.object)
            case "maxProperties":
                flat.maxProperties = min(flat.maxProperties ?? .max, try count(v, at: at))
                flat.constrainedKinds.formUnion(.object)
            case "dependencies", "dependentRequired", "dependentSchemas":
                guard case let .object(deps, _) = v else { throw .invalidSchema(path: at.path, reason: "\(m.key) must be an object") }
                for dep in deps { flat.anyOf.append(try dependency(dep.key, dep.value, at: at.child(dep.key, dep.value))) }
                flat.constrainedKinds.formUnion(.object)
            default:
                break
            }
        }
        if exclusiveMinimumFlag, let m = minimum { minimum = NumberBound(value: m.value, exclusive: true, path: m.path) }
        if exclusiveMaximumFlag, let m = maximum { maximum = NumberBound(value: m.value, exclusive: true, path: m.path) }
        if minimum != nil || maximum != nil { flat.constrainedKinds.formUnion(.number) }
        flat.minimum = NumberBound.tighterMinimum(flat.minimum, minimum)
        flat.maximum = NumberBound.tighterMaximum(flat.maximum, maximum)
        if hasArray { flat.arrays.append(array); flat.constrainedKinds.formUnion(.array) }
        if hasObject { flat.objects.append(object); flat.constrainedKinds.formUnion(.object) }
        if let contains, minContains > 0 {
            flat.contains.append(ContainsClause(schema: contains, minimum: minContains, path: contains.path))
            flat.constrainedKinds.formUnion(.array)
        }
        return joined
    }

    /// A flat that allows exactly `values`.
    private func literalFlat(_ values: [JSONValue], path: String) -> Flat {
        var f = Flat(path: path)
        f.literals = values
        return f
    }

    /// `dependentRequired`/`dependentSchemas` (or draft-07 `dependencies`) for `name`: either the
    /// object lacks `name`, or it has it and what it depends on.
    private func dependency(_ name: String, _ value: JSONValue, at: Located) throws(GrammarError) -> [[Located]] {
        let absent = Located(json: .object([JSONMember(key: "properties", value: .object([JSONMember(key: name, value: .bool(false))], complete: true))],
                                           complete: true), path: at.path + "#absent")
        var present = [Located(json: .object([JSONMember(key: "required", value: .array([.string(name, complete: true)], complete: true))],
                                             complete: true), path: at.path + "#present")]
        if case let .array(names, _) = value {
            let required = names.filter { if case .string = $0 { true } else { false } }
            present.append(Located(json: .object([JSONMember(key: "required", value: .array(required, complete: true))], complete: true),
                                   path: at.path + "#required"))
        } else {
            try checkSchema(value, at: at)
            present.append(at)
        }
        return [[absent], present]
    }

    private func subschemas(_ v: JSONValue, at: Located) throws(GrammarError) -> [Located] {
        guard case let .array(items, _) = v, !items.isEmpty else {
            throw .invalidSchema(path: at.path, reason: "must be a non-empty array of schemas")
        }
        var out: [Located] = []
        for (i, item) in items.enumerated() {
            let child = Located(json: item, path: at.path + "/\(i)")
            try checkSchema(item, at: child)
            out.append(child)
        }
        return out
    }

    private func checkSchema(_ v: JSONValue, at: Located) throws(GrammarError) {
        switch v {
        case .object, .bool: return
        default: throw .invalidSchema(path: at.path, reason: "a schema must be an object or a boolean")
        }
    }

    private func kinds(_ v: JSONValue, at: Located) throws(GrammarError) -> Kinds {
        func one(_ t: JSONValue) throws(GrammarError) -> Kinds {
            guard case let .string(name, _) = t else { throw .invalidSchema(path: at.path, reason: "type must be a name or a list of names") }
            switch name {
            case "null": return .null
            case "boolean": return .boolean
            case "integer": return .integer
            case "number": return .number
            case "string": return .string
            case "array": return .array
            case "object": return .object
            case "any": return .all  // draft 3
            default: throw .invalidSchema(path: at.path, reason: "unknown type \"\(name)\"")
            }
        }
        if case let .array(names, _) = v {
            var k: Kinds = []
            for n in names { k.formUnion(try one(n)) }
            return k
        }
        return try one(v)
    }

    private func number(_ v: JSONValue, at: Located) throws(GrammarError) -> Double {
        guard case let .number(t, _) = v, let d = Double(t) else { throw .invalidSchema(path: at.path, reason: "must be a number") }
        return d
    }

    /// A numeric bound as the Double a generated value is compared with. An integer literal a
    /// Double cannot hold (9007199254740993) becomes the nearest Double inside the bound, so every
    /// Double within it is within the written bound too (Python's jsonschema compares an integer
    /// literal exactly; a literal with a fraction or an exponent is a Double there as here).
    private func bound(_ v: JSONValue, at: Located, lower: Bool) throws(GrammarError) -> Double {
        let d = try number(v, at: at)
        guard case let .number(t, _) = v, d.isFinite, d.magnitude >= 0x1p53,
              t.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return d }
        let literal = String(t.drop { $0 == "-" || $0 == "0" })
        // The integer the Double holds, as digits (a Double of 2^64 or more: unknown, step inwards).
        let held = d.magnitude < 0x1p64 ? String(UInt64(d.magnitude)) : nil
        if held == literal { return d }
        let heldMagnitudeBelow = held.map { $0.count < literal.count || ($0.count == literal.count && $0 < literal) }
        let heldBelow = heldMagnitudeBelow.map { $0 != (d < 0) }
        if lower, heldBelow ?? true { return d.nextUp }
        if !lower, !(heldBelow ?? false) { return d.nextDown }
        return d
    }

    private func count(_ v: JSONValue, at: Located) throws(GrammarError) -> Int {
        guard case let .number(t, _) = v, let d = Double(t), d >= 0, d.rounded() == d else {
            throw .invalidSchema(path: at.path, reason: "must be a non-negative integer")
        }
        return d > 1e15 ? Int(1e15) : Int(d)
    }
}
