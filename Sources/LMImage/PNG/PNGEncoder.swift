/// Writes 8-bit RGB or RGBA pixels as a PNG file (PNG specification, 3rd edition): IHDR, one IDAT holding a
/// zlib stream (``Deflate``, fixed Huffman codes) of the rows filtered with Paeth's predictor, IEND.
///
/// It is how raw pixels given to a session, and an image turned for a server, become a file that any PNG reader
/// (a server model's, this package's decoder) reads exactly.
package enum PNGEncoder {
    /// The PNG file of `pixels`, laid out `[height, width, channels]` (row-major, top row first).
    /// - Precondition: `channels` is 3 (RGB) or 4 (RGBA), `width` and `height` are positive and
    ///   `pixels.count == width * height * channels` (callers check these first).
    package static func encode(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> [UInt8] {
        precondition((channels == 3 || channels == 4) && width > 0 && height > 0 && pixels.count == width * height * channels)
        let rowBytes = width * channels
        // Each row is its filter byte (4, Paeth) then each byte minus its prediction from the left, upper and
        // upper-left bytes of the same channel.
        var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        pixels.withUnsafeBufferPointer { p in
            raw.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = y * rowBytes, dst = y * (rowBytes + 1)
                    out[dst] = 4
                    for i in 0..<rowBytes {
                        let a = i >= channels ? Int(p[row + i - channels]) : 0
                        let b = y > 0 ? Int(p[row - rowBytes + i]) : 0
                        let c = i >= channels && y > 0 ? Int(p[row - rowBytes + i - channels]) : 0
                        let estimate = a + b - c
                        let (pa, pb, pc) = (abs(estimate - a), abs(estimate - b), abs(estimate - c))
                        let predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                        out[dst + 1 + i] = p[row + i] &- UInt8(predicted)
                    }
                }
            }
        }
        // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (no dictionary, check bits: 0x7801 is a multiple of 31).
        let zlib: [UInt8] = [0x78, 0x01] + Deflate.compress(raw) + bigEndian32(Adler32.checksum(raw, count: raw.count))

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
}
