/// A JPEG frame (SOF0, SOF1 or SOF2; ITU-T T.81, B.2.2) and its components' coefficient storage.
struct JPEGFrame {
    struct Component {
        var id: Int
        /// Horizontal and vertical sampling factors (1...4).
        var h: Int, v: Int
        var quantTable: Int
        /// Samples of the component's own image: ceil(width * h / hMax) by ceil(height * v / vMax), as
        /// libjpeg's `downsampled_width` and `downsampled_height`.
        var sampleWidth: Int, sampleHeight: Int
        /// Blocks covering the component's image (a non-interleaved scan's extent).
        var blocksPerLine: Int, blocksPerColumn: Int
        /// Blocks covering whole MCUs (an interleaved scan's extent); the stride of `coefficients`.
        var paddedBlocksPerLine: Int, paddedBlocksPerColumn: Int
        /// `[paddedBlocksPerColumn, paddedBlocksPerLine, 64]` coefficients in natural (row-major) order.
        var coefficients: [Int16]
        /// The quantisation table in natural order, latched at the component's first scan as libjpeg does.
        var quantization: [Int]?
    }

    var width: Int
    var height: Int
    var progressive: Bool
    var hMax: Int, vMax: Int
    var mcusPerLine: Int, mcusPerColumn: Int
    var components: [Component]

    /// Coefficients stored for all components (64 a block, whole MCUs).
    var paddedCoefficientCount: Int { components.reduce(0) { $0 + $1.paddedBlocksPerLine * $1.paddedBlocksPerColumn * 64 } }

    /// Parses the SOF segment data `bytes[start..<end]`.
    /// - Throws: `.unsupported` for 12-bit samples or 2 or 4 components, `.invalidValue` for sampling factors
    ///   outside 1...4, fractional ratios, a quantisation table index above 3 or a repeated component id,
    ///   `.zeroSize` (a height of 0 needs DNL, reported as unsupported) and `.tooManyPixels` before any
    ///   coefficient is allocated; `.tooLittleData` when the rest of the file cannot code that many blocks.
    init(_ bytes: [UInt8], start: Int, end: Int, progressive: Bool, limits: ImageDecodingLimits) throws(ImageDecodingError) {
        guard end - start >= 6 else { throw .truncated(part: "SOF segment", offset: start) }
        let precision = Int(bytes[start])
        guard precision == 8 else { throw .unsupported(feature: "\(precision)-bit JPEG samples") }
        height = Int(bytes[start + 1]) << 8 | Int(bytes[start + 2])
        width = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
        guard height > 0 else { throw .unsupported(feature: "JPEG height defined by a DNL marker") }
        try limits.check(width: width, height: height)
        let count = Int(bytes[start + 5])
        guard count == 1 || count == 3 else {
            throw count == 4 ? .unsupported(feature: "4-component (CMYK/YCCK) JPEG") : .invalidValue(field: "SOF component count", value: count, offset: start + 5)
        }
        guard end - start >= 6 + 3 * count else { throw .truncated(part: "SOF segment", offset: start) }
        self.progressive = progressive
        var parsed: [(id: Int, h: Int, v: Int, q: Int)] = []
        for i in 0..<count {
            let p = start + 6 + 3 * i
            let id = Int(bytes[p]), h = Int(bytes[p + 1] >> 4), v = Int(bytes[p + 1] & 15), q = Int(bytes[p + 2])
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw .invalidValue(field: "SOF component sampling factor", value: Int(bytes[p + 1]), offset: p + 1)
            }
            guard q <= 3 else { throw .invalidValue(field: "SOF quantisation table index", value: q, offset: p + 2) }
            guard !parsed.contains(where: { $0.id == id }) else { throw .invalidValue(field: "SOF repeated component id", value: id, offset: p) }
            parsed.append((id, h, v, q))
        }
        // A single component is one block per MCU whatever its factors say (T.81 A.2.2).
        if count == 1 { parsed[0].h = 1; parsed[0].v = 1 }
        hMax = parsed.map(\.h).max() ?? 1
        vMax = parsed.map(\.v).max() ?? 1
        for c in parsed where hMax % c.h != 0 || vMax % c.v != 0 {
            throw .unsupported(feature: "fractional JPEG sampling ratio \(hMax)/\(c.h) x \(vMax)/\(c.v)")
        }
        mcusPerLine = (width + 8 * hMax - 1) / (8 * hMax)
        mcusPerColumn = (height + 8 * vMax - 1) / (8 * vMax)
        // Every block costs at least one bit (its DC code) in the first scan that covers it, so a file too
        // short for that is refused before the coefficients are allocated.
        var blocks = 0
        for c in parsed {
            blocks += ((width * c.h + hMax - 1) / hMax + 7) / 8 * (((height * c.v + vMax - 1) / vMax + 7) / 8)
        }
        guard bytes.count - end >= blocks / 8 else { throw .tooLittleData(needed: blocks / 8, available: bytes.count - end, offset: end) }
        components = []
        for c in parsed {
            let sampleWidth = (width * c.h + hMax - 1) / hMax
            let sampleHeight = (height * c.v + vMax - 1) / vMax
            let padded = (mcusPerLine * c.h, mcusPerColumn * c.v)
            components.append(Component(
                id: c.id, h: c.h, v: c.v, quantTable: c.q, sampleWidth: sampleWidth, sampleHeight: sampleHeight,
                blocksPerLine: (sampleWidth + 7) / 8, blocksPerColumn: (sampleHeight + 7) / 8,
                paddedBlocksPerLine: padded.0, paddedBlocksPerColumn: padded.1,
                coefficients: [Int16](repeating: 0, count: padded.0 * padded.1 * 64), quantization: nil))
        }
    }
}
