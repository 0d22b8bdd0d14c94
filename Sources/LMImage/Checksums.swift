/// CRC-32 (ISO 3309 / ITU-T V.42, reflected polynomial 0xEDB88320), as PNG computes it over a chunk's type
/// and data (PNG specification, Annex D).
package enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC of `bytes[range]`.
    package static func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            for i in range { c = t[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8) }
        }
        return c ^ 0xFFFF_FFFF
    }
}

/// Adler-32 (RFC 1950, section 8.2), the zlib stream's checksum of the inflated bytes.
package enum Adler32 {
    package static func checksum(_ bytes: [UInt8], count: Int) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        while i < count {
            // 5552 is the most bytes that can be summed before b may exceed 2^32 (zlib's NMAX).
            let end = min(count, i + 5552)
            while i < end {
                a &+= UInt32(bytes[i])
                b &+= a
                i += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}
