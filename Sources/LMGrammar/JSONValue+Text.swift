extension JSONValue {
    /// Compact JSON text of the value (members in stored order, strings escaped as RFC 8259 requires).
    package var compactText: String { text(indent: nil) }

    /// JSON text of the value: compact when `indent` is nil, else pretty with two spaces a level starting at
    /// `indent` levels (`": "` after keys). Members keep their stored order; number literals are written as stored.
    package func text(indent: Int?) -> String {
        var out = ""
        write(indent: indent, to: &out)
        return out
    }

    private func write(indent: Int?, to out: inout String) {
        let newline = indent.map { "\n" + String(repeating: "  ", count: $0 + 1) } ?? ""
        let close = indent.map { "\n" + String(repeating: "  ", count: $0) } ?? ""
        let inner = indent.map { $0 + 1 }
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(t, _): out += t
        case let .string(s, _): out += String(decoding: JSONText.quoted(s), as: UTF8.self)
        case let .array(items, _):
            guard !items.isEmpty else { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                out += (i > 0 ? "," : "") + newline
                item.write(indent: inner, to: &out)
            }
            out += close + "]"
        case let .object(members, _):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{"
            for (i, m) in members.enumerated() {
                out += (i > 0 ? "," : "") + newline
                out += String(decoding: JSONText.quoted(m.key), as: UTF8.self) + (indent == nil ? ":" : ": ")
                m.value.write(indent: inner, to: &out)
            }
            out += close + "}"
        }
    }
}
