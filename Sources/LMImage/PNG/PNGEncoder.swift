/// Writes 8-bit RGB or RGBA pixels as a PNG file (PNG specification, 3rd edition): IHDR, one IDAT holding a
/// zlib stream of stored (uncompressed) DEFLATE blocks with filter type 0 on every row, IEND.
///
/// Uncompressed on purpose: it is how raw pixels given to a session become an image file that any PNG reader
/// (a server model's, this package's decoder) reads exactly, at a few bytes over the pixels' own size.
package enum PNGEncoder {
    /// The PNG file of `pixels`, laid out `[height, width, channels]` (row-major, top row first).
    /// - Precondition: `channels` is 3 (RGB) or 4 (RGBA), `width` and `height` are positive and
    ///   `pixels.count == width * height * channels` (callers check these first).
    package static func encode(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> [UInt8] {
        precondition((channels == 3 || channels == 4) && width > 0 && height > 0 && pixels.count == width * height * channels)
        let rowBytes = width * channels
        // Each row is its filter byte (0, None) then its samples.
        var raw = [UInt8]()
        raw.reserveCapacity(height * (rowBytes + 1))
        for y in 0..<height {
            raw.append(0)
            raw.append(contentsOf: pixels[(y * rowBytes)..<((y + 1) * rowBytes)])
        }

        var zlib: [UInt8] = [0x78, 0x01]  // CM 8 (deflate), 32 KiB window, no dictionary, FCHECK so that 0x7801 % 31 == 0
        var start = 0
        repeat {
            let count = min(65535, raw.count - start)
            let final: UInt8 = start + count == raw.count ? 1 : 0
            zlib.append(final)  // BFINAL, BTYPE 00 (stored); the rest of the byte is padding
            zlib += littleEndian16(UInt16(count)) + littleEndian16(~UInt16(count))
            zlib.append(contentsOf: raw[start..<(start + count)])
            start += count
        } while start < raw.count
        zlib += bigEndian32(Adler32.checksum(raw, count: raw.count))

        var header = bigEndian32(UInt32(width)) + bigEndian32(UInt32(height))
        header += [8, channels == 4 ? 6 : 2, 0, 0, 0]  // bit depth 8, colour type 6 (RGBA) or 2 (RGB), no interlace
        return PNGDecoder.signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian32(UInt32(data.count)) + typeAndData + bigEndian32(CRC32.checksum(typeAndData, 0..<typeAndData.count))
    }

    private static func bigEndian32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private static func littleEndian16(_ v: UInt16) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8(v >> 8)]
    }
}
