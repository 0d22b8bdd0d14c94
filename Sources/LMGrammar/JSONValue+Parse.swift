extension JSONValue {
    /// Parses JSON text (RFC 8259).
    ///
    /// - Parameters:
    ///   - text: the JSON text; surrounding whitespace is ignored.
    ///   - allowingTruncation: when true, text that stops in the middle of a value yields the
    ///     deepest valid prefix: a cut string keeps the characters so far, a cut number keeps its
    ///     longest valid prefix, a member whose key or value has not started is dropped, and every
    ///     enclosing value is marked incomplete.
    /// - Throws: `JSONParseError` for text that is not JSON (or, without truncation, ends early).
    package static func parse(_ text: String, allowingTruncation: Bool = false) throws(JSONParseError) -> JSONValue {
        var parser = JSONTextParser(bytes: Array(text.utf8), partial: allowingTruncation)
        parser.skipWhitespace()
        guard let value = try parser.parseValue(depth: 0) else {
            throw .unexpectedEnd(offset: parser.position)
        }
        if !parser.truncated {
            parser.skipWhitespace()
            if parser.position < parser.bytes.count { throw .trailingCharacters(offset: parser.position) }
        }
        return value
    }
}

/// Recursive-descent reader behind `JSONValue.parse`. `truncated` is set once the end of the
/// text was hit inside a value; from then on every caller returns what it has.
struct JSONTextParser {
    let bytes: [UInt8]
    let partial: Bool
    var position = 0
    var truncated = false

    init(bytes: [UInt8], partial: Bool) { self.bytes = bytes; self.partial = partial }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    /// Marks truncation (partial mode) or throws (strict mode).
    mutating func hitEnd() throws(JSONParseError) {
        guard partial else { throw .unexpectedEnd(offset: position) }
        truncated = true
    }

    /// Returns nil only when the text ended before anything usable of this value was read.
    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue? {
        guard depth < 512 else { throw .nestingTooDeep(offset: position) }
        guard position < bytes.count else { try hitEnd(); return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return try parseString().map { .string($0.text, complete: $0.complete) }
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let b: throw .unexpectedByte(b, offset: position)
        }
    }

    mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue? {
        for b in word.utf8 {
            guard position < bytes.count else { try hitEnd(); return nil }
            guard bytes[position] == b else { throw .unexpectedByte(bytes[position], offset: position) }
            position += 1
        }
        return value
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue? {
        position += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members, complete: true)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { try hitEnd(); return .object(members, complete: false) }
            guard bytes[position] == UInt8(ascii: "\"") else { throw .unexpectedByte(bytes[position], offset: position) }
            guard let key = try parseString(), key.complete else { return .object(members, complete: false) }
            skipWhitespace()
            guard position < bytes.count else { try hitEnd(); return .object(members, complete: false) }
            guard bytes[position] == UInt8(ascii: ":") else { throw .unexpectedByte(bytes[position], offset: position) }
            position += 1
            skipWhitespace()
            guard let value = try parseValue(depth: depth + 1) else { return .object(members, complete: false) }
            members.append(JSONMember(key: key.text, value: value))
            if truncated { return .object(members, complete: false) }
            skipWhitespace()
            guard position < bytes.count else { try hitEnd(); return .object(members, complete: false) }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members, complete: true)
            case let b: throw .unexpectedByte(b, offset: position)
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue? {
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(items, complete: true)
        }
        while true {
            skipWhitespace()
            guard let item = try parseValue(depth: depth + 1) else { return .array(items, complete: false) }
            items.append(item)
            if truncated { return .array(items, complete: false) }
            skipWhitespace()
            guard position < bytes.count else { try hitEnd(); return .array(items, complete: false) }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(items, complete: true)
            case let b: throw .unexpectedByte(b, offset: position)
            }
        }
    }

    /// Reads a string starting at its opening quote. A cut escape or cut UTF-8 sequence at the
    /// end is dropped from the partial text.
    mutating func parseString() throws(JSONParseError) -> (text: String, complete: Bool)? {
        position += 1
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else {
                try hitEnd()
                return (String(decoding: trimCutUTF8(out), as: UTF8.self), false)
            }
            let b = bytes[position]
            switch b {
            case UInt8(ascii: "\""):
                position += 1
                return (String(decoding: out, as: UTF8.self), true)
            case UInt8(ascii: "\\"):
                guard let scalar = try parseEscape() else {
                    return (String(decoding: trimCutUTF8(out), as: UTF8.self), false)
                }
                out.append(contentsOf: String(Character(scalar)).utf8)
            case 0..<0x20:
                throw .unexpectedByte(b, offset: position)
            default:
                out.append(b)
                position += 1
            }
        }
    }

    /// Reads `\x` or `\uXXXX` (with a following low surrogate when needed); nil when the text ends inside it.
    mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar? {
        let start = position
        position += 1
        guard position < bytes.count else { try hitEnd(); return nil }
        let c = bytes[position]
        position += 1
        switch c {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let high = try parseHex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard position + 1 < bytes.count || !partial else { try hitEnd(); return nil }
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                else { throw .invalidEscape(offset: start) }
                position += 2
                guard let low = try parseHex4() else { return nil }
                guard (0xDC00..<0xE000).contains(low) else { throw .invalidEscape(offset: start) }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw .invalidEscape(offset: start) }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw .invalidEscape(offset: start) }
            return scalar
        default:
            throw .invalidEscape(offset: start)
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { try hitEnd(); return nil }
            let b = bytes[position]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw .invalidEscape(offset: position)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Reads a number; at the end of a truncated text keeps its longest valid prefix.
    mutating func parseNumber() throws(JSONParseError) -> JSONValue? {
        let start = position
        var lastValidEnd = -1
        func digits(_ p: inout JSONTextParser) -> Int {
            let s = p.position
            while p.position < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.position]) { p.position += 1 }
            return p.position - s
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if digits(&self) == 0 {
            if position < bytes.count || !partial { throw .invalidNumber(offset: start) }
            truncated = true
            return nil
        }
        lastValidEnd = position
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            if digits(&self) == 0 {
                if position < bytes.count { throw .invalidNumber(offset: start) }
            } else { lastValidEnd = position }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            if digits(&self) == 0 {
                if position < bytes.count { throw .invalidNumber(offset: start) }
            } else { lastValidEnd = position }
        }
        let text = String(decoding: bytes[start..<lastValidEnd], as: UTF8.self)
        if position == bytes.count, partial {
            // A number that runs to the end of a truncated text could still grow.
            truncated = true
            return .number(text, complete: false)
        }
        guard lastValidEnd == position else { throw .invalidNumber(offset: start) }
        return .number(text, complete: true)
    }

    /// Drops an incomplete UTF-8 sequence at the end of `bytes`.
    func trimCutUTF8(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var i = bytes.count - 1
        var continuation = 0
        while i >= 0, bytes[i] & 0xC0 == 0x80, continuation < 3 { i -= 1; continuation += 1 }
        guard i >= 0 else { return bytes[...] }
        let lead = bytes[i]
        let need = lead < 0x80 ? 0 : lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
        return continuation < need ? bytes[..<i] : bytes[...]
    }
}
