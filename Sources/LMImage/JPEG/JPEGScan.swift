/// One scan's header (SOS; ITU-T T.81, B.2.3) and the decoding of its entropy-coded data into the frame's
/// coefficients: baseline/sequential Huffman, and the four progressive passes (DC first and refine, AC first
/// and refine; T.81 G.1.2), with restart markers.
struct JPEGScan {
    /// Indices into the frame's components, in scan order.
    var components: [Int]
    var dcTables: [Int]
    var acTables: [Int]
    /// Spectral selection (first and last zig-zag index) and successive approximation (high, low bit).
    var ss: Int, se: Int, ah: Int, al: Int

    /// Zig-zag index to natural (row-major) index within an 8x8 block (T.81 figure A.6).
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    /// The blocks the scan codes: a single component's own blocks, or whole MCUs of every component in it.
    func blockCount(in frame: JPEGFrame) -> Int {
        if components.count == 1 {
            let c = frame.components[components[0]]
            return c.blocksPerLine * c.blocksPerColumn
        }
        return components.reduce(0) { $0 + frame.components[$1].h * frame.components[$1].v } * frame.mcusPerLine * frame.mcusPerColumn
    }

    /// Parses the SOS segment data `bytes[start..<end]` against `frame`.
    /// - Throws: `.truncated`, `.invalidValue` for an unknown or repeated component, a table index above 3,
    ///   or a spectral/approximation combination T.81 G.1.1.1.1 forbids (as libjpeg's JERR_BAD_PROGRESSION).
    init(_ bytes: [UInt8], start: Int, end: Int, frame: JPEGFrame) throws(ImageDecodingError) {
        guard end - start >= 1 else { throw .truncated(part: "SOS segment", offset: start) }
        let count = Int(bytes[start])
        guard (1...4).contains(count), end - start >= 4 + 2 * count else {
            throw .invalidValue(field: "SOS component count", value: count, offset: start)
        }
        components = []
        dcTables = []
        acTables = []
        for i in 0..<count {
            let p = start + 1 + 2 * i
            guard let index = frame.components.firstIndex(where: { $0.id == Int(bytes[p]) }), !components.contains(index) else {
                throw .invalidValue(field: "SOS component id", value: Int(bytes[p]), offset: p)
            }
            let dc = Int(bytes[p + 1] >> 4), ac = Int(bytes[p + 1] & 15)
            guard dc <= 3, ac <= 3 else { throw .invalidValue(field: "SOS Huffman table index", value: Int(bytes[p + 1]), offset: p + 1) }
            components.append(index)
            dcTables.append(dc)
            acTables.append(ac)
        }
        let p = start + 1 + 2 * count
        ss = Int(bytes[p])
        se = Int(bytes[p + 1])
        ah = Int(bytes[p + 2] >> 4)
        al = Int(bytes[p + 2] & 15)
        if frame.progressive {
            let valid = (ss == 0 ? se == 0 : (se >= ss && se <= 63 && count == 1)) && (ah == 0 || al == ah - 1) && al <= 13
            guard valid else { throw .invalidValue(field: "SOS progression (Ss, Se, Ah, Al)", value: ss << 16 | se << 8 | ah << 4 | al, offset: p) }
        } else {
            // A sequential scan codes every coefficient; libjpeg only warns on other values, and so do we not check.
            (ss, se, ah, al) = (0, 63, 0, 0)
        }
        if frame.components.count > 1 && count > 1 {
            let blocks = components.reduce(0) { $0 + frame.components[$1].h * frame.components[$1].v }
            guard blocks <= 10 else { throw .invalidValue(field: "SOS blocks per MCU", value: blocks, offset: start) }
        }
    }
}
