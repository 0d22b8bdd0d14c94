/// Inflates a zlib stream (RFC 1950) holding DEFLATE data (RFC 1951: stored, fixed-Huffman and
/// dynamic-Huffman blocks) into exactly `expectedSize` bytes.
///
/// The caller knows the size (for PNG, from IHDR), so the output is allocated once and a stream that would
/// produce more is stopped at the first byte past it: a compressed bomb costs no more memory or time than
/// the image it claims to be. The Adler-32 of the output is checked.
enum Inflate {
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order in which a dynamic block lists the code-length code's lengths.
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// - Parameters:
    ///   - stream: the zlib stream (header, DEFLATE data, Adler-32).
    ///   - expectedSize: the exact number of bytes the stream must inflate to.
    ///   - fileOffset: where the stream starts in the file, for error offsets.
    /// - Throws: `.truncated(part: "zlib stream", ...)`, `.invalidValue` for a bad zlib header,
    ///   `.unsupported` for a preset dictionary, `.invalidHuffmanTable`, `.corruptDeflateStream`,
    ///   `.inflatedSizeMismatch`, `.adler32Mismatch`.
    static func zlib(_ stream: [UInt8], expectedSize: Int, fileOffset: Int) throws(ImageDecodingError) -> [UInt8] {
        guard stream.count >= 2 else { throw .truncated(part: "zlib stream", offset: fileOffset) }
        let cmf = Int(stream[0]), flg = Int(stream[1])
        guard cmf & 15 == 8, cmf >> 4 <= 7 else {
            throw .invalidValue(field: "zlib compression method", value: cmf, offset: fileOffset)
        }
        guard (cmf << 8 | flg) % 31 == 0 else {
            throw .invalidValue(field: "zlib header check", value: cmf << 8 | flg, offset: fileOffset)
        }
        guard flg & 0x20 == 0 else { throw .unsupported(feature: "zlib preset dictionary") }

        var reader = DeflateBitReader(stream, start: 2, end: stream.count)
        var out = [UInt8](repeating: 0, count: expectedSize)
        var produced = 0
        try inflate(&reader, into: &out, produced: &produced, fileOffset: fileOffset)
        guard produced == expectedSize else {
            throw .inflatedSizeMismatch(expected: expectedSize, produced: produced)
        }
        let trailer = reader.alignToByte()
        guard trailer + 4 <= stream.count else { throw .truncated(part: "zlib stream", offset: fileOffset) }
        let stored = UInt32(stream[trailer]) << 24 | UInt32(stream[trailer + 1]) << 16
            | UInt32(stream[trailer + 2]) << 8 | UInt32(stream[trailer + 3])
        let computed = Adler32.checksum(out, count: produced)
        guard stored == computed else { throw .adler32Mismatch(stored: stored, computed: computed) }
        return out
    }

    /// Inflates DEFLATE blocks until the final one ends.
    static func inflate(
        _ reader: inout DeflateBitReader, into out: inout [UInt8], produced: inout Int, fileOffset: Int
    ) throws(ImageDecodingError) {
        let fixed = try fixedCodes()
        var isFinal = false
        while !isFinal {
            isFinal = reader.bits(1) == 1
            let type = reader.bits(2)
            guard !reader.isOverrun else { throw .truncated(part: "zlib stream", offset: fileOffset) }
            switch type {
            case 0:
                try storedBlock(&reader, into: &out, produced: &produced, fileOffset: fileOffset)
            case 1:
                try codedBlock(&reader, literals: fixed.literals, distances: fixed.distances, into: &out, produced: &produced, fileOffset: fileOffset)
            case 2:
                let codes = try dynamicCodes(&reader, fileOffset: fileOffset)
                try codedBlock(&reader, literals: codes.literals, distances: codes.distances, into: &out, produced: &produced, fileOffset: fileOffset)
            default:
                throw .corruptDeflateStream(detail: "reserved block type 3")
            }
        }
    }

    static func storedBlock(
        _ reader: inout DeflateBitReader, into out: inout [UInt8], produced: inout Int, fileOffset: Int
    ) throws(ImageDecodingError) {
        let start = reader.alignToByte()
        let bytes = reader.bytes
        guard start + 4 <= reader.end else { throw .truncated(part: "zlib stream", offset: fileOffset) }
        let length = Int(bytes[start]) | Int(bytes[start + 1]) << 8
        let complement = Int(bytes[start + 2]) | Int(bytes[start + 3]) << 8
        guard length == complement ^ 0xFFFF else {
            throw .corruptDeflateStream(detail: "stored block length \(length) does not match its complement")
        }
        guard start + 4 + length <= reader.end else { throw .truncated(part: "zlib stream", offset: fileOffset) }
        guard produced + length <= out.count else {
            throw .inflatedSizeMismatch(expected: out.count, produced: out.count + 1)
        }
        for i in 0..<length { out[produced + i] = bytes[start + 4 + i] }
        produced += length
        reader.skip(to: start + 4 + length)
    }

