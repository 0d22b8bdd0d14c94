/// SentencePiece's escaped space U+2581 `▁` (LOWER ONE EIGHTH BLOCK), which SentencePiece, Gemma 4's
/// BPE and GGUF WordPiece vocabularies use in place of a space (llama.cpp's
/// `llama_escape_whitespace` / `llama_unescape_whitespace`).
enum EscapedSpace {
    static let bytes: [UInt8] = [0xE2, 0x96, 0x81]

    /// Appends `text` with every space (0x20) replaced by U+2581, after one U+2581 when `prefix`.
    static func escape(_ text: UnsafeBufferPointer<UInt8>, prefix: Bool, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        if prefix { out.append(contentsOf: bytes) }
        for b in text {
            if b == 0x20 { out.append(contentsOf: bytes) } else { out.append(b) }
        }
    }

    /// `text` with every U+2581 turned back into a space.
    static func unescape(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == 0xE2, i + 2 < text.endIndex, text[i + 1] == 0x96, text[i + 2] == 0x81 {
                out.append(0x20)
                i += 3
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return out
    }
}
