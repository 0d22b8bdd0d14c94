/// Finds a `GenerableSchema` type's properties by running its `init(from:)` against a Decoder
/// that records each key asked for (in declaration order, as synthesized Codable asks), whether
/// it was asked with `decodeIfPresent` (an optional), and the value type's schema. It answers
/// with placeholder values so decoding can go on.
enum SchemaDiscovery {
    struct Found {
        var name: String
        var isOptional: Bool
        var schema: GenerationSchema
    }

    /// Shared between the decoder and its containers.
    final class Recorder {
        var properties: [Found] = []
        var problem: GenerableSchemaError?
        let typeName: String
        init(typeName: String) { self.typeName = typeName }
    }

    static func schema<T: GenerableSchema>(of type: T.Type) throws(GenerableSchemaError) -> GenerationSchema {
        let typeName = GenerationSchema.typeName(T.self)
        let recorder = Recorder(typeName: typeName)
        do {
            _ = try T(from: DiscoveryDecoder(recorder: recorder))
        } catch {
            throw recorder.problem ?? .notAStructure(type: typeName, reason: "\(error)")
        }
        if let problem = recorder.problem { throw problem }
        let guides = T.generationGuides
        let known = recorder.properties.map(\.name)
        var guided: [String: PropertyGuide<T>] = [:]
        for guide in guides.properties {
            guard known.contains(guide.name) else {
                throw .unknownProperty(type: typeName, property: guide.name, known: known)
            }
            guard guided.updateValue(guide, forKey: guide.name) == nil else {
                throw .duplicateGuide(type: typeName, property: guide.name)
            }
        }
        let properties = recorder.properties.map { found in
            GenerationSchema.Property(name: found.name, description: guided[found.name]?.description,
                                      isOptional: found.isOptional, schema: found.schema,
                                      constraints: guided[found.name]?.constraints ?? [])
        }
        let schema = GenerationSchema(type: T.self, description: guides.description, properties: properties)
        if case let .object(object) = schema.root {
            for p in object.properties {
                if let problem = p.node.unsatisfiableGuide { throw .unsatisfiableGuide(type: typeName, property: p.name, reason: problem) }
            }
        }
        return schema
    }

    struct DiscoveryDecoder: Decoder {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(DiscoveryContainer<Key>(recorder: recorder))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw fail("init(from:) asks for an unkeyed container")
        }
        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw fail("init(from:) asks for a single value")
        }
        func fail(_ reason: String) -> GenerableSchemaError {
            let error = GenerableSchemaError.notAStructure(type: recorder.typeName, reason: reason)
            recorder.problem = recorder.problem ?? error
            return error
        }
    }

    struct DiscoveryContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        /// Records the property and returns a placeholder of its type.
        func record<T: Decodable>(_ type: T.Type, _ key: Key, optional: Bool) throws -> T {
            guard let generable = T.self as? any Generable.Type else {
                let error = GenerableSchemaError.notGenerable(type: recorder.typeName, property: key.stringValue, propertyType: "\(T.self)")
                recorder.problem = recorder.problem ?? error
                throw error
            }
            recorder.properties.append(Found(name: key.stringValue, isOptional: optional, schema: generable.generationSchema))
            return try Placeholder.value(of: T.self)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try record(type, key, optional: false) }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            _ = try record(type, key, optional: true)
            return nil
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try record(type, key, optional: false) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try record(type, key, optional: false) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try record(type, key, optional: false) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try record(type, key, optional: false) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try record(type, key, optional: false) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { _ = try record(type, key, optional: true); return nil }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { _ = try record(type, key, optional: true); return nil }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { _ = try record(type, key, optional: true); return nil }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { _ = try record(type, key, optional: true); return nil }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { _ = try record(type, key, optional: true); return nil }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DiscoveryDecoder(recorder: recorder).fail("nested containers are not properties")
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DiscoveryDecoder(recorder: recorder).fail("nested containers are not properties")
        }
        func superDecoder() throws -> any Decoder { throw DiscoveryDecoder(recorder: recorder).fail("superDecoder") }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw DiscoveryDecoder(recorder: recorder).fail("superDecoder") }
    }
}
