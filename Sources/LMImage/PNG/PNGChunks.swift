/// Walks a PNG file's chunks (PNG specification, section 5.3): length, type, data, CRC-32 over type and
/// data, each length checked against the bytes left and each CRC checked.
struct PNGChunkReader {
    struct Chunk {
        /// Four ASCII letters, e.g. `"IHDR"`.
        var type: String
        /// Where the chunk (its length field) starts in the file.
        var offset: Int
        /// Where its data starts, and how long it is.
        var dataStart: Int
        var length: Int
        var dataRange: Range<Int> { dataStart..<dataStart + length }
        /// Critical chunks (first letter upper case) must be understood to decode the image.
        var isCritical: Bool
    }

    let bytes: [UInt8]
    private(set) var position = 8

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next chunk, or `nil` at the end of the file.
    /// - Throws: `.truncated` when the file ends inside a chunk, `.invalidValue` for a length above 2^31 - 1,
    ///   `.corruptImageData` for a type that is not four letters, `.crcMismatch`.
    mutating func next() throws(ImageDecodingError) -> Chunk? {
        guard position < bytes.count else { return nil }
        let offset = position
        guard bytes.count - offset >= 8 else { throw .truncated(part: "chunk header", offset: offset) }
        let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        let typeBytes = bytes[offset + 4..<offset + 8]
        guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
            throw .corruptImageData(detail: "chunk type \(Array(typeBytes)) is not four letters", offset: offset + 4)
        }
        let type = String(decoding: typeBytes, as: UTF8.self)
        guard length <= Int(Int32.max) else { throw .invalidValue(field: "chunk \(type) length", value: length, offset: offset) }
        guard bytes.count - offset - 12 >= length else { throw .truncated(part: "chunk \(type)", offset: offset) }
        let crcStart = offset + 8 + length
        let stored = UInt32(bytes[crcStart]) << 24 | UInt32(bytes[crcStart + 1]) << 16
            | UInt32(bytes[crcStart + 2]) << 8 | UInt32(bytes[crcStart + 3])
        let computed = CRC32.checksum(bytes, offset + 4..<crcStart)
        guard stored == computed else { throw .crcMismatch(chunk: type, offset: offset, stored: stored, computed: computed) }
        position = crcStart + 4
        return Chunk(type: type, offset: offset, dataStart: offset + 8, length: length, isCritical: typeBytes.first.map { $0 < 97 } ?? false)
    }
}
