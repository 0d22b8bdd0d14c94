import Foundation

/// A JSON value that keeps object keys in order, bridging `GeneratedContent` and `GenerationSchema`
/// into `Codable` containers (the transcript embeds both as JSON objects).
enum TranscriptJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TranscriptJSON])
    /// Keys in order; JSON coders do not keep object key order, so it is recovered where it matters
    /// from an ordered copy (see `Transcript+Codable.swift`).
    case object([(String, TranscriptJSON)])

    static func == (a: TranscriptJSON, b: TranscriptJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            // Key order is not recoverable from a Decoder; sort for a deterministic result.
            let keys = object.allKeys.map(\.stringValue).sorted()
            self = .object(try keys.map { ($0, try object.decode(TranscriptJSON.self, forKey: Key($0))) })
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [TranscriptJSON] = []
            while !array.isAtEnd { items.append(try array.decode(TranscriptJSON.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let d = try? single.decode(Double.self) { self = .number(d) }
            else { self = .string(try single.decode(String.self)) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let b):
            var single = encoder.singleValueContainer()
            try single.encode(b)
        case .number(let d):
            var single = encoder.singleValueContainer()
            try single.encode(d)
        case .string(let s):
            var single = encoder.singleValueContainer()
            try single.encode(s)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(item) }
        case .object(let pairs):
            var object = encoder.container(keyedBy: Key.self)
            for (key, value) in pairs { try object.encode(value, forKey: Key(key)) }
        }
    }
}

extension TranscriptJSON {
    init(_ content: GeneratedContent) {
        switch content.kind {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(TranscriptJSON.init))
        case let .structure(properties, orderedKeys):
            self = .object(orderedKeys.compactMap { key in properties[key].map { (key, TranscriptJSON($0)) } })
        }
    }

    var generatedContent: GeneratedContent {
        switch self {
        case .null: GeneratedContent(kind: .null)
        case .bool(let b): GeneratedContent(kind: .bool(b))
        case .number(let d): GeneratedContent(kind: .number(d))
        case .string(let s): GeneratedContent(kind: .string(s))
        case .array(let items): GeneratedContent(kind: .array(items.map(\.generatedContent)))
        case .object(let pairs):
            GeneratedContent(kind: .structure(
                properties: Dictionary(pairs.map { ($0.0, $0.1.generatedContent) }, uniquingKeysWith: { first, _ in first }),
                orderedKeys: pairs.map(\.0)))
        }
    }
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
