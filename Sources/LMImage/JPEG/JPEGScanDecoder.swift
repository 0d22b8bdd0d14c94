/// Decodes one scan's entropy-coded data into the frame's coefficients.
struct JPEGScanDecoder {
    let scan: JPEGScan
    let dcTables: [JPEGHuffmanTable?]
    let acTables: [JPEGHuffmanTable?]
    let restartInterval: Int
    /// Where the entropy-coded data starts, for error offsets.
    let dataStart: Int

    private var reader: JPEGBitReader
    private var predictors: [Int]
    private var eobRun = 0

    init(scan: JPEGScan, dcTables: [JPEGHuffmanTable?], acTables: [JPEGHuffmanTable?], restartInterval: Int, bytes: [UInt8], dataStart: Int) {
        self.scan = scan
        self.dcTables = dcTables
        self.acTables = acTables
        self.restartInterval = restartInterval
        self.dataStart = dataStart
        self.reader = JPEGBitReader(bytes, at: dataStart)
        self.predictors = [Int](repeating: 0, count: scan.components.count)
    }

    /// Decodes every MCU of the scan into `frame`, and returns the offset of the marker that follows it.
    /// - Throws: `.missing` for a Huffman table the scan names but no DHT defined, `.truncated` when the file
    ///   ends inside the data, `.corruptImageData` for a code not in its table, a run past the block, data
    ///   that stops at a marker early, or a missing restart marker.
    mutating func decode(into frame: inout JPEGFrame) throws(ImageDecodingError) -> Int {
        let needsDC = scan.ss == 0
        let needsAC = scan.se > 0
        for i in scan.components.indices {
            if needsDC && scan.ah == 0 && dcTables[scan.dcTables[i]] == nil { throw .missing(part: "DHT DC table \(scan.dcTables[i])") }
            if needsAC && acTables[scan.acTables[i]] == nil { throw .missing(part: "DHT AC table \(scan.acTables[i])") }
        }
        // Take the coefficient arrays out of the frame while decoding, so writing them copies nothing.
        var coefficients = scan.components.map { _ in [Int16]() }
        for (i, c) in scan.components.enumerated() { swap(&coefficients[i], &frame.components[c].coefficients) }
        defer { for (i, c) in scan.components.enumerated() { swap(&coefficients[i], &frame.components[c].coefficients) } }

        let single = scan.components.count == 1
        let first = frame.components[scan.components[0]]
        let mcusPerLine = single ? first.blocksPerLine : frame.mcusPerLine
        let mcuCount = single ? first.blocksPerLine * first.blocksPerColumn : frame.mcusPerLine * frame.mcusPerColumn
        var untilRestart = restartInterval
        var nextRestart = 0
        for mcu in 0..<mcuCount {
            if restartInterval > 0 {
                if untilRestart == 0 {
                    try readRestartMarker(nextRestart)
                    nextRestart = (nextRestart + 1) & 7
                    untilRestart = restartInterval
                }
                untilRestart -= 1
            }
            let mcuRow = mcu / mcusPerLine, mcuCol = mcu % mcusPerLine
            for (i, c) in scan.components.enumerated() {
                let component = frame.components[c]
                let (h, v) = single ? (1, 1) : (component.h, component.v)
                for by in 0..<v {
                    for bx in 0..<h {
                        let row = mcuRow * v + by, col = mcuCol * h + bx
                        let offset = (row * component.paddedBlocksPerLine + col) * 64
                        try decodeBlock(&coefficients[i], at: offset, component: i)
                    }
                }
            }
            if reader.isOverrun {
                if reader.reachedEndOfFile { throw .truncated(part: "entropy-coded data", offset: dataStart) }
                throw .corruptImageData(detail: "scan data stops at a marker before MCU \(mcu + 1) of \(mcuCount) is complete", offset: reader.position)
            }
        }
        reader.reset()
        return nextMarker(from: reader.position)
    }

    private mutating func readRestartMarker(_ n: Int) throws(ImageDecodingError) {
        reader.reset()
        let bytes = reader.bytes
        var p = reader.position
        while p + 1 < bytes.count && bytes[p] == 0xFF && bytes[p + 1] == 0xFF { p += 1 }
        guard p + 1 < bytes.count else { throw .truncated(part: "entropy-coded data", offset: dataStart) }
        guard bytes[p] == 0xFF && Int(bytes[p + 1]) == 0xD0 + n else {
            throw .corruptImageData(detail: "expected restart marker RST\(n)", offset: p)
        }
        reader.skipMarker(at: p)
        for i in predictors.indices { predictors[i] = 0 }
        eobRun = 0
    }

