/// SentencePiece-style byte tokens `<0xNN>` (two upper-case hex digits), which spell a byte that
/// no other token covers.
enum ByteToken {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// The text `<0xNN>` of byte `b`.
    static func name(_ b: UInt8) -> [UInt8] {
        [0x3C, 0x30, 0x78, hex[Int(b >> 4)], hex[Int(b & 15)], 0x3E]
    }

    /// The byte a `<0xNN>` text stands for, as llama.cpp's `token_to_byte` reads it: the two
    /// characters after `<0x`, in either case; `nil` when they are not hex digits.
    static func value(_ text: ArraySlice<UInt8>) -> UInt8? {
        guard text.count >= 5 else { return nil }
        let i = text.startIndex
        guard let hi = digit(text[i + 3]), let lo = digit(text[i + 4]) else { return nil }
        return hi << 4 | lo
    }

    private static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30 ... 0x39: c - 0x30
        case 0x41 ... 0x46: c - 0x41 + 10
        case 0x61 ... 0x66: c - 0x61 + 10
        default: nil
        }
    }
}
