/// The DHT and DQT segments: Huffman and quantisation tables.
extension JPEGDecoder {
    /// DHT (T.81 B.2.4.2): one or more tables, each class/index, 16 counts and the symbols.
    static func readHuffmanTables(
        _ bytes: [UInt8], start: Int, end: Int, dc: inout [JPEGHuffmanTable?], ac: inout [JPEGHuffmanTable?]
    ) throws(ImageDecodingError) {
        var p = start
        while p < end {
            guard end - p >= 17 else { throw .truncated(part: "DHT segment", offset: p) }
            let tableClass = Int(bytes[p] >> 4), index = Int(bytes[p] & 15)
            guard tableClass <= 1, index <= 3 else { throw .invalidValue(field: "DHT class and index", value: Int(bytes[p]), offset: p) }
            let counts = (0..<16).map { Int(bytes[p + 1 + $0]) }
            let total = counts.reduce(0, +)
            guard total <= 256 else { throw .invalidHuffmanTable(detail: "DHT table with \(total) symbols") }
            guard end - p - 17 >= total else { throw .truncated(part: "DHT segment", offset: p) }
            let symbols = Array(bytes[(p + 17)..<(p + 17 + total)])
            let table = try JPEGHuffmanTable(counts: counts, symbols: symbols, isDC: tableClass == 0)
            if tableClass == 0 { dc[index] = table } else { ac[index] = table }
            p += 17 + total
        }
    }

    /// DQT (T.81 B.2.4.1): 8- or 16-bit tables in zig-zag order, stored here in natural order.
    static func readQuantTables(_ bytes: [UInt8], start: Int, end: Int, into tables: inout [[Int]?]) throws(ImageDecodingError) {
        var p = start
        while p < end {
            let precision = Int(bytes[p] >> 4), index = Int(bytes[p] & 15)
            guard precision <= 1, index <= 3 else { throw .invalidValue(field: "DQT precision and index", value: Int(bytes[p]), offset: p) }
            let size = precision == 0 ? 64 : 128
            guard end - p - 1 >= size else { throw .truncated(part: "DQT segment", offset: p) }
            var table = [Int](repeating: 0, count: 64)
            for k in 0..<64 {
                let value = precision == 0 ? Int(bytes[p + 1 + k]) : Int(bytes[p + 1 + 2 * k]) << 8 | Int(bytes[p + 2 + 2 * k])
                table[JPEGScan.naturalOrder[k]] = value
            }
            tables[index] = table
            p += 1 + size
        }
    }
}