    static func codedBlock(
        _ reader: inout DeflateBitReader, literals: DeflateHuffman, distances: DeflateHuffman,
        into out: inout [UInt8], produced: inout Int, fileOffset: Int
    ) throws(ImageDecodingError) {
        let limit = out.count
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard produced < limit else { throw .inflatedSizeMismatch(expected: limit, produced: limit + 1) }
                out[produced] = UInt8(symbol)
                produced += 1
            } else if symbol == 256 {
                guard !reader.isOverrun else { throw .truncated(part: "zlib stream", offset: fileOffset) }
                return
            } else {
                let l = symbol - 257
                guard l < lengthBase.count else { throw .corruptDeflateStream(detail: "length symbol \(symbol)") }
                let length = lengthBase[l] + reader.bits(lengthExtra[l])
                let d = try distances.decode(&reader)
                guard d < distanceBase.count else { throw .corruptDeflateStream(detail: "distance symbol \(d)") }
                let distance = distanceBase[d] + reader.bits(distanceExtra[d])
                guard distance <= produced else {
                    throw .corruptDeflateStream(detail: "distance \(distance) before the start of the output (\(produced) bytes)")
                }
                guard length <= limit - produced else {
                    throw .inflatedSizeMismatch(expected: limit, produced: limit + 1)
                }
                // Byte by byte: the source may overlap the bytes being written (a run).
                var from = produced - distance
                for _ in 0..<length {
                    out[produced] = out[from]
                    produced += 1
                    from += 1
                }
            }
            guard !reader.isOverrun else { throw .truncated(part: "zlib stream", offset: fileOffset) }
        }
    }

    /// The fixed codes of RFC 1951, section 3.2.6.
    static func fixedCodes() throws(ImageDecodingError) -> (literals: DeflateHuffman, distances: DeflateHuffman) {
        var lengths = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        let literals = try DeflateHuffman(lengths: lengths[...], kind: .literalLengths)
        // All 32 five-bit codes, so the code is complete; symbols 30 and 31 are refused when decoded.
        let distances = try DeflateHuffman(lengths: [UInt8](repeating: 5, count: 32)[...], kind: .distances)
        return (literals, distances)
    }

    /// Reads a dynamic block's code descriptions (RFC 1951, section 3.2.7).
    static func dynamicCodes(
        _ reader: inout DeflateBitReader, fileOffset: Int
    ) throws(ImageDecodingError) -> (literals: DeflateHuffman, distances: DeflateHuffman) {
        let literalCount = reader.bits(5) + 257
        let distanceCount = reader.bits(5) + 1
        let codeLengthCount = reader.bits(4) + 4
        guard literalCount <= 286 else { throw .corruptDeflateStream(detail: "\(literalCount) literal/length codes") }
        guard distanceCount <= 30 else { throw .corruptDeflateStream(detail: "\(distanceCount) distance codes") }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengthLengths[codeLengthOrder[i]] = UInt8(reader.bits(3)) }
        guard !reader.isOverrun else { throw .truncated(part: "zlib stream", offset: fileOffset) }
        let codeLengthCode = try DeflateHuffman(lengths: codeLengthLengths[...], kind: .codeLengths)

        let total = literalCount + distanceCount
        var lengths = [UInt8](repeating: 0, count: total)
        var i = 0
        while i < total {
            let symbol = try codeLengthCode.decode(&reader)
            guard !reader.isOverrun else { throw .truncated(part: "zlib stream", offset: fileOffset) }
            if symbol < 16 {
                lengths[i] = UInt8(symbol)
                i += 1
                continue
            }
            var value: UInt8 = 0
            let repeatCount: Int
            switch symbol {
            case 16:
                guard i > 0 else { throw .corruptDeflateStream(detail: "code length repeat with no previous length") }
                value = lengths[i - 1]
                repeatCount = 3 + reader.bits(2)
            case 17: repeatCount = 3 + reader.bits(3)
            default: repeatCount = 11 + reader.bits(7)
            }
            guard i + repeatCount <= total else {
                throw .corruptDeflateStream(detail: "code length repeat runs past \(total) lengths")
            }
            for _ in 0..<repeatCount {
                lengths[i] = value
                i += 1
            }
        }
        guard lengths[256] != 0 else { throw .invalidHuffmanTable(detail: "no end-of-block code") }
        let literals = try DeflateHuffman(lengths: lengths[0..<literalCount], kind: .literalLengths)
        let distances = try DeflateHuffman(lengths: lengths[literalCount...], kind: .distances)
        return (literals, distances)
    }
}
