/// Decodes PNG files (PNG specification, 3rd edition, W3C 2025): every colour type and bit depth, Adam7
/// interlacing, into 8-bit RGB as ``DecodedImage`` describes (alpha and tRNS dropped, 16-bit samples keep
/// their high byte, grey of 1, 2 and 4 bits scaled to 0...255).
package enum PNGDecoder {
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func hasSignature(_ bytes: [UInt8]) -> Bool { bytes.starts(with: signature) }

    /// - Throws: ``ImageDecodingError``: `.unrecognizedFormat` without the signature; `.missing` for IHDR not
    ///   first, no PLTE for a palette image, no IDAT or no IEND; the chunk reader's, IHDR's and inflate's
    ///   errors; `.unsupported` for an unknown critical chunk; `.corruptImageData` for a palette index past
    ///   the palette or a bad filter type.
    static func decode(_ bytes: [UInt8], limits: ImageDecodingLimits) throws(ImageDecodingError) -> DecodedImage {
        guard hasSignature(bytes) else { throw .unrecognizedFormat(prefix: Array(bytes.prefix(8))) }
        var chunks = PNGChunkReader(bytes)
        guard let first = try chunks.next() else { throw .truncated(part: "chunk header", offset: 8) }
        guard first.type == "IHDR" else { throw .missing(part: "IHDR (first chunk is \(first.type))") }
        guard first.length == 13 else { throw .invalidValue(field: "IHDR length", value: first.length, offset: first.offset) }
        let header = try PNGHeader(bytes, at: first.dataStart, limits: limits)

        var palette: [UInt8] = []
        var compressed: [UInt8] = []
        var idatOffset: Int?
        var sawIEND = false
        while let chunk = try chunks.next() {
            switch chunk.type {
            case "IHDR":
                throw .corruptImageData(detail: "second IHDR", offset: chunk.offset)
            case "PLTE":
                guard chunk.length % 3 == 0, chunk.length > 0, chunk.length <= 768 else {
                    throw .invalidValue(field: "PLTE length", value: chunk.length, offset: chunk.offset)
                }
                palette = Array(bytes[chunk.dataRange])
            case "IDAT":
                if idatOffset == nil { idatOffset = chunk.offset }
                compressed.append(contentsOf: bytes[chunk.dataRange])
            case "IEND":
                sawIEND = true
            default:
                // Ancillary chunks (tRNS, gAMA, text, ...) do not change the RGB samples stb_image returns.
                guard !chunk.isCritical else { throw .unsupported(feature: "critical PNG chunk \(chunk.type)") }
            }
            if sawIEND { break }
        }
        guard sawIEND else { throw .truncated(part: "PNG chunk stream (no IEND)", offset: chunks.position) }
        guard let idatOffset else { throw .missing(part: "IDAT") }
        if header.colorType == .palette && palette.isEmpty { throw .missing(part: "PLTE") }

        // DEFLATE's best ratio is 1032:1 (a 258-byte match in 2 bits); less data cannot fill the image.
        guard compressed.count >= header.inflatedSize / 1032 else {
            throw .tooLittleData(needed: header.inflatedSize / 1032, available: compressed.count, offset: idatOffset)
        }
        var data = try Inflate.zlib(compressed, expectedSize: header.inflatedSize, fileOffset: idatOffset)
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 3)
        var start = 0
        for pass in header.passes {
            let rowBytes = header.rowBytes(pixels: pass.width)
            try PNGUnfilter.unfilter(&data, start: start, rows: pass.height, rowBytes: rowBytes, stride: header.filterStride, fileOffset: idatOffset)
            try PNGPixels.write(
                pass: pass, header: header, palette: palette, data: data, start: start, rowBytes: rowBytes,
                into: &pixels, fileOffset: idatOffset)
            start += pass.height * (rowBytes + 1)
        }
        return DecodedImage(width: header.width, height: header.height, pixels: pixels)
    }
}
