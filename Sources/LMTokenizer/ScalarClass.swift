/// The character classes the BPE pre-tokenizer patterns test, as llama.cpp's `unicode_cpt_flags`:
/// `\p{L}` (general category L*), `\p{N}` (N*) and `\s` (the Unicode `White_Space` property).
/// Every real code point also carries ``present``, so a class of `0` means "past the end of the
/// piece", which is how llama.cpp's matchers stop.
enum ScalarClass {
    static let present: UInt8 = 1
    static let letter: UInt8 = 2
    static let number: UInt8 = 4
    static let whitespace: UInt8 = 8

    private static let ascii: [UInt8] = (0..<128).map { classify(UInt32($0)) }

    /// Class bits of `scalar` from the toolchain's Unicode tables.
    static func classify(_ scalar: UInt32) -> UInt8 {
        guard let s = Unicode.Scalar(scalar) else { return present }
        let p = s.properties
        var c = present
        switch p.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            c |= letter
        case .decimalNumber, .letterNumber, .otherNumber:
            c |= number
        default:
            break
        }
        if p.isWhitespace { c |= whitespace }
        return c
    }

    /// Decodes UTF-8 `bytes` into code points and their classes.
    /// Invalid sequences become U+FFFD, one per bad byte, as llama.cpp's `unicode_cpts_from_utf8`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, scalars: inout [UInt32], classes: inout [UInt8], byteStarts: inout [Int32]) {
        scalars.removeAll(keepingCapacity: true)
        classes.removeAll(keepingCapacity: true)
        byteStarts.removeAll(keepingCapacity: true)
        let table = ascii
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            byteStarts.append(Int32(i))
            if b0 < 0x80 {
                scalars.append(UInt32(b0))
                classes.append(table[Int(b0)])
                i += 1
                continue
            }
            let len = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0
            var cp: UInt32 = 0xFFFD
            var used = 1
            if len > 0, i + len <= n {
                var v = UInt32(b0) & (0x7F >> UInt32(len))
                var ok = true
                for k in 1..<len {
                    let c = bytes[i + k]
                    if c & 0xC0 != 0x80 { ok = false; break }
                    v = (v << 6) | UInt32(c & 0x3F)
                }
                if ok { cp = v; used = len }
            }
            scalars.append(cp)
            classes.append(classify(cp))
            i += used
        }
        byteStarts.append(Int32(n))
    }
}
