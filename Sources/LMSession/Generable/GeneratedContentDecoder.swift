import Foundation

/// Decodes Codable values from `GeneratedContent` (used by `GenerableSchema.init(_:)`).
/// Numbers convert exactly: an integer type rejects fractions and out-of-range values.
struct GeneratedContentDecoder: Decoder {
    let content: GeneratedContent
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch(_ expected: String) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(content.jsonString)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .structure(properties, orderedKeys) = content.kind else { throw mismatch("a structure") }
        return KeyedDecodingContainer(Keyed<Key>(properties: properties, orderedKeys: orderedKeys, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .array(items) = content.kind else { throw mismatch("an array") }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    /// Decodes `T`, with the types Codable cannot read from a plain value handled directly.
    static func decode<T: Decodable>(_ type: T.Type, from content: GeneratedContent, codingPath: [any CodingKey]) throws -> T {
        if T.self == GeneratedContent.self, let c = content as? T { return c }
        if T.self == Decimal.self {
            let d = try Decimal(content)
            if let v = d as? T { return v }
        }
        return try T(from: GeneratedContentDecoder(content: content, codingPath: codingPath))
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let properties: [String: GeneratedContent]
        let orderedKeys: [String]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { orderedKeys.compactMap { Key(stringValue: $0) } }
        func contains(_ key: Key) -> Bool { properties[key.stringValue] != nil }

        func value(_ key: Key) throws -> GeneratedContent {
            guard let v = properties[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing property \"\(key.stringValue)\""))
            }
            return v
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key).kind == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try GeneratedContentDecoder.decode(T.self, from: try value(key), codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try GeneratedContentDecoder(content: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try GeneratedContentDecoder(content: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder {
            GeneratedContentDecoder(content: GeneratedContent(kind: .structure(properties: properties, orderedKeys: orderedKeys)), codingPath: codingPath)
        }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            GeneratedContentDecoder(content: try value(key), codingPath: codingPath + [key])
        }
    }

    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ i: Int) { intValue = i }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [GeneratedContent]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(items: [GeneratedContent], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        mutating func next() throws -> GeneratedContent {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "array ended"))
            }
            defer { currentIndex += 1 }
            return items[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex].kind == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let path = codingPath + [IndexKey(currentIndex)]
            return try GeneratedContentDecoder.decode(T.self, from: try next(), codingPath: path)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try GeneratedContentDecoder(content: try next(), codingPath: codingPath).container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try GeneratedContentDecoder(content: try next(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { GeneratedContentDecoder(content: try next(), codingPath: codingPath) }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: GeneratedContentDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.content.kind == .null }
        func decode(_ type: Bool.Type) throws -> Bool {
            guard case let .bool(b) = decoder.content.kind else { throw decoder.mismatch("a Boolean") }
            return b
        }
        func decode(_ type: String.Type) throws -> String {
            guard case let .string(s) = decoder.content.kind else { throw decoder.mismatch("a string") }
            return s
        }
        func number() throws -> Double {
            guard case let .number(n) = decoder.content.kind else { throw decoder.mismatch("a number") }
            return n
        }
        func integer<I: BinaryInteger>(_ type: I.Type) throws -> I {
            let n = try number()
            guard n == n.rounded(), let i = I(exactly: n) else { throw decoder.mismatch("an integer that fits \(I.self)") }
            return i
        }
        func decode(_ type: Double.Type) throws -> Double { try number() }
        func decode(_ type: Float.Type) throws -> Float { Float(try number()) }
        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try GeneratedContentDecoder.decode(T.self, from: decoder.content, codingPath: codingPath)
        }
    }
}