    /// The offset of the first marker at or after `offset` (0xFF then neither 0x00, 0xFF nor RSTn), or the
    /// end of the file.
    private func nextMarker(from offset: Int) -> Int {
        let bytes = reader.bytes
        var p = offset
        while p + 1 < bytes.count {
            if bytes[p] == 0xFF {
                let m = bytes[p + 1]
                if m != 0 && m != 0xFF && !(0xD0...0xD7).contains(m) { return p }
            }
            p += 1
        }
        return bytes.count
    }

    private func badCode() -> ImageDecodingError { corrupt("Huffman code not in its table") }

    /// Corrupt data, unless the bits were invented past the end of a truncated file.
    private func corrupt(_ detail: String) -> ImageDecodingError {
        if reader.isOverrun && reader.reachedEndOfFile { return .truncated(part: "entropy-coded data", offset: dataStart) }
        return .corruptImageData(detail: detail, offset: reader.position)
    }

    @inline(__always)
    private mutating func decodeBlock(_ c: inout [Int16], at o: Int, component i: Int) throws(ImageDecodingError) {
        let zz = JPEGScan.naturalOrder
        let al = scan.al
        if scan.ss == 0 {
            // DC: first pass (or the whole sequential block) codes a difference from the previous block's DC.
            if scan.ah == 0 {
                guard let t = dcTables[scan.dcTables[i]]?.decode(&reader) else { throw badCode() }
                predictors[i] = predictors[i] &+ reader.receiveExtend(t)
                c[o] = Int16(truncatingIfNeeded: predictors[i] &<< al)
            } else if reader.bits(1) != 0 {
                c[o] |= Int16(truncatingIfNeeded: 1 << al)
            }
            if scan.se == 0 { return }
        }
        guard let ac = acTables[scan.acTables[i]] else { throw badCode() }
        let start = max(scan.ss, 1)
        if scan.ah == 0 {
            // Sequential AC, or a progressive first AC pass (with end-of-band runs across blocks).
            if eobRun > 0 {
                eobRun -= 1
                return
            }
            var k = start
            while k <= scan.se {
                guard let rs = ac.decode(&reader) else { throw badCode() }
                let r = rs >> 4, s = rs & 15
                if s != 0 {
                    k += r
                    guard k <= scan.se else { throw corrupt("coefficient run past the end of the block") }
                    c[o + zz[k]] = Int16(truncatingIfNeeded: reader.receiveExtend(s) &<< al)
                    k += 1
                } else if r == 15 {
                    k += 16
                } else {
                    if scan.ss > 0 {
                        eobRun = (1 << r) + reader.bits(r) - 1
                    }
                    break
                }
            }
            return
        }
        try refineAC(&c, at: o, ac: ac, start: start)
    }

    /// A progressive AC refinement pass (T.81 G.1.2.3): one more bit of each coefficient already non-zero,
    /// and new coefficients of magnitude 1 placed among the zero ones.
    private mutating func refineAC(_ c: inout [Int16], at o: Int, ac: JPEGHuffmanTable, start: Int) throws(ImageDecodingError) {
        let zz = JPEGScan.naturalOrder
        let p1 = Int16(truncatingIfNeeded: 1 << scan.al)
        let m1 = Int16(truncatingIfNeeded: -1 << scan.al)
        var k = start
        if eobRun == 0 {
            while k <= scan.se {
                guard let rs = ac.decode(&reader) else { throw badCode() }
                var r = rs >> 4
                var s: Int16 = 0
                if rs & 15 != 0 {
                    guard rs & 15 == 1 else { throw corrupt("refinement coefficient of size \(rs & 15)") }
                    s = reader.bits(1) != 0 ? p1 : m1
                } else if r != 15 {
                    eobRun = 1 << r
                    if r > 0 { eobRun += reader.bits(r) }
                    break
                }
                // Skip r zero coefficients (refining the non-zero ones passed), then place s.
                while k <= scan.se {
                    let index = o + zz[k]
                    if c[index] != 0 {
                        refine(&c[index], p1: p1, m1: m1)
                    } else {
                        if r == 0 { break }
                        r -= 1
                    }
                    k += 1
                }
                if s != 0 && k <= scan.se { c[o + zz[k]] = s }
                k += 1
            }
        }
        if eobRun > 0 {
            while k <= scan.se {
                let index = o + zz[k]
                if c[index] != 0 { refine(&c[index], p1: p1, m1: m1) }
                k += 1
            }
            eobRun -= 1
        }
    }

    @inline(__always)
    private mutating func refine(_ coefficient: inout Int16, p1: Int16, m1: Int16) {
        if reader.bits(1) != 0 && coefficient & p1 == 0 {
            coefficient = coefficient >= 0 ? coefficient &+ p1 : coefficient &+ m1
        }
    }
}
