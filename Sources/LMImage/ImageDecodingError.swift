/// Why an image could not be decoded. Every case says what is wrong and, where a position is known, the
/// byte offset in the file (from its first byte) where the decoder found it.
///
/// Thrown by ``DecodedImage/init(data:limits:)`` and the format decoders. No input makes the decoders trap:
/// every length, size and table read from the file is checked before it is used.
public enum ImageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data starts with neither the PNG signature nor a JPEG start-of-image marker; `prefix` holds its
    /// first bytes (up to 8).
    case unrecognizedFormat(prefix: [UInt8])
    /// The file ends inside `part` (a PNG chunk such as `"IDAT"`, a JPEG segment such as `"DHT"`,
    /// `"entropy-coded data"`, `"zlib stream"`); `offset` is where `part` starts.
    case truncated(part: String, offset: Int)
    /// A PNG chunk's stored CRC-32 differs from the one computed over its type and data.
    case crcMismatch(chunk: String, offset: Int, stored: UInt32, computed: UInt32)
    /// The zlib stream's stored Adler-32 differs from the one computed over the inflated bytes.
    case adler32Mismatch(stored: UInt32, computed: UInt32)
    /// The image declares a width or height of zero.
    case zeroSize(width: Int, height: Int)
    /// The declared width times height exceeds ``ImageDecodingLimits/maxPixelCount``; refused before
    /// anything is allocated.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The file is too small to hold an image of the declared size: it needs at least `needed` bytes of
    /// compressed data and holds `available` (from `offset`). Checked before the image is allocated, so a tiny
    /// file declaring a huge image costs nothing. The bounds: DEFLATE yields at most 1032 bytes per input byte
    /// (a 258-byte match in 2 bits); a JPEG's first scan spends at least 1 bit a block.
    case tooLittleData(needed: Int, available: Int, offset: Int)
    /// A header field holds a value the format does not allow (`field` names it, e.g. `"IHDR bit depth"`,
    /// `"SOF component sampling factor"`).
    case invalidValue(field: String, value: Int, offset: Int)
    /// A part the image needs is missing (`"IHDR"`, `"IDAT"`, `"PLTE"`, `"SOF"`, `"DHT DC table 1"`, ...).
    case missing(part: String)
    /// A valid image that uses a feature this decoder does not implement (arithmetic coding, lossless or
    /// 12-bit JPEG, CMYK, an unknown critical PNG chunk, ...).
    case unsupported(feature: String)
    /// A Huffman table (DEFLATE code lengths or a JPEG DHT segment) that is over-subscribed, incomplete where
    /// it must be complete, or otherwise not a prefix code; `detail` says which.
    case invalidHuffmanTable(detail: String)
    /// The DEFLATE stream is malformed (`detail`: a reserved block type, a distance before the start of the
    /// output, a bad stored-block length, an unassigned code, ...).
    case corruptDeflateStream(detail: String)
    /// The inflated image data does not have the size the header implies: `produced` is how many bytes the
    /// stream yields (it stops at `expected + 1`, so a zip bomb costs no more than the image would).
    case inflatedSizeMismatch(expected: Int, produced: Int)
    /// Image data that contradicts its own header (a PNG filter type above 4, a palette index past the
    /// palette, a JPEG code that is not in its table, a missing restart marker, ...).
    case corruptImageData(detail: String, offset: Int)

    public var description: String {
        switch self {
        case .unrecognizedFormat(let prefix):
            prefix.isEmpty ? "not a PNG or JPEG file (it is empty)"
                : "not a PNG or JPEG file (starts with " + prefix.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ") + ")"
        case .truncated(let part, let offset): "file ends inside \(part) starting at offset \(offset)"
        case .crcMismatch(let chunk, let offset, let stored, let computed):
            "PNG chunk \(chunk) at offset \(offset): stored CRC \(stored), computed \(computed)"
        case .adler32Mismatch(let stored, let computed): "zlib Adler-32 mismatch: stored \(stored), computed \(computed)"
        case .zeroSize(let w, let h): "image size \(w)x\(h) has no pixels"
        case .tooManyPixels(let w, let h, let limit): "image size \(w)x\(h) exceeds the limit of \(limit) pixels"
        case .tooLittleData(let needed, let available, let offset):
            "the declared size needs at least \(needed) bytes of compressed data; the file holds \(available) from offset \(offset)"
        case .invalidValue(let field, let value, let offset): "\(field) \(value) at offset \(offset) is not allowed"
        case .missing(let part): "\(part) is missing"
        case .unsupported(let feature): "unsupported: \(feature)"
        case .invalidHuffmanTable(let detail): "invalid Huffman table: \(detail)"
        case .corruptDeflateStream(let detail): "corrupt DEFLATE stream: \(detail)"
        case .inflatedSizeMismatch(let expected, let produced):
            "inflated image data is \(produced) bytes where the header implies \(expected)"
        case .corruptImageData(let detail, let offset): "corrupt image data at offset \(offset): \(detail)"
        }
    }
}
