/// Reads a JPEG scan's entropy-coded bits, most significant first (ITU-T T.81, F.2.2.5), removing the
/// zero byte stuffed after each 0xFF.
///
/// At a marker (0xFF followed by anything but 0x00) or the end of the file it feeds zero bits and counts
/// them; ``isOverrun`` says whether any of those invented bits has been consumed, which the scan decoder
/// turns into `.truncated` or `.corruptImageData`.
struct JPEGBitReader {
    let bytes: [UInt8]
    /// The next byte to load into the buffer.
    private(set) var position: Int
    private var buffer: UInt64 = 0
    private var count = 0
    /// Zero bits fed after the data stopped, still in the buffer or already consumed.
    private var padding = 0
    /// True once a marker (rather than the end of the file) stopped the data.
    private(set) var atMarker = false

    init(_ bytes: [UInt8], at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    var isOverrun: Bool { padding > count }
    /// True when the data stopped at the end of the file rather than at a marker.
    var reachedEndOfFile: Bool { position >= bytes.count && !atMarker }

    private mutating func refill() {
        while count <= 56 {
            var byte: UInt8 = 0
            if !atMarker && position < bytes.count {
                byte = bytes[position]
                if byte == 0xFF {
                    if position + 1 < bytes.count && bytes[position + 1] == 0 {
                        position += 2
                    } else if position + 1 < bytes.count {
                        atMarker = true
                        byte = 0
                        padding += 8
                    } else {
                        position += 1
                        byte = 0
                        padding += 8
                    }
                } else {
                    position += 1
                }
            } else {
                padding += 8
            }
            buffer |= UInt64(byte) << UInt64(56 - count)
            count += 8
        }
    }

    /// The next 16 bits without consuming them.
    @inline(__always)
    mutating func peek16() -> Int {
        if count < 16 { refill() }
        return Int(buffer >> 48)
    }

    @inline(__always)
    mutating func consume(_ n: Int) {
        buffer <<= UInt64(n)
        count -= n
    }

    /// The next `n` bits (0...16) as an unsigned number.
    @inline(__always)
    mutating func bits(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        if count < n { refill() }
        let value = Int(buffer >> UInt64(64 - n))
        consume(n)
        return value
    }

    /// `n` bits as a signed coefficient (T.81 F.2.2.1, EXTEND): values below 2^(n-1) are negative.
    @inline(__always)
    mutating func receiveExtend(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        let value = bits(n)
        return value < 1 << (n - 1) ? value - (1 << n) + 1 : value
    }

    /// Drops the buffered bits (padding before a marker) and clears the marker state, so reading resumes at
    /// ``position``.
    mutating func reset() {
        buffer = 0
        count = 0
        padding = 0
        atMarker = false
    }

    /// Moves past `2` bytes (a restart marker the caller has checked).
    mutating func skipMarker(at offset: Int) {
        reset()
        position = offset + 2
    }
}
