import LMImage

/// Builds image files in memory for the hostile-input tests: PNG chunks, zlib streams and raw DEFLATE bits.
enum TestImages {
    static func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    /// A PNG chunk with a correct CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return u32(data.count) + body + u32(Int(CRC32.checksum(body, 0..<body.count)))
    }

    static func ihdr(width: Int, height: Int, depth: Int = 8, colorType: Int = 0, interlace: Int = 0) -> [UInt8] {
        chunk("IHDR", u32(width) + u32(height) + [UInt8(depth), UInt8(colorType), 0, 0, UInt8(interlace)])
    }

    /// A PNG: signature, IHDR, the given middle chunks, IEND.
    static func png(_ ihdr: [UInt8], _ chunks: [[UInt8]]) -> [UInt8] {
        PNGDecoder.signature + ihdr + chunks.flatMap { $0 } + chunk("IEND", [])
    }

    /// `png` with every chunk's CRC recomputed, so corruption reaches the decoder behind the CRC check.
    static func fixingCRCs(_ png: [UInt8]) -> [UInt8] {
        var out = png
        var p = 8
        while p + 12 <= out.count {
            let length = Int(out[p]) << 24 | Int(out[p + 1]) << 16 | Int(out[p + 2]) << 8 | Int(out[p + 3])
            guard length <= out.count - p - 12 else { break }
            let crc = u32(Int(CRC32.checksum(out, p + 4..<p + 8 + length)))
            out.replaceSubrange(p + 8 + length..<p + 12 + length, with: crc)
            p += 12 + length
        }
        return out
    }

    /// A zlib stream of stored blocks holding `raw`, with a correct Adler-32 unless `adler` is given.
    static func zlibStored(_ raw: [UInt8], adler: UInt32? = nil) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let n = min(65535, raw.count - start)
            let final: UInt8 = start + n == raw.count ? 1 : 0
            out += [final, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8 & 255)]
            out += raw[start..<start + n]
            start += n
        } while start < raw.count
        return out + u32(Int(adler ?? Adler32.checksum(raw, count: raw.count)))
    }

    /// Writes DEFLATE bits: values least significant bit first, Huffman codes most significant bit first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var bitCount = 0

        mutating func write(_ value: Int, bits: Int) {
            for i in 0..<bits {
                if bitCount % 8 == 0 { bytes.append(0) }
                if value >> i & 1 != 0 { bytes[bytes.count - 1] |= 1 << UInt8(bitCount % 8) }
                bitCount += 1
            }
        }

        mutating func code(_ code: Int, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { write(code >> i & 1, bits: 1) }
        }

        /// A fixed-Huffman literal/length symbol (RFC 1951, 3.2.6).
        mutating func fixedSymbol(_ s: Int) {
            switch s {
            case 0..<144: code(0x30 + s, length: 8)
            case 144..<256: code(0x190 + s - 144, length: 9)
            case 256..<280: code(s - 256, length: 7)
            default: code(0xC0 + s - 280, length: 8)
            }
        }
    }

    /// zlib header around DEFLATE bytes, with an Adler-32 of `adlerOf`.
    static func zlib(_ deflate: [UInt8], adlerOf raw: [UInt8]) -> [UInt8] {
        [0x78, 0x01] + deflate + u32(Int(Adler32.checksum(raw, count: raw.count)))
    }
}
