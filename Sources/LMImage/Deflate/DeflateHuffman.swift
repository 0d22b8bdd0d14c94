/// A canonical Huffman code of DEFLATE (RFC 1951, section 3.2.2), built from code lengths.
///
/// Codes of up to `fastBits` bits decode with one table look-up; longer ones walk the code lengths
/// (the counting method of Mark Adler's `puff.c`).
struct DeflateHuffman {
    static let fastBits = 9
    /// Indexed by the next `fastBits` input bits: `symbol << 4 | length`, or 0 when the code is longer.
    private var fast: [UInt16]
    /// `counts[n]`: how many codes have length n (1...15).
    private var counts: [Int]
    /// Symbols ordered by code.
    private var symbols: [UInt16]

    /// Which code is being built, for zlib's rule on incomplete codes.
    enum Kind { case codeLengths, literalLengths, distances }

    /// - Throws: `.invalidHuffmanTable` when the lengths over-subscribe the code space, or leave it
    ///   incomplete (allowed, as zlib allows, only for a literal/length or distance code whose longest
    ///   code has length 1, e.g. a single distance code).
    init(lengths: ArraySlice<UInt8>, kind: Kind) throws(ImageDecodingError) {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        var maxLength = 0
        for n in 1...15 {
            left <<= 1
            left -= counts[n]
            if counts[n] > 0 { maxLength = n }
            guard left >= 0 else { throw .invalidHuffmanTable(detail: "over-subscribed \(kind) code") }
        }
        if left > 0 && maxLength > 0 && (kind == .codeLengths || maxLength != 1) {
            throw .invalidHuffmanTable(detail: "incomplete \(kind) code")
        }
        // First index in `symbols` of each length.
        var offsets = [Int](repeating: 0, count: 16)
        for n in 1..<15 { offsets[n + 1] = offsets[n] + counts[n] }
        var symbols = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[Int(length)]] = UInt16(symbol)
            offsets[Int(length)] += 1
        }
        var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        var code = 0
        var index = 0
        for n in 1...Self.fastBits {
            for _ in 0..<counts[n] {
                // Codes are stored most significant bit first; the reader yields bits least significant first.
                var reversed = 0
                for b in 0..<n where code & (1 << b) != 0 { reversed |= 1 << (n - 1 - b) }
                let entry = symbols[index] << 4 | UInt16(n)
                var slot = reversed
                while slot < fast.count {
                    fast[slot] = entry
                    slot += 1 << n
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
        self.fast = fast
        self.counts = counts
        self.symbols = symbols
    }

    /// Decodes one symbol.
    /// - Throws: `.corruptDeflateStream` when the bits are not a code of this table (possible only for an
    ///   incomplete or empty code).
    func decode(_ reader: inout DeflateBitReader) throws(ImageDecodingError) -> Int {
        let bits = reader.peek(15)
        let entry = fast[Int(bits) & (fast.count - 1)]
        if entry != 0 {
            reader.consume(Int(entry & 15))
            return Int(entry >> 4)
        }
        var code = 0, first = 0, index = 0
        for n in 1...15 {
            code |= Int(bits >> UInt32(n - 1)) & 1
            let count = counts[n]
            if code >= first, code - first < count {
                reader.consume(n)
                return Int(symbols[index + code - first])
            }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw .corruptDeflateStream(detail: "bits match no code of the table")
    }
}
