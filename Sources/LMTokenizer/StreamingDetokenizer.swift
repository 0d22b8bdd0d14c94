/// Turns generated tokens into text one token at a time without ever emitting a broken UTF-8
/// sequence: bytes of a character split across tokens (an emoji spelled as four `<0xNN>` byte
/// tokens, a CJK character split by BPE) are held until the character is complete.
///
/// Each token contributes ``Tokenizer/tokenBytes(_:)`` (llama.cpp's per-token piece, as its server
/// streams). Concatenating every `append` result and `finish()` gives the same text as
/// ``Tokenizer/decode(_:includeSpecial:)`` for models without a space prefix or space clean-up
/// (SmolLM2, Gemma 3).
public struct StreamingDetokenizer: Sendable {
    /// The tokenizer pieces come from; nil when built from a ``TokenPieces`` table.
    public let tokenizer: Tokenizer?
    /// Render control tokens as their text.
    public let includeSpecial: Bool
    /// The table pieces are looked up in, when given (then `append` allocates nothing once warm).
    private let pieces: TokenPieces?
    private var pending: [UInt8] = []

    public init(tokenizer: Tokenizer, includeSpecial: Bool = false) {
        self.tokenizer = tokenizer
        self.includeSpecial = includeSpecial
        self.pieces = nil
    }

    /// A detokenizer that reads pieces from `pieces` (such as ``Tokenizer/pieces``: control tokens as
    /// nothing). After the first token, a token whose completed text fits in 15 UTF-8 bytes (a Swift
    /// small string) allocates nothing.
    public init(pieces: TokenPieces) {
        self.tokenizer = nil
        self.includeSpecial = false
        self.pieces = pieces
        pending.reserveCapacity(64)
    }

    /// Adds one token and returns the text that is now complete (possibly empty).
    public mutating func append(_ id: Int) -> String {
        if let pieces {
            pieces.withPiece(id) { pending.append(contentsOf: $0) }
        } else if let tokenizer {
            pending.append(contentsOf: tokenizer.piece(id, special: includeSpecial))
        }
        let cut = Self.completePrefixLength(pending)
        guard cut > 0 else { return "" }
        let text = String(decoding: pending[..<cut], as: UTF8.self)
        pending.removeFirst(cut)
        return text
    }

    /// Returns whatever is still held; an unfinished character becomes U+FFFD. The detokenizer is
    /// then empty and can be reused.
    public mutating func finish() -> String {
        defer { pending.removeAll(keepingCapacity: true) }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Length of the longest prefix that does not end inside a UTF-8 sequence that later bytes
    /// could still complete. Invalid bytes are not held back (they decode as U+FFFD).
    static func completePrefixLength(_ bytes: [UInt8]) -> Int {
        let n = bytes.count
        var i = n - 1
        // Walk back over at most three continuation bytes to the last lead byte.
        while i >= 0 && i >= n - 4 && bytes[i] & 0xC0 == 0x80 { i -= 1 }
        guard i >= 0, i >= n - 4 else { return n }
        let lead = bytes[i]
        let need = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 1
        return n - i < need ? i : n
    }
}
