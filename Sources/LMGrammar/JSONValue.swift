/// A JSON value that keeps object members in the order they were written, and says whether
/// each part was complete when the text ended.
///
/// Shared by the schema reader (`JSONSchemaReader`) and by `GeneratedContent(json:)` in LMSession,
/// which needs generation order and truncation tolerance that Foundation's coders don't give.
package indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's literal text (RFC 8259 grammar), and whether more digits could still follow.
    case number(String, complete: Bool)
    case string(String, complete: Bool)
    case array([JSONValue], complete: Bool)
    case object([JSONMember], complete: Bool)

    /// True when this value and everything inside it was closed before the text ended.
    package var isComplete: Bool {
        switch self {
        case .null, .bool: true
        case let .number(_, c), let .string(_, c): c
        case let .array(items, c): c && items.allSatisfy(\.isComplete)
        case let .object(members, c): c && members.allSatisfy(\.value.isComplete)
        }
    }

    /// The member named `key`, if this is an object holding it.
    package subscript(key: String) -> JSONValue? {
        guard case let .object(members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// One `"key": value` pair of a JSON object.
package struct JSONMember: Sendable, Equatable {
    package var key: String
    package var value: JSONValue
    package init(key: String, value: JSONValue) { self.key = key; self.value = value }
}

/// Why a JSON text could not be read: what was wrong and at which UTF-8 byte offset.
package enum JSONParseError: Error, Equatable, CustomStringConvertible {
    case unexpectedByte(UInt8, offset: Int)
    case unexpectedEnd(offset: Int)
    case invalidEscape(offset: Int)
    case invalidNumber(offset: Int)
    case trailingCharacters(offset: Int)
    case nestingTooDeep(offset: Int)

    package var description: String {
        switch self {
        case let .unexpectedByte(b, o): "unexpected byte 0x\(String(b, radix: 16)) at offset \(o)"
        case let .unexpectedEnd(o): "unexpected end of text at offset \(o)"
        case let .invalidEscape(o): "invalid string escape at offset \(o)"
        case let .invalidNumber(o): "invalid number at offset \(o)"
        case let .trailingCharacters(o): "characters after the value at offset \(o)"
        case let .nestingTooDeep(o): "nesting deeper than 512 levels at offset \(o)"
        }
    }
}
