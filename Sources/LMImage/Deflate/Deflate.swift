/// Compresses bytes into a DEFLATE stream (RFC 1951) of one block with the fixed Huffman codes: LZ77 matches
/// found through a hash of the next 3 bytes (chains of at most `maxChain` earlier positions within the 32 KiB
/// window, the longest match taken greedily), literals otherwise. Simple and bounded (linear in the input times
/// `maxChain`); what zlib's dynamic codes would save is a few percent on image rows.
package enum Deflate {
    static let window = 1 << 15, maxChain = 16, minMatch = 3, maxMatch = 258

    /// The DEFLATE stream of `input` (without a zlib header).
    package static func compress(_ input: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.write(1, count: 1)  // BFINAL
        out.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        let n = input.count
        var head = [Int32](repeating: -1, count: 1 << 15)
        var previous = [Int32](repeating: -1, count: window)
        func hash(_ i: Int) -> Int {
            (Int(input[i]) << 10 ^ Int(input[i + 1]) << 5 ^ Int(input[i + 2])) & 0x7FFF
        }
        func insert(_ i: Int) {
            guard i + minMatch <= n else { return }
            let h = hash(i)
            previous[i & (window - 1)] = head[h]
            head[h] = Int32(i)
        }
        var i = 0
        while i < n {
            var bestLength = 0, bestDistance = 0
            if i + minMatch <= n {
                var candidate = Int(head[hash(i)])
                var chain = 0
                let limit = min(maxMatch, n - i)
                while candidate >= 0, i - candidate <= window, chain < maxChain {
                    var length = 0
                    while length < limit && input[candidate + length] == input[i + length] { length += 1 }
                    if length > bestLength {
                        bestLength = length
                        bestDistance = i - candidate
                        if length == limit { break }
                    }
                    let next = Int(previous[candidate & (window - 1)])
                    guard next < candidate else { break }
                    candidate = next
                    chain += 1
                }
            }
            if bestLength >= minMatch {
                writeLength(bestLength, to: &out)
                writeDistance(bestDistance, to: &out)
                for j in i..<(i + bestLength) { insert(j) }
                i += bestLength
            } else {
                writeLiteral(Int(input[i]), to: &out)
                insert(i)
                i += 1
            }
        }
        writeLiteral(256, to: &out)  // end of block
        return out.finish()
    }

    /// A literal/length symbol with its fixed code (RFC 1951, 3.2.6), most significant bit first.
    static func writeLiteral(_ symbol: Int, to out: inout BitWriter) {
        switch symbol {
        case 0...143: out.writeCode(0x30 + symbol, count: 8)
        case 144...255: out.writeCode(0x190 + symbol - 144, count: 9)
        case 256...279: out.writeCode(symbol - 256, count: 7)
        default: out.writeCode(0xC0 + symbol - 280, count: 8)
        }
    }

    /// Length base values of symbols 257-285 and their extra bits.
    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
                             163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                               2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    static func writeLength(_ length: Int, to out: inout BitWriter) {
        var code = lengthBase.count - 1
        while lengthBase[code] > length { code -= 1 }
        writeLiteral(257 + code, to: &out)
        out.write(UInt32(length - lengthBase[code]), count: lengthExtra[code])
    }

    static func writeDistance(_ distance: Int, to out: inout BitWriter) {
        var code = distanceBase.count - 1
        while distanceBase[code] > distance { code -= 1 }
        out.writeCode(code, count: 5)
        out.write(UInt32(distance - distanceBase[code]), count: distanceExtra[code])
    }

    /// Bits packed least significant first, as DEFLATE stores them.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0, used = 0

        /// The low `count` bits of `value`, least significant first (extra bits, header fields).
        mutating func write(_ value: UInt32, count: Int) {
            var value = value, count = count
            while count > 0 {
                let take = min(count, 8 - used)
                buffer |= (value & ((1 << take) - 1)) << used
                used += take
                value >>= take
                count -= take
                if used == 8 {
                    bytes.append(UInt8(buffer))
                    buffer = 0
                    used = 0
                }
            }
        }

        /// A Huffman code of `count` bits, its most significant bit first.
        mutating func writeCode(_ code: Int, count: Int) {
            var reversed: UInt32 = 0
            for b in 0..<count { reversed |= UInt32((code >> b) & 1) << (count - 1 - b) }
            write(reversed, count: count)
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(buffer)) }
            return bytes
        }
    }
}
