/// Decodes JPEG files (ITU-T T.81 | ISO/IEC 10918-1; JFIF): baseline and extended sequential (SOF0, SOF1)
/// and progressive (SOF2) Huffman-coded, 8-bit, greyscale or three components with any integral sampling
/// (4:4:4, 4:2:2, 4:2:0, 4:4:0, ...), restart markers, the EXIF orientation tag.
///
/// Matches libjpeg-turbo's default decode (what Pillow returns): the islow integer IDCT, fancy upsampling,
/// its YCbCr tables, and its colour-space rule for three components (JFIF or component ids 1, 2, 3 mean
/// YCbCr; an Adobe APP14 transform of 0, or ids 'R', 'G', 'B', mean RGB).
enum JPEGDecoder {
    static func hasSignature(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8 }

    /// Each scan costs a pass over every block, so a file of many tiny scans could take time out of
    /// proportion to its size; libjpeg-turbo's tools cap scans the same way (`djpeg -maxscans`). Encoders
    /// write about 10 for a progressive file.
    static let maxScans = 1000

    /// The scans may visit each coefficient at most this many times in all (spectral bands partition a block,
    /// and successive approximation refines a coefficient once per bit, 14 at most): a bound on decoding time
    /// that no encoder's file reaches, where a file of refinement scans with long end-of-band runs would
    /// otherwise cost 63 steps a block per scan for a few bytes each.
    static let maxVisitsPerCoefficient = 16

    /// - Throws: ``ImageDecodingError``: `.truncated` when the file ends inside a segment or the scan data, or
    ///   before EOI; `.unsupported` for arithmetic coding, lossless, hierarchical, 12-bit, CMYK, DNL, more
    ///   than ``maxScans`` scans; `.corruptImageData` also for scans past ``maxVisitsPerCoefficient``;
    ///   `.missing` for a scan before SOF, no scan, a component no scan covers, an undefined table;
    ///   `.invalidValue` for bad segment fields; `.invalidHuffmanTable`; `.corruptImageData`.
    static func decode(_ bytes: [UInt8], limits: ImageDecodingLimits) throws(ImageDecodingError) -> DecodedImage {
        guard hasSignature(bytes) else { throw .unrecognizedFormat(prefix: Array(bytes.prefix(8))) }
        var frame: JPEGFrame?
        var quantTables = [[Int]?](repeating: nil, count: 4)
        var dcTables = [JPEGHuffmanTable?](repeating: nil, count: 4)
        var acTables = [JPEGHuffmanTable?](repeating: nil, count: 4)
        var restartInterval = 0
        var orientation: ImageOrientation?
        var sawJFIF = false
        var adobeTransform: Int?
        var scanned = Set<Int>()
        var scanCount = 0
        var coefficientVisits = 0
        var p = 2
        while true {
            // Fill bytes (0xFF) may precede a marker.
            while p + 1 < bytes.count && bytes[p] == 0xFF && bytes[p + 1] == 0xFF { p += 1 }
            guard p + 1 < bytes.count else { throw .truncated(part: "JPEG marker stream (no EOI)", offset: p) }
            guard bytes[p] == 0xFF else { throw .corruptImageData(detail: "expected a marker, found byte \(bytes[p])", offset: p) }
            let marker = Int(bytes[p + 1])
            if marker == 0xD9 { break }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                p += 2
                continue
            }
            if marker == 0xD8 { throw .corruptImageData(detail: "second SOI marker", offset: p) }
            let name = segmentName(marker)
            guard p + 4 <= bytes.count else { throw .truncated(part: "\(name) segment", offset: p) }
            let length = Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            guard length >= 2 else { throw .invalidValue(field: "\(name) segment length", value: length, offset: p + 2) }
            guard p + 2 + length <= bytes.count else { throw .truncated(part: "\(name) segment", offset: p) }
            let start = p + 4, end = p + 2 + length
            p = end
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard frame == nil else { throw .corruptImageData(detail: "second SOF marker", offset: start - 4) }
                frame = try JPEGFrame(bytes, start: start, end: end, progressive: marker == 0xC2, limits: limits)
            case 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF, 0xCC:
                throw .unsupported(feature: "JPEG \(name) (lossless, hierarchical or arithmetic-coded)")
            case 0xDC:
                throw .unsupported(feature: "JPEG DNL marker")
            case 0xC4:
                try readHuffmanTables(bytes, start: start, end: end, dc: &dcTables, ac: &acTables)
            case 0xDB:
                try readQuantTables(bytes, start: start, end: end, into: &quantTables)
            case 0xDD:
                guard length == 4 else { throw .invalidValue(field: "DRI segment length", value: length, offset: start - 2) }
                restartInterval = Int(bytes[start]) << 8 | Int(bytes[start + 1])
            case 0xE0:
                if end - start >= 5 && bytes[start..<start + 5].elementsEqual([0x4A, 0x46, 0x49, 0x46, 0]) { sawJFIF = true }
            case 0xE1:
                if orientation == nil { orientation = EXIFOrientation.read(bytes, start: start, end: end) }
            case 0xEE:
                if end - start >= 12 && bytes[start..<start + 5].elementsEqual([0x41, 0x64, 0x6F, 0x62, 0x65]) {
                    adobeTransform = Int(bytes[start + 11])
                }
            case 0xDA:
                guard var current = frame else { throw .missing(part: "SOF before SOS") }
                scanCount += 1
                guard scanCount <= maxScans else { throw .unsupported(feature: "JPEG with more than \(maxScans) scans") }
                let scan = try JPEGScan(bytes, start: start, end: end, frame: current)
                coefficientVisits += scan.blockCount(in: current) * (scan.se - scan.ss + 1)
                guard coefficientVisits <= maxVisitsPerCoefficient * current.paddedCoefficientCount else {
                    throw .corruptImageData(detail: "scans visit the coefficients more than \(maxVisitsPerCoefficient) times over", offset: start - 4)
                }
                for c in scan.components where current.components[c].quantization == nil {
                    let t = current.components[c].quantTable
                    guard let table = quantTables[t] else { throw .missing(part: "DQT table \(t)") }
                    current.components[c].quantization = table
                }
                var decoder = JPEGScanDecoder(scan: scan, dcTables: dcTables, acTables: acTables, restartInterval: restartInterval, bytes: bytes, dataStart: end)
                frame = nil  // so the coefficient arrays have one owner while the scan writes them
                p = try decoder.decode(into: &current)
                frame = current
                scanned.formUnion(scan.components)
            default:
                break  // APPn, COM and other segments carry nothing the pixels need.
            }
        }
        guard var frame else { throw .missing(part: "SOF") }
        for c in frame.components.indices where !scanned.contains(c) {
            throw .missing(part: "scan data for component \(frame.components[c].id)")
        }
        let ids = frame.components.map(\.id)
        let isRGB = frame.components.count == 3 && !sawJFIF
            && (adobeTransform.map { $0 == 0 } ?? (ids == [0x52, 0x47, 0x42]))
        var image = reconstruct(&frame, isRGB: isRGB)
        image.orientation = orientation
        return image
    }

    static func segmentName(_ marker: Int) -> String {
        switch marker {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF: "SOF\(marker - 0xC0)"
        case 0xC4: "DHT"
        case 0xCC: "DAC"
        case 0xDA: "SOS"
        case 0xDB: "DQT"
        case 0xDC: "DNL"
        case 0xDD: "DRI"
        case 0xE0...0xEF: "APP\(marker - 0xE0)"
        case 0xFE: "COM"
        default: "marker 0x\(String(marker, radix: 16, uppercase: true))"
        }
    }
}
