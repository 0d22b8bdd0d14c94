/// The PNG IHDR chunk (PNG specification, 3rd edition, section 11.2.2): size, bit depth, colour type
/// and interlace method, validated.
struct PNGHeader: Equatable {
    enum ColorType: Int {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        /// Samples a pixel holds.
        var channels: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        /// The bit depths the specification allows for this colour type.
        var allowedBitDepths: [Int] {
            switch self {
            case .grey: [1, 2, 4, 8, 16]
            case .palette: [1, 2, 4, 8]
            case .rgb, .greyAlpha, .rgba: [8, 16]
            }
        }
    }

    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: ColorType
    var interlaced: Bool

    var bitsPerPixel: Int { bitDepth * colorType.channels }
    /// Bytes between a byte and the one it is filtered against (at least 1).
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Bytes of one unfiltered row of `pixels` pixels (without the filter-type byte).
    func rowBytes(pixels: Int) -> Int { (pixels * bitsPerPixel + 7) / 8 }

    /// - Parameters: `bytes`: the file; IHDR's 13 data bytes start at `offset`.
    /// - Throws: `.invalidValue` for a field out of range, `.zeroSize`, `.tooManyPixels`.
    init(_ bytes: [UInt8], at offset: Int, limits: ImageDecodingLimits) throws(ImageDecodingError) {
        func u32(_ i: Int) -> Int {
            Int(bytes[offset + i]) << 24 | Int(bytes[offset + i + 1]) << 16 | Int(bytes[offset + i + 2]) << 8 | Int(bytes[offset + i + 3])
        }
        width = u32(0)
        height = u32(4)
        guard width <= Int(Int32.max) else { throw .invalidValue(field: "IHDR width", value: width, offset: offset) }
        guard height <= Int(Int32.max) else { throw .invalidValue(field: "IHDR height", value: height, offset: offset + 4) }
        bitDepth = Int(bytes[offset + 8])
        let typeValue = Int(bytes[offset + 9])
        guard let colorType = ColorType(rawValue: typeValue) else {
            throw .invalidValue(field: "IHDR colour type", value: typeValue, offset: offset + 9)
        }
        self.colorType = colorType
        guard colorType.allowedBitDepths.contains(bitDepth) else {
            throw .invalidValue(field: "IHDR bit depth for colour type \(typeValue)", value: bitDepth, offset: offset + 8)
        }
        guard bytes[offset + 10] == 0 else {
            throw .invalidValue(field: "IHDR compression method", value: Int(bytes[offset + 10]), offset: offset + 10)
        }
        guard bytes[offset + 11] == 0 else {
            throw .invalidValue(field: "IHDR filter method", value: Int(bytes[offset + 11]), offset: offset + 11)
        }
        guard bytes[offset + 12] <= 1 else {
            throw .invalidValue(field: "IHDR interlace method", value: Int(bytes[offset + 12]), offset: offset + 12)
        }
        interlaced = bytes[offset + 12] == 1
        try limits.check(width: width, height: height)
    }

    /// One pass of the image data: the whole image, or one of Adam7's seven sub-images.
    struct Pass {
        var xStart: Int, yStart: Int, xStep: Int, yStep: Int
        var width: Int, height: Int
    }

    /// The passes in stream order; passes with no pixels (small images) are left out, as they hold no
    /// bytes in the stream.
    var passes: [Pass] {
        guard interlaced else { return [Pass(xStart: 0, yStart: 0, xStep: 1, yStep: 1, width: width, height: height)] }
        let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return adam7.compactMap { xStart, yStart, xStep, yStep in
            let w = width > xStart ? (width - xStart + xStep - 1) / xStep : 0
            let h = height > yStart ? (height - yStart + yStep - 1) / yStep : 0
            return w > 0 && h > 0 ? Pass(xStart: xStart, yStart: yStart, xStep: xStep, yStep: yStep, width: w, height: h) : nil
        }
    }

    /// The exact size of the inflated image data: each pass's rows, each a filter-type byte and its bytes.
    /// Small enough not to overflow once ``ImageDecodingLimits/check(width:height:)`` has passed.
    var inflatedSize: Int {
        passes.reduce(0) { $0 + $1.height * (1 + rowBytes(pixels: $1.width)) }
    }
}
