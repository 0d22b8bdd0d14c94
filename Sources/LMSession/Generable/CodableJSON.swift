import Foundation
import LMGrammar

/// A JSON value (LMGrammar's ordered ``JSONValue``) through `Encoder`/`Decoder`: how the transcript's JSON and a
/// ``GenerationSchema`` carry JSON trees in Foundation's JSON coders. Encoding keeps the members' order; decoding
/// sorts an object's keys, since a `Decoder` does not give their order (where order matters it is recovered: a
/// schema's properties by their `x-order`, a structured segment's content from its JSON text). Whole numbers decode
/// as integers' text, others as the shortest `Double` text.
struct CodableJSON: Codable, Equatable, Sendable {
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
            for key in keyed.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append(JSONMember(key: key.stringValue, value: try keyed.decode(CodableJSON.self, forKey: key).value))
            }
            value = .object(members, complete: true)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(CodableJSON.self).value) }
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
            for item in items { try c.encode(CodableJSON(value: item)) }
        case let .object(members, _):
            var c = encoder.container(keyedBy: Key.self)
            for m in members { try c.encode(CodableJSON(value: m.value), forKey: Key(m.key)) }
        }
    }
}
