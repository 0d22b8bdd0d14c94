import Foundation

/// A JSON value for request bodies, written with its object keys in the order given.
///
/// Order matters for a response schema: llama.cpp turns a JSON Schema into a grammar whose properties come
/// in the schema's key order, and `JSONSerialization` on Linux does not keep it. ``raw(_:)`` embeds JSON
/// text as is (a schema rendered by ``GenerationSchema``).
package indirect enum ServerJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([ServerJSON])
    case object([(String, ServerJSON)])
    /// JSON text, inserted unchanged (the caller vouches for it).
    case raw(String)

    package static func == (a: ServerJSON, b: ServerJSON) -> Bool { a.text == b.text }

    /// The value as compact JSON text.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += GeneratedContent.jsonNumber(d)
        case .string(let s): GeneratedContent.writeString(s, to: &out)
        case .raw(let text): out += text
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                GeneratedContent.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}
