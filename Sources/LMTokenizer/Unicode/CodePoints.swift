/// UTF-8 text as code points, each with its ``CodePointFlags`` and the byte offset it starts at:
/// the form every pre-tokenizer works on. Reused across calls, so decoding allocates only when the
/// text is longer than any before.
struct CodePoints {
    var scalars: [UInt32] = []
    var flags: [CodePointFlags] = []
    /// Byte offset of each code point in the decoded text, plus the text's length at the end.
    var byteStarts: [Int32] = []

    var count: Int { scalars.count }

    /// Decodes `bytes` as llama.cpp's `unicode_cpts_from_utf8`: a lead byte announces the length
    /// (0xC0-0xDF two bytes, 0xE0-0xEF three, 0xF0-0xF7 four) and a sequence with a missing or bad
    /// continuation byte, a stray continuation byte or a 0xF8-0xFF byte becomes one U+FFFD for
    /// that one byte. (A Swift `String` is always valid UTF-8; this keeps raw bytes safe.)
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) {
        scalars.removeAll(keepingCapacity: true)
        flags.removeAll(keepingCapacity: true)
        byteStarts.removeAll(keepingCapacity: true)
        let n = bytes.count
        var i = 0
        while i < n {
            let b0 = bytes[i]
            byteStarts.append(Int32(truncatingIfNeeded: i))
            if b0 < 0x80 {
                scalars.append(UInt32(b0))
                flags.append(CodePointFlags.of(UInt32(b0)))
                i += 1
                continue
            }
            let length = b0 < 0xC0 ? 0 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : b0 < 0xF8 ? 4 : 0
            var cp: UInt32 = 0xFFFD
            var used = 1
            if length > 0, i + length <= n {
                var v = UInt32(b0) & (0x7F >> UInt32(length))
                var ok = true
                for k in 1 ..< length {
                    let c = bytes[i + k]
                    if c & 0xC0 != 0x80 { ok = false; break }
                    v = v << 6 | UInt32(c & 0x3F)
                }
                if ok { cp = v; used = length }
            }
            scalars.append(cp)
            flags.append(CodePointFlags.of(cp))
            i += used
        }
        byteStarts.append(Int32(truncatingIfNeeded: n))
    }
}

/// UTF-8 helpers shared by the models.
enum UTF8Bytes {
    /// Length of the UTF-8 sequence a lead byte announces, from its high four bits, as llama.cpp's
    /// `unicode_len_utf8` (continuation and invalid bytes count as one).
    @inline(__always)
    static func sequenceLength(lead b: UInt8) -> Int {
        b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    }

    /// Appends the UTF-8 encoding of `cp` (nothing for values that are not code points).
    @inline(__always)
    static func append(_ cp: UInt32, to out: inout [UInt8]) {
        switch cp {
        case 0 ..< 0x80:
            out.append(UInt8(cp))
        case 0x80 ..< 0x800:
            out.append(0xC0 | UInt8(cp >> 6))
            out.append(0x80 | UInt8(cp & 0x3F))
        case 0x800 ..< 0x10000:
            out.append(0xE0 | UInt8(cp >> 12))
            out.append(0x80 | UInt8(cp >> 6 & 0x3F))
            out.append(0x80 | UInt8(cp & 0x3F))
        case 0x10000 ..< 0x110000:
            out.append(0xF0 | UInt8(cp >> 18))
            out.append(0x80 | UInt8(cp >> 12 & 0x3F))
            out.append(0x80 | UInt8(cp >> 6 & 0x3F))
            out.append(0x80 | UInt8(cp & 0x3F))
        default:
            break
        }
    }
}
