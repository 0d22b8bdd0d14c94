extension JinjaValue {
    /// Parses JSON text (RFC 8259) keeping object keys in order, for message lists, tool
    /// definitions and tool-call arguments.
    ///
    /// - Parameters:
    ///   - json: the text; surrounding whitespace is allowed, anything else after the value is not.
    ///   - maxNesting: deepest allowed nesting of arrays and objects (the parser recurses per level).
    /// - Throws: ``JinjaError/invalidJSON(message:byteOffset:)`` for malformed text, lone
    ///   surrogate escapes, or nesting deeper than `maxNesting`.
    public init(parsingJSON json: String, maxNesting: Int = 128) throws(JinjaError) {
        var parser = JSONParser(bytes: Array(json.utf8), maxNesting: maxNesting)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.pos == parser.bytes.count else { throw parser.fail("unexpected text after the value") }
        self = value
    }
}

/// A recursive-descent JSON reader over UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    let maxNesting: Int
    var pos = 0

    init(bytes: [UInt8], maxNesting: Int) {
        self.bytes = bytes
        self.maxNesting = maxNesting
    }

    func fail(_ message: String) -> JinjaError { .invalidJSON(message: message, byteOffset: pos) }

    mutating func skipSpace() {
        while pos < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[pos]) { pos += 1 }
    }

    mutating func value(depth: Int) throws(JinjaError) -> JinjaValue {
        guard depth <= maxNesting else { throw fail("nesting deeper than \(maxNesting)") }
        guard pos < bytes.count else { throw fail("unexpected end of text") }
        switch bytes[pos] {
        case UInt8(ascii: "{"):
            pos += 1
            var pairs: [(key: String, value: JinjaValue)] = []
            var seen: [ExactString: Int] = [:]
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let key = try string()
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                let item = try value(depth: depth + 1)
                // Python's dict keeps the first position of a repeated key and its last value.
                let exact = ExactString(key)
                if let i = seen[exact] {
                    pairs[i].value = item
                } else {
                    seen[exact] = pairs.count
                    pairs.append((key: key, value: item))
                }
                skipSpace()
                if try separator(close: UInt8(ascii: "}")) { return .object(pairs) }
            }
        case UInt8(ascii: "["):
            pos += 1
            var items: [JinjaValue] = []
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                if try separator(close: UInt8(ascii: "]")) { return .array(items) }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true"); return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false"); return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null"); return .null
        default:
            return try number()
        }
    }

    /// After an item: true at the closing bracket, false after a comma.
    mutating func separator(close: UInt8) throws(JinjaError) -> Bool {
        guard pos < bytes.count else { throw fail("unexpected end of text") }
        if bytes[pos] == close { pos += 1; return true }
        try expect(UInt8(ascii: ","))
        return false
    }

    mutating func expect(_ byte: UInt8) throws(JinjaError) {
        guard pos < bytes.count, bytes[pos] == byte else { throw fail("expected '\(Character(Unicode.Scalar(byte)))'") }
        pos += 1
    }

    mutating func literal(_ word: String) throws(JinjaError) {
        for b in word.utf8 { try expect(b) }
    }

    mutating func number() throws(JinjaError) -> JinjaValue {
        let start = pos
        func digits(_ p: inout Int, _ bytes: [UInt8]) -> Int {
            let s = p
            while p < bytes.count, bytes[p] >= 0x30, bytes[p] <= 0x39 { p += 1 }
            return p - s
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 else { throw fail("unexpected character") }
        if bytes[pos] == 0x30 { pos += 1 } else { _ = digits(&pos, bytes) }
        var isInteger = true
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            isInteger = false
            guard digits(&pos, bytes) > 0 else { throw fail("expected digits after '.'") }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            isInteger = false
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard digits(&pos, bytes) > 0 else { throw fail("expected exponent digits") }
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        if isInteger, let i = Int(text) { return .int(i) }
        guard let d = Double(text) else { throw fail("unreadable number") }
        return .double(d)
    }

    mutating func string() throws(JinjaError) -> String {
        pos += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard pos < bytes.count else { throw fail("unterminated string") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { pos += 1; break }
            if b < 0x20 { throw fail("control character in string") }
            if b != UInt8(ascii: "\\") { out.append(b); pos += 1; continue }
            pos += 1
            guard pos < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                        throw fail("lone surrogate escape")
                    }
                    pos += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw fail("lone surrogate escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("invalid escape") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw fail("invalid escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in string") }
        return s
    }

    mutating func hex4() throws(JinjaError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[pos]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v * 16 + d
            pos += 1
        }
        return v
    }
}
