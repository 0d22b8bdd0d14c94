/// Watches the strings inside a call's JSON for signs that the model has lost track of the call.
///
/// A small model that forgets a string's closing quote goes on to write the call's closing brackets (`}}]`) and
/// tag (`</tool_call>`) inside the string, where the grammar allows them, and then runs on. So inside a string
/// two closing brackets in a row (`}}`, `}]`, `]}`, `]]`) and the start of the closing tag (`</tool`) are
/// refused: the model has to close the string instead. Arguments can still hold single brackets.
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

    private mutating func scan(_ bytes: [UInt8]) -> Bool {
        for byte in bytes {
            guard inString else {
                if byte == UInt8(ascii: "\"") {
                    inString = true
                    recent = []
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
            } else if Self.isCloser(byte), let last = recent.last, Self.isCloser(last) {
                return false
            }
            recent.append(byte)
            if recent.count >= Self.tagStart.count && recent.suffix(Self.tagStart.count).elementsEqual(Self.tagStart) { return false }
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
