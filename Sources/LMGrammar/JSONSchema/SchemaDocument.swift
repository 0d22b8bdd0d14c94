/// A subschema and the JSON pointer where it sits in the document: errors name that path, and
/// two subschemas at the same path are the same schema.
struct Located {
    let json: JSONValue
    let path: String

    /// The subschema under `key` (a keyword or a name), with its path.
    func child(_ key: String, _ value: JSONValue) -> Located { Located(json: value, path: path + "/" + Self.escape(key)) }

    /// The subschema at `index` of the array under `key`.
    func child(_ key: String, _ index: Int, _ value: JSONValue) -> Located {
        Located(json: value, path: path + "/" + Self.escape(key) + "/\(index)")
    }

    /// A JSON pointer segment (RFC 6901: `~` as `~0`, `/` as `~1`).
    static func escape(_ segment: String) -> String {
        var out = ""
        for c in segment {
            switch c {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(c)
            }
        }
        return out
    }
}

/// One conjunct of a schema being lowered: a subschema, or the negation of a conjunction of terms.
indirect enum Term {
    case schema(Located)
    case not([Term])

    /// Identifies the term: the same key is the same constraint.
    var key: String {
        switch self {
        case let .schema(l): l.path
        case let .not(terms): "!(" + Term.key(terms) + ")"
        }
    }

    /// Identifies a conjunction (order does not matter).
    static func key(_ terms: [Term]) -> String {
        if terms.count == 1 { return terms[0].key }
        return Set(terms.map(\.key)).sorted().joined(separator: "&")
    }
}

/// The whole schema text: what `$ref` resolves against.
struct SchemaDocument {
    let root: JSONValue
    /// The root's `$id` without fragment: references may name the document by it.
    let baseID: String?
    /// `$anchor` names (and draft-07 `$id: "#name"`) to the pointer of their schema.
    private(set) var anchors: [String: String] = [:]
    /// Embedded schemas' `$id`s (without fragment) to their pointers.
    private(set) var ids: [String: String] = [:]

    init(root: JSONValue) {
        self.root = root
        if case let .string(id, _)? = root["$id"] { baseID = String(id.prefix { $0 != "#" }) } else { baseID = nil }
        index(root, path: "")
    }

    private mutating func index(_ value: JSONValue, path: String) {
        switch value {
        case let .object(members, _):
            if case let .string(anchor, _)? = value["$anchor"] { anchors[anchor] = path }
            if case let .string(id, _)? = value["$id"] {
                if id.hasPrefix("#") { anchors[String(id.dropFirst())] = path }
                else if !path.isEmpty { ids[String(id.prefix { $0 != "#" })] = path }
            }
            for m in members where m.key != "enum" && m.key != "const" && m.key != "examples" && m.key != "default" {
                index(m.value, path: path + "/" + Located.escape(m.key))
            }
        case let .array(items, _):
            for (i, item) in items.enumerated() { index(item, path: path + "/\(i)") }
        default:
            break
        }
    }

    /// The value at a JSON pointer ("" is the root).
    func value(atPointer pointer: String) -> JSONValue? {
        guard !pointer.isEmpty else { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var current = root
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let segment = Self.unescape(raw)
            switch current {
            case .object:
                guard let next = current[segment] else { return nil }
                current = next
            case let .array(items, _):
                guard let i = Int(segment), items.indices.contains(i) else { return nil }
                current = items[i]
            default:
                return nil
            }
        }
        return current
    }

    /// A JSON pointer segment decoded (`~1` is `/`, then `~0` is `~`).
    static func unescape(_ raw: Substring) -> String {
        var out = ""
        var it = raw.makeIterator()
        while let c = it.next() {
            guard c == "~" else { out.append(c); continue }
            switch it.next() {
            case "1": out += "/"
            case "0": out += "~"
            case let other?: out.append(c); out.append(other)
            case nil: out.append(c)
            }
        }
        return out
    }

    /// The schema `ref` (a `$ref` value found at `path`) names.
    /// - Throws: `GrammarError.unsupportedKeyword` for a reference to another document, an
    ///   unknown anchor or a pointer to nothing.
    func resolve(_ ref: String, at path: String) throws(GrammarError) -> Located {
        func fail(_ reason: String) -> GrammarError { .unsupportedKeyword(path: path + "/$ref", keyword: "$ref", reason: reason) }
        let hash = ref.firstIndex(of: "#") ?? ref.endIndex
        let base = String(ref[..<hash])
        let fragment = hash < ref.endIndex ? String(ref[ref.index(after: hash)...]).removingPercentEncoding() : ""
        var prefix = ""
        if !base.isEmpty {
            if let id = ids[base] { prefix = id }
            else if base != baseID { throw fail("\"\(ref)\" names another document; only references inside this schema are read") }
        }
        let pointer: String
        if fragment.isEmpty || fragment.hasPrefix("/") {
            pointer = prefix + fragment
        } else if let anchored = anchors[fragment] {
            pointer = anchored
        } else {
            throw fail("no anchor \"\(fragment)\" for \"\(ref)\"")
        }
        guard let target = value(atPointer: pointer) else { throw fail("\"\(ref)\" points to nothing in this schema") }
        return Located(json: target, path: pointer)
    }
}

extension String {
    /// `%XX` sequences decoded (URI fragments may percent-encode pointer characters); the text as
    /// it is when a sequence is malformed.
    func removingPercentEncoding() -> String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let b = utf8.first {
            utf8 = utf8.dropFirst()
            if b == UInt8(ascii: "%"), utf8.count >= 2, let v = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
