/// GPT-2's byte-level alphabet (OpenAI `bytes_to_unicode`, as llama.cpp's `unicode_byte_to_utf8`):
/// every byte maps to one printable code point, so a BPE vocabulary of strings covers all bytes.
/// Bytes `!`...`~`, `¡`...`¬` and `®`...`ÿ` map to themselves; the other 68 bytes map, in
/// increasing order, to U+0100, U+0101, ... (space 0x20 becomes `Ġ` U+0120, newline `Ċ` U+010A).
enum ByteLevel {
    /// Code point that stands for each byte.
    static let scalarForByte: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 256)
        var next: UInt32 = 256
        for b in 0..<256 {
            if (0x21...0x7E).contains(b) || (0xA1...0xAC).contains(b) || (0xAE...0xFF).contains(b) {
                table[b] = UInt32(b)
            } else {
                table[b] = next
                next += 1
            }
        }
        return table
    }()

    /// UTF-8 bytes of the code point that stands for each byte.
    static let encodedByte: [[UInt8]] = scalarForByte.map { utf8($0) }

    /// The byte a code point stands for, or `nil` when it is outside the alphabet.
    static func byte(for scalar: UInt32) -> UInt8? {
        if scalar < 256 {
            let s = scalarForByte[Int(scalar)]
            return s == scalar ? UInt8(scalar) : nil
        }
        if scalar < 256 + 68 {
            return byteForExtended[Int(scalar - 256)]
        }
        return nil
    }

    private static let byteForExtended: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 68)
        for b in 0..<256 where scalarForByte[b] >= 256 { table[Int(scalarForByte[b] - 256)] = UInt8(b) }
        return table
    }()

    static func utf8(_ scalar: UInt32) -> [UInt8] {
        guard let s = Unicode.Scalar(scalar) else { return [] }
        return Array(String(Character(s)).utf8)
    }
}
