import Foundation

/// Encodes Codable values into `GeneratedContent`, keeping keys in the order they are encoded
/// (declaration order for synthesized Codable). Used by `GenerableSchema.generatedContent`.
final class GeneratedContentEncoder: Encoder {
    /// What has been written at this level; containers write into nested encoders' slots.
    enum Slot {
        case empty
        case value(GeneratedContent)
        case object(ObjectBox)
        case array(ArrayBox)
    }

    final class ObjectBox {
        var keys: [String] = []
        var values: [String: GeneratedContentEncoder] = [:]
        func set(_ key: String, _ encoder: GeneratedContentEncoder) {
            if values.updateValue(encoder, forKey: key) == nil { keys.append(key) }
        }
    }

    final class ArrayBox { var items: [GeneratedContentEncoder] = [] }

    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var slot: Slot = .empty

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    var content: GeneratedContent {
        switch slot {
        case .empty: return .null
        case let .value(v): return v
        case let .object(box):
            var properties: [String: GeneratedContent] = [:]
            for key in box.keys { properties[key] = box.values[key]?.content }
            return GeneratedContent(kind: .structure(properties: properties, orderedKeys: box.keys))
        case let .array(box):
            return GeneratedContent(kind: .array(box.items.map(\.content)))
        }
    }

    func objectBox() -> ObjectBox {
        if case let .object(box) = slot { return box }
        let box = ObjectBox()
        slot = .object(box)
        return box
    }

    func arrayBox() -> ArrayBox {
        if case let .array(box) = slot { return box }
        let box = ArrayBox()
        slot = .array(box)
        return box
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(encoder: self, box: objectBox()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: self, box: arrayBox()) }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// Encodes `value` into `encoder`, writing the types Codable cannot express as plain values directly.
    static func encode<T: Encodable>(_ value: T, into encoder: GeneratedContentEncoder) throws {
        if let content = value as? GeneratedContent { encoder.slot = .value(content); return }
        if let decimal = value as? Decimal { encoder.slot = .value(decimal.generatedContent); return }
        try value.encode(to: encoder)
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: GeneratedContentEncoder
        let box: ObjectBox
        var codingPath: [any CodingKey] { encoder.codingPath }

        func child(_ key: Key) -> GeneratedContentEncoder {
            let e = GeneratedContentEncoder(codingPath: codingPath + [key])
            box.set(key.stringValue, e)
            return e
        }
        mutating func encodeNil(forKey key: Key) throws { child(key).slot = .value(.null) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try GeneratedContentEncoder.encode(value, into: child(key)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            child(key).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { child(key).unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: GeneratedContentEncoder
        let box: ArrayBox
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { box.items.count }

        func child() -> GeneratedContentEncoder {
            let e = GeneratedContentEncoder(codingPath: codingPath)
            box.items.append(e)
            return e
        }
        mutating func encodeNil() throws { child().slot = .value(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { try GeneratedContentEncoder.encode(value, into: child()) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            child().container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { child().unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { child() }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: GeneratedContentEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        func set(_ kind: GeneratedContent.Kind) { encoder.slot = .value(GeneratedContent(kind: kind)) }
        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(.number(value)) }
        mutating func encode(_ value: Float) throws { set(.number(Double(value))) }
        mutating func encode(_ value: Int) throws { set(.number(Double(value))) }
        mutating func encode(_ value: Int8) throws { set(.number(Double(value))) }
        mutating func encode(_ value: Int16) throws { set(.number(Double(value))) }
        mutating func encode(_ value: Int32) throws { set(.number(Double(value))) }
        mutating func encode(_ value: Int64) throws { set(.number(Double(value))) }
        mutating func encode(_ value: UInt) throws { set(.number(Double(value))) }
        mutating func encode(_ value: UInt8) throws { set(.number(Double(value))) }
        mutating func encode(_ value: UInt16) throws { set(.number(Double(value))) }
        mutating func encode(_ value: UInt32) throws { set(.number(Double(value))) }
        mutating func encode(_ value: UInt64) throws { set(.number(Double(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws { try GeneratedContentEncoder.encode(value, into: encoder) }
    }
}
