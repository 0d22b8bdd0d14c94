/// Reads JSON text as it is generated, a piece at a time, keeping the open containers on a stack, so the
/// value so far is at hand after every piece without reading the text again (`GeneratedContent(json:)` on
/// each prefix re-reads it all: quadratic over a response).
///
/// ``content`` is what `GeneratedContent(json:)` gives for the text so far: the same kinds and the same
/// completeness (a cut string keeps its characters, a cut number its longest valid prefix, a member whose
/// key or value has not started is left out), nil before a value starts or once the text is not JSON.
/// Building it costs the open string's length plus the direct children of each open container, not the
/// whole text.
package struct IncrementalJSONReader {
    private enum Container {
        /// An object; `key` is the member whose value is being read (nil: between members).
        case object(properties: [String: GeneratedContent], order: [String], key: String?)
        case array(items: [GeneratedContent])
    }

    /// What the next byte that is not whitespace may be.
    private enum Expect {
        case value, valueOrClose, keyOrClose, key, colon, commaOrClose, end
    }

    /// A scalar being read.
    private enum Scalar {
        case none
        case string(bytes: [UInt8], isKey: Bool, escape: Escape)
        case number(bytes: [UInt8], state: NumberState, validLength: Int)
        case literal(word: [UInt8], matched: Int, value: GeneratedContent.Kind)
    }

    private enum Escape: Equatable {
        case none, backslash
        /// Inside `\uXXXX`: `digits` read so far, their `value`, and the high surrogate before it, if any.
        case hex(digits: Int, value: UInt32, high: UInt32?)
        /// After a high surrogate: `\` and `u` of its low half must follow.
        case lowBackslash(high: UInt32), lowU(high: UInt32)
    }

    /// RFC 8259 number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private enum NumberState { case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent }

    private var stack: [Container] = []
    private var expect = Expect.value
    private var scalar = Scalar.none
    private var root: GeneratedContent?
    /// Set once the text is not (a prefix of) one JSON value.
    package private(set) var failed = false

    /// Nesting limit, as `JSONValue.parse`.
    private static let maximumDepth = 512

    package init() {}

    /// Reads the next piece of text.
    package mutating func append(_ text: String) {
        guard !failed else { return }
        for byte in text.utf8 {
            read(byte)
            if failed { return }
        }
    }

    /// The value so far (see the type's description).
    package var content: GeneratedContent? {
        guard !failed else { return nil }
        if let root { return root }
        var current = partialScalar
        for container in stack.reversed() {
            switch container {
            case let .object(properties, order, key):
                var properties = properties, order = order
                if let key, let current, properties.updateValue(current, forKey: key) == nil { order.append(key) }
                current = GeneratedContent(kind: .structure(properties: properties, orderedKeys: order), isComplete: false)
            case let .array(items):
                current = GeneratedContent(kind: .array(current.map { items + [$0] } ?? items), isComplete: false)
            }
        }
        return current
    }

    // MARK: - Reading

    private var partialScalar: GeneratedContent? {
        switch scalar {
        case .none, .literal, .string(_, isKey: true, _):
            return nil
        case let .string(bytes, _, _):
            // Whole characters only: text arrives as whole characters and escapes are added once complete.
            return GeneratedContent(kind: .string(String(decoding: bytes, as: UTF8.self)), isComplete: false)
        case let .number(bytes, _, validLength):
            guard validLength > 0 else { return nil }
            return GeneratedContent(kind: .number(Double(String(decoding: bytes[..<validLength], as: UTF8.self)) ?? 0), isComplete: false)
        }
    }

    private mutating func read(_ byte: UInt8) {
        switch scalar {
        case .string:
            readString(byte)
            return
        case .number:
            if readNumber(byte) { return }
        case let .literal(word, matched, value):
            guard byte == word[matched] else { return fail() }
            if matched + 1 == word.count {
                scalar = .none
                finish(GeneratedContent(kind: value))
            } else {
                scalar = .literal(word: word, matched: matched + 1, value: value)
            }
            return
        case .none:
            break
        }
        if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { return }
        switch expect {
        case .end:
            fail()
        case .value:
            startValue(byte)
        case .valueOrClose:
            if byte == UInt8(ascii: "]") { close() } else { startValue(byte) }
        case .keyOrClose, .key:
            if byte == UInt8(ascii: "}"), expect == .keyOrClose {
                close()
            } else if byte == UInt8(ascii: "\"") {
                scalar = .string(bytes: [], isKey: true, escape: .none)
            } else {
                fail()
            }
        case .colon:
            if byte == UInt8(ascii: ":") { expect = .value } else { fail() }
        case .commaOrClose:
            switch (stack.last, byte) {
            case (.object, UInt8(ascii: ",")): expect = .key
            case (.array, UInt8(ascii: ",")): expect = .value
            case (.object, UInt8(ascii: "}")), (.array, UInt8(ascii: "]")): close()
            default: fail()
            }
        }
    }

    private mutating func startValue(_ byte: UInt8) {
        guard stack.count < Self.maximumDepth else { return fail() }
        switch byte {
        case UInt8(ascii: "{"):
            stack.append(.object(properties: [:], order: [], key: nil))
            expect = .keyOrClose
        case UInt8(ascii: "["):
            stack.append(.array(items: []))
            expect = .valueOrClose
        case UInt8(ascii: "\""):
            scalar = .string(bytes: [], isKey: false, escape: .none)
        case UInt8(ascii: "t"):
            scalar = .literal(word: Array("true".utf8), matched: 1, value: .bool(true))
        case UInt8(ascii: "f"):
            scalar = .literal(word: Array("false".utf8), matched: 1, value: .bool(false))
        case UInt8(ascii: "n"):
            scalar = .literal(word: Array("null".utf8), matched: 1, value: .null)
        case UInt8(ascii: "-"):
            scalar = .number(bytes: [byte], state: .minus, validLength: 0)
        case UInt8(ascii: "0"):
            scalar = .number(bytes: [byte], state: .zero, validLength: 1)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            scalar = .number(bytes: [byte], state: .integer, validLength: 1)
        default:
            fail()
        }
    }

    /// A value is complete: it becomes the root, an array item, or the value of the pending member.
    private mutating func finish(_ value: GeneratedContent) {
        switch stack.popLast() {
        case nil:
            root = value
            expect = .end
        case .array(var items)?:
            items.append(value)
            stack.append(.array(items: items))
            expect = .commaOrClose
        case .object(var properties, var order, let key)?:
            if let key, properties.updateValue(value, forKey: key) == nil { order.append(key) }
            stack.append(.object(properties: properties, order: order, key: nil))
            expect = .commaOrClose
        }
    }

    private mutating func close() {
        switch stack.popLast() {
        case let .object(properties, order, _)?:
            finish(GeneratedContent(kind: .structure(properties: properties, orderedKeys: order)))
        case let .array(items)?:
            finish(GeneratedContent(kind: .array(items)))
        case nil:
            fail()
        }
    }

    private mutating func readString(_ byte: UInt8) {
        guard case .string(var bytes, let isKey, let escape) = scalar else { return }
        // Keep the buffer uniquely referenced while it grows.
        scalar = .none
        var next = Escape.none
        switch escape {
        case .none:
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes, as: UTF8.self)
                if isKey {
                    guard case let .object(properties, order, _)? = stack.popLast() else { return fail() }
                    stack.append(.object(properties: properties, order: order, key: text))
                    expect = .colon
                } else {
                    finish(GeneratedContent(kind: .string(text)))
                }
                return
            }
            if byte == UInt8(ascii: "\\") {
                next = .backslash
            } else if byte < 0x20 {
                return fail()
            } else {
                bytes.append(byte)
            }
        case .backslash:
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"): next = .hex(digits: 0, value: 0, high: nil)
            default: return fail()
            }
        case let .hex(digits, value, high):
            guard let digit = Self.hexValue(byte) else { return fail() }
            let value = value << 4 | digit
            if digits < 3 {
                next = .hex(digits: digits + 1, value: value, high: high)
            } else if let high {
                guard (0xDC00..<0xE000).contains(value),
                      let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)) else { return fail() }
                bytes += Array(String(Character(scalar)).utf8)
            } else if (0xD800..<0xDC00).contains(value) {
                next = .lowBackslash(high: value)
            } else {
                guard let scalar = Unicode.Scalar(value) else { return fail() }
                bytes += Array(String(Character(scalar)).utf8)
            }
        case let .lowBackslash(high):
            guard byte == UInt8(ascii: "\\") else { return fail() }
            next = .lowU(high: high)
        case let .lowU(high):
            guard byte == UInt8(ascii: "u") else { return fail() }
            next = .hex(digits: 0, value: 0, high: high)
        }
        scalar = .string(bytes: bytes, isKey: isKey, escape: next)
    }

    /// Takes `byte` into the number being read; false when the number ended before it (the byte is
    /// then read as what follows the number).
    private mutating func readNumber(_ byte: UInt8) -> Bool {
        guard case .number(var bytes, let state, var validLength) = scalar else { return false }
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        let next: NumberState?
        switch (state, byte) {
        case (.minus, UInt8(ascii: "0")): next = .zero
        case (.minus, _) where isDigit: next = .integer
        case (.integer, _) where isDigit: next = .integer
        case (.zero, UInt8(ascii: ".")), (.integer, UInt8(ascii: ".")): next = .dot
        case (.dot, _) where isDigit, (.fraction, _) where isDigit: next = .fraction
        case (.zero, _), (.integer, _), (.fraction, _):
            next = byte | 0x20 == UInt8(ascii: "e") ? .exponentMark : nil
        case (.exponentMark, UInt8(ascii: "+")), (.exponentMark, UInt8(ascii: "-")): next = .exponentSign
        case (.exponentMark, _) where isDigit, (.exponentSign, _) where isDigit, (.exponent, _) where isDigit: next = .exponent
        default: next = nil
        }
        guard let next else {
            // The number ends here; it must be complete.
            switch state {
            case .zero, .integer, .fraction, .exponent:
                scalar = .none
                finish(GeneratedContent(kind: .number(Double(String(decoding: bytes, as: UTF8.self)) ?? 0)))
                return false
            default:
                fail()
                return true
            }
        }
        scalar = .none
        bytes.append(byte)
        if next == .zero || next == .integer || next == .fraction || next == .exponent { validLength = bytes.count }
        scalar = .number(bytes: bytes, state: next, validLength: validLength)
        return true
    }

    private mutating func fail() {
        failed = true
        stack = []
        scalar = .none
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
