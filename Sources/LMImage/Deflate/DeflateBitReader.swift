/// Reads a DEFLATE stream's bits least-significant first (RFC 1951, section 3.1.1) from `bytes[start..<end]`.
///
/// Past `end` it feeds zero bits, so a peek near the end never fails; ``isOverrun`` says whether any bit
/// beyond the data has been consumed, and the inflater checks it after every code, so a truncated stream
/// becomes `.truncated` rather than a long run of invented zeros.
struct DeflateBitReader {
    let bytes: [UInt8]
    let start: Int
    let end: Int
    /// The next byte to load into `buffer`.
    private(set) var position: Int
    private var buffer: UInt64 = 0
    private var count = 0

    init(_ bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = min(end, bytes.count)
        self.position = start
    }

    /// True once a bit past the end of the data has been consumed.
    var isOverrun: Bool { (position - end) * 8 > count }

    private mutating func refill() {
        while count <= 56 {
            let byte: UInt64 = position < end ? UInt64(bytes[position]) : 0
            buffer |= byte << UInt64(count)
            position += 1
            count += 8
        }
    }

    /// The next `n` bits (n <= 32) without consuming them.
    mutating func peek(_ n: Int) -> UInt32 {
        if count < n { refill() }
        return UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1))
    }

    mutating func consume(_ n: Int) {
        buffer >>= UInt64(n)
        count -= n
    }

    /// The next `n` bits (n <= 32) as an unsigned number, first bit least significant.
    mutating func bits(_ n: Int) -> Int {
        let value = peek(n)
        consume(n)
        return Int(value)
    }

    /// Drops the bits up to the next byte boundary and returns the offset of that byte; the buffer is
    /// emptied, so the caller reads whole bytes from `bytes` and then calls ``skip(to:)``.
    mutating func alignToByte() -> Int {
        consume(count % 8)
        let offset = position - count / 8
        buffer = 0
        count = 0
        position = offset
        return offset
    }

    /// Continues reading bits at byte `offset` (after ``alignToByte()``).
    mutating func skip(to offset: Int) {
        buffer = 0
        count = 0
        position = offset
    }
}
