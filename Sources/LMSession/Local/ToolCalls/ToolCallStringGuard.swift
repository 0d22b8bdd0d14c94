/// Watches the strings inside a call's JSON for signs that the model has lost track of the call.
///
/// A small model that forgets a string's closing quote goes on to write the call's closing brackets (`}}]`) and
/// tag (`</tool_call>`) inside the string, where the grammar allows them, and then runs on. So inside a string
/// two closing brackets in a row that close nothing the string itself opened (`}}`, `}]`, `]}`, `]]` after
/// `Oslo`) and the start of the closing tag (`</tool`) are refused: the model has to close the string instead.
/// Brackets the string balances (`{"a":[1]}`, `if (x) { y }`) are text. The guard only steers: when the grammar
/// leaves nothing it admits (an argument guided to `.constant("}}")`), the decoder lets the grammar decide
/// (``ToolCallDecoder`` filters its mask with ``admits(_:)`` and keeps the grammar's mask when none is left).
///
/// A string whose last ``loopWindow`` bytes already occur earlier in it is looping (`greet_greet_wile_greet_...`);
/// ``isLooping`` tells the decoder to close it.
struct ToolCallStringGuard {
    /// Bytes of repeated text that count as a loop.
    static let loopWindow = 16

    private var inString = false
    private var escaped = false
    /// The current string's bytes so far (escapes as written).
    private var recent: [UInt8] = []
    /// The brackets the current string has opened and not closed, innermost last.
    private var openBrackets: [UInt8] = []
    /// Whether the string's last byte was a closing bracket that closed nothing the string opened.
    private var lastClosedNothing = false

    private static let tagStart = Array("</tool".utf8)

    /// Whether the JSON may go on with `bytes`.
    func admits(_ bytes: [UInt8]) -> Bool {
        var copy = self
        return copy.scan(bytes)
    }

    /// Takes `bytes`, which the caller has accepted.
    mutating func advance(_ bytes: [UInt8]) {
        _ = scan(bytes)
    }

    /// Whether the string's text ends with the start of the closing tag (`</too`), so that a token without a
    /// closing bracket or `<` may still complete it.
    var endsInsideTag: Bool {
        guard inString else { return false }
        return (1..<Self.tagStart.count).contains { recent.count >= $0 && recent.suffix($0).elementsEqual(Self.tagStart.prefix($0)) }
    }

    /// Whether a token of `bytes` could ever be refused when the string's text does not end inside the tag.
    static func mayRefuse(_ bytes: [UInt8]) -> Bool {
        bytes.contains { isCloser($0) || $0 == UInt8(ascii: "<") }
    }

    private mutating func scan(_ bytes: [UInt8]) -> Bool {
        for byte in bytes {
            guard inString else {
                if byte == UInt8(ascii: "\"") {
                    inString = true
                    recent = []
                    openBrackets = []
                    lastClosedNothing = false
                }
                continue
            }
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                continue
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                continue
            }
            if !bracket(byte) { return false }
            recent.append(byte)
            if recent.count >= Self.tagStart.count && recent.suffix(Self.tagStart.count).elementsEqual(Self.tagStart) { return false }
        }
        return true
    }

    /// Follows the string's own brackets; false for a second closing bracket in a row that closes nothing.
    private mutating func bracket(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            openBrackets.append(byte)
            lastClosedNothing = false
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            let opener = byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
            if openBrackets.last == opener {
                openBrackets.removeLast()
                lastClosedNothing = false
            } else {
                if lastClosedNothing { return false }
                lastClosedNothing = true
            }
        default:
            lastClosedNothing = false
        }
        return true
    }

    /// Whether the model is inside a string whose end repeats earlier text of the same string.
    var isLooping: Bool {
        let window = Self.loopWindow
        guard inString, !escaped, recent.count >= 2 * window else { return false }
        let tail = recent.suffix(window)
        let body = recent.dropLast(window)
        // Only windows that end where the tail starts or earlier: the search is over `body`.
        return (0...(body.count - window)).contains { offset in
            let start = body.startIndex + offset
            return body[start..<(start + window)].elementsEqual(tail)
        }
    }

    private static func isCloser(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }
}
