/// A JPEG Huffman table from a DHT segment (ITU-T T.81, C and F.2.2.3): code counts per length 1...16 and
/// the symbols in code order.
///
/// Codes of up to `fastBits` bits decode with one table look-up; longer ones compare against the largest
/// code of each length, as libjpeg's `jpeg_huff_decode` does.
struct JPEGHuffmanTable: Sendable {
    static let fastBits = 9
    /// Indexed by the next `fastBits` bits: `length << 8 | symbol`, or 0 when the code is longer.
    private var fast: [UInt16]
    /// `maxCode[n]`: the largest code of length n, or -1 if there is none.
    private var maxCode: [Int]
    /// `valueOffset[n]`: add to a code of length n to index `symbols`.
    private var valueOffset: [Int]
    private var symbols: [UInt8]

    /// - Parameters: `counts`: 16 counts (codes of length 1...16); `symbols`: their symbols, in order.
    /// - Throws: `.invalidHuffmanTable` when the counts exceed what codes of each length can hold (libjpeg's
    ///   JERR_BAD_HUFF_TABLE), or a DC table has a symbol above 15.
    init(counts: [Int], symbols: [UInt8], isDC: Bool) throws(ImageDecodingError) {
        var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        var maxCode = [Int](repeating: -1, count: 18)
        var valueOffset = [Int](repeating: 0, count: 18)
        var code = 0
        var index = 0
        for length in 1...16 {
            let count = counts[length - 1]
            valueOffset[length] = index - code
            for _ in 0..<count {
                guard code < 1 << length else {
                    throw .invalidHuffmanTable(detail: "JPEG table has more codes than \(length) bits can hold")
                }
                if isDC && symbols[index] > 15 {
                    throw .invalidHuffmanTable(detail: "DC symbol \(symbols[index]) above 15")
                }
                if length <= Self.fastBits {
                    let shift = Self.fastBits - length
                    let entry = UInt16(length) << 8 | UInt16(symbols[index])
                    for slot in (code << shift)..<((code + 1) << shift) { fast[slot] = entry }
                }
                code += 1
                index += 1
            }
            if count > 0 { maxCode[length] = code - 1 }
            code <<= 1
        }
        self.fast = fast
        self.maxCode = maxCode
        self.valueOffset = valueOffset
        self.symbols = symbols
    }

    /// Decodes one symbol; returns nil when the bits match no code (corrupt data).
    @inline(__always)
    func decode(_ reader: inout JPEGBitReader) -> Int? {
        let bits = reader.peek16()
        let entry = fast[bits >> (16 - Self.fastBits)]
        if entry != 0 {
            reader.consume(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        for length in (Self.fastBits + 1)...16 {
            let code = bits >> (16 - length)
            if code <= maxCode[length] {
                reader.consume(length)
                let i = valueOffset[length] + code
                return i >= 0 && i < symbols.count ? Int(symbols[i]) : nil
            }
        }
        return nil
    }
}
