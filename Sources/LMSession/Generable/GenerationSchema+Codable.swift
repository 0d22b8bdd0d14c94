import Foundation
import LMGrammar

extension GenerationSchema: Codable {
    /// Writes the schema as JSON Schema in Apple's shape (see `GenerationSchema+JSON`).
    public func encode(to encoder: any Encoder) throws {
        try CodableJSON(value: jsonValue).encode(to: encoder)
    }

    /// Reads JSON Schema (Apple's shape or plain JSON Schema, drafts 4 to 2020-12) with the
    /// reader that builds the grammar (`LMGrammar`'s `Grammar(jsonSchema:)`): what it accepts
    /// is what generation enforces.
    ///
    /// A decoder does not keep the order of object keys, so an object without `x-order` gets its
    /// `required` properties first, then the rest by name (written into the schema as `x-order`).
    /// `GenerationSchema(jsonSchema:)` reads text in written order instead.
    ///
    /// A schema the grammar cannot enforce (an unsupported keyword or pattern) still decodes, so a
    /// transcript that holds one can be read; a request with it throws `unsupportedGuide`.
    /// - Throws: `DecodingError.dataCorrupted` for a schema that is malformed.
    public init(from decoder: any Decoder) throws {
        let json = SchemaLayout.orderingProperties(SchemaLayout.sortingKeys(try CodableJSON(from: decoder).value))
        do {
            self = try GenerationSchema(json: json, strict: false)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Reads JSON Schema text (Apple's shape or plain JSON Schema, drafts 4 to 2020-12), keeping
    /// properties in written order when there is no `x-order`. Every keyword that constrains
    /// values is enforced by the grammar or rejected here (see docs/guided.md). Not in Apple's API.
    /// - Throws: `SchemaReadError` for text that is not JSON (or gives a key twice in one object), a schema that cannot be read, a
    ///   keyword that cannot be enforced (`keyword` names it), or a schema no value satisfies;
    ///   `path` is the JSON pointer of the place in the text.
    public init(jsonSchema text: String) throws {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw SchemaReadError(path: "", reason: "the JSON cannot be read: \(error)") }
        self = try GenerationSchema(json: json, strict: true)
    }
}

/// A JSON Schema that could not be read: where (a JSON pointer into the schema), why, and the
/// keyword that cannot be enforced when that is the reason.
public struct SchemaReadError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// The keyword the grammar cannot enforce (`oneOf`, `multipleOf`, `$ref`...); nil when the
    /// schema is malformed or unsatisfiable.
    public let keyword: String?

    public init(path: String, reason: String, keyword: String? = nil) {
        self.path = path
        self.reason = reason
        self.keyword = keyword
    }

    public var description: String { "schema at \"\(path)\": \(reason)" }
}

extension GenerationSchema {
    /// A schema read from JSON: checked by the grammar's reader, kept as written. Not `strict`,
    /// only a malformed schema throws.
    init(json: JSONValue, strict: Bool) throws(SchemaReadError) {
        do {
            _ = try Grammar(jsonSchema: json)
        } catch {
            switch error {
            case let .invalidSchema(path, reason): throw SchemaReadError(path: path, reason: reason)
            case _ where !strict: break
            case let .unsupportedKeyword(path, keyword, reason):
                throw SchemaReadError(path: path, reason: "\(keyword) cannot be enforced: \(reason)", keyword: keyword)
            default: throw SchemaReadError(path: "", reason: error.description)
            }
        }
        self.init(title: json["title"]?.stringValue, description: json["description"]?.stringValue, root: .json(json))
    }
}

extension JSONValue {
    var stringValue: String? { if case let .string(s, _) = self { s } else { nil } }
}

extension GenerationSchema {
    /// The schema's JSON with sorted keys: a stable value for equality.
    var canonicalJSON: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The schema's `title` (the type name for a `Generable` type), or "" when it has none.
    var formatName: String {
        guard let object = try? JSONSerialization.jsonObject(with: canonicalJSON) as? [String: Any] else { return "" }
        return object["title"] as? String ?? ""
    }
}
