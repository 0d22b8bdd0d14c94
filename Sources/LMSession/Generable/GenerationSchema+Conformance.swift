import Foundation

extension GenerationSchema {
    /// Checks a complete response from a model that does not constrain its output (a server that may ignore
    /// `response_format`) against this schema: kinds, required and unknown properties, enumerations and
    /// constants, patterns (as Swift `Regex`), numeric bounds, integer-ness and array lengths.
    ///
    /// Nodes kept as written JSON Schema (read with `GenerationSchema(jsonSchema:)`) are checked with the
    /// schema's grammar, the automaton that masks the local model's tokens, on the value's compact JSON; that
    /// check also wants the schema's property order.
    /// - Throws: ``GeneratedContent/ParsingError`` naming the first path that does not conform.
    func checkConformance(of content: GeneratedContent) throws(GeneratedContent.ParsingError) {
        if let problem = conformanceProblem(content, root, path: "$") {
            throw GeneratedContent.ParsingError(rawContent: content.jsonString, debugDescription:
                "The response does not follow the schema \(title ?? "value"): \(problem).")
        }
    }

    private func conformanceProblem(_ value: GeneratedContent, _ node: SchemaNode, path: String) -> String? {
        switch (node, value.kind) {
        case (.any, _):
            return nil
        case (.reference(let name), _):
            if let definition = definitions.first(where: { $0.name == name }) { return conformanceProblem(value, definition.node, path: path) }
            // A recursive root refers to its own name (`$ref: "#"` in its JSON Schema).
            guard name == title else { return "\(path): undefined type \(name)" }
            return conformanceProblem(value, root, path: path)
        case (.anyOf(let choices), _):
            return choices.contains { conformanceProblem(value, $0, path: path) == nil } ? nil : "\(path) matches none of its choices"
        case (.null, .null), (.boolean, .bool):
            return nil
        case (.string(let s), .string(let text)):
            if let constant = s.constant, text != constant { return "\(path) is not \"\(constant)\"" }
            if let choices = s.choices, !choices.contains(text) { return "\(path) is not one of \(choices)" }
            if let pattern = s.pattern {
                guard let regex = try? Regex(pattern) else { return "\(path): pattern \(pattern) cannot be checked" }
                if (try? regex.wholeMatch(in: text)) == nil { return "\(path) does not match \(pattern)" }
            }
            return nil
        case (.integer(let lo, let hi), .number(let x)):
            guard x.rounded() == x else { return "\(path) is not an integer" }
            return bounds(x, lo.map(Double.init), hi.map(Double.init), path)
        case (.number(let lo, let hi), .number(let x)):
            return bounds(x, lo, hi, path)
        case (.array(let items, let lo, let hi), .array(let elements)):
            if let lo, elements.count < lo { return "\(path) has \(elements.count) elements, fewer than \(lo)" }
            if let hi, elements.count > hi { return "\(path) has \(elements.count) elements, more than \(hi)" }
            for (i, element) in elements.enumerated() {
                if let problem = conformanceProblem(element, items, path: "\(path)[\(i)]") { return problem }
            }
            return nil
        case (.object(let object), .structure(let properties, _)):
            for property in object.properties {
                guard let member = properties[property.name] else {
                    if property.isOptional { continue }
                    return "\(path).\(property.name) is missing"
                }
                if property.isOptional, case .null = member.kind { continue }
                if let problem = conformanceProblem(member, property.node, path: "\(path).\(property.name)") { return problem }
            }
            let known = Set(object.properties.map(\.name))
            if let extra = properties.keys.sorted().first(where: { !known.contains($0) }) { return "\(path).\(extra) is not in the schema" }
            return nil
        case (.json, _):
            let single = GenerationSchema(title: title, description: nil, root: node, definitions: definitions)
            return (try? single.grammarAccepts(value.jsonString)) == true ? nil : "\(path) does not follow its JSON Schema"
        default:
            return "\(path) is \(value.kind.kindName), not \(node.kindName)"
        }
    }

    private func bounds(_ x: Double, _ lo: Double?, _ hi: Double?, _ path: String) -> String? {
        if let lo, x < lo { return "\(path) is below \(lo)" }
        if let hi, x > hi { return "\(path) is above \(hi)" }
        return nil
    }
}

private extension SchemaNode {
    var kindName: String {
        switch self {
        case .object: "an object"
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .anyOf: "one of several kinds"
        case .reference(let name): name
        case .any, .json: "a value"
        }
    }
}

private extension GeneratedContent.Kind {
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .structure: "an object"
        }
    }
}
