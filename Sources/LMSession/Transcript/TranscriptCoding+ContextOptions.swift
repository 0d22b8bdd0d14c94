import Foundation

// The JSON of the Apple 27 fields of a prompt entry (see `Transcript+Codable.swift` for the whole shape). Apple's
// spelling of these is not known; ours follows the Swift names.

/// `ContextOptions` as `{"includeSchemaInPrompt": Bool, "reasoningLevel": "light" | "moderate" | "deep" | {"custom": String}}`,
/// unset fields left out.
struct ContextOptionsCoding: Codable {
    /// A reasoning level: its name, or `{"custom": name}` for a level the model names itself.
    enum Level: Codable, Equatable {
        case named(String)
        case custom(String)

        private enum Keys: String, CodingKey { case custom }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Keys.self) {
                self = .custom(try object.decode(String.self, forKey: .custom))
            } else {
                self = .named(try decoder.singleValueContainer().decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .named(let name):
                var single = encoder.singleValueContainer()
                try single.encode(name)
            case .custom(let name):
                var object = encoder.container(keyedBy: Keys.self)
                try object.encode(name, forKey: .custom)
            }
        }
    }

    var includeSchemaInPrompt: Bool?
    var reasoningLevel: Level?

    init(_ options: ContextOptions) {
        includeSchemaInPrompt = options.includeSchemaInPrompt
        reasoningLevel = options.reasoningLevel.map { level in
            switch level {
            case .light: .named("light")
            case .moderate: .named("moderate")
            case .deep: .named("deep")
            case .custom(let name): .custom(name)
            }
        }
    }

    /// - Throws: `DecodingError.dataCorrupted` for a reasoning level name other than the three.
    func contextOptions() throws -> ContextOptions {
        let level: ContextOptions.ReasoningLevel? = switch reasoningLevel {
        case nil: nil
        case .named("light"): .light
        case .named("moderate"): .moderate
        case .named("deep"): .deep
        case .custom(let name): .custom(name)
        case .named(let other):
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown reasoningLevel \"\(other)\""))
        }
        return ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt, reasoningLevel: level)
    }
}

/// Request metadata as a JSON object. Each value is encoded with its own `Codable` conformance; decoding gives back
/// JSON's types: `Bool`, `Int` (an integral number), `Double`, `String`, `String?.none` for `null`, and for an
/// array or object a value that encodes to the same JSON (its type is internal: re-encode it to read it).
struct MetadataCoding: Codable {
    var values: [String: any Sendable & Codable & Equatable]

    init(values: [String: any Sendable & Codable & Equatable]) {
        self.values = values
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: CodableJSON.Key.self)
        var values: [String: any Sendable & Codable & Equatable] = [:]
        for key in object.allKeys {
            let value = try object.decode(MetadataValue.self, forKey: key)
            values[key.stringValue] = value.value
        }
        self.values = values
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: CodableJSON.Key.self)
        // Sorted keys: the same metadata always encodes the same way.
        for key in values.keys.sorted() {
            try object.encode(MetadataValue(value: values[key]!), forKey: CodableJSON.Key(key))
        }
    }
}

/// One metadata value, encoded through its own conformance (opened from the existential, so the encoder's
/// strategies for dates and data apply) and decoded as JSON's type.
private struct MetadataValue: Codable {
    var value: any Sendable & Codable & Equatable

    init(value: any Sendable & Codable & Equatable) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { value = String?.none }
        else if let bool = try? single.decode(Bool.self) { value = bool }
        else if let int = try? single.decode(Int.self) { value = int }
        else if let double = try? single.decode(Double.self) { value = double }
        else if let string = try? single.decode(String.self) { value = string }
        else { value = try single.decode(CodableJSON.self) }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(value)
    }
}
