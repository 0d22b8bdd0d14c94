/// Vocabulary texts as raw bytes with an open-addressing hash index from bytes to token id.
///
/// Keys are compared byte for byte. A `[String: Int]` would be wrong here: Swift `String` equality
/// is Unicode canonical equivalence, and Gemma 3's vocabulary holds 434 pairs of distinct tokens
/// that are canonically equal (NFC and NFD spellings). Lookups take a pointer and length, so the
/// tokenizers' inner loops never allocate a key.
struct TokenTable: Sendable {
    /// All token texts back to back; token `i` is `bytes[starts[i] ..< starts[i + 1]]`.
    let bytes: [UInt8]
    let starts: [Int32]
    /// Slot -> token id, `-1` for empty. Capacity is a power of two at least twice the count.
    private let slots: [Int32]
    private let mask: Int

    var count: Int { starts.count - 1 }

    /// Indexes the texts `bytes[starts[i] ..< starts[i + 1]]` as token `i`.
    /// - Throws: ``TokenizerError/duplicateToken(text:firstID:secondID:)`` when two entries have
    ///   the same bytes.
    init(bytes: [UInt8], starts: [Int32]) throws(TokenizerError) {
        self.bytes = bytes
        self.starts = starts
        let n = starts.count - 1
        var capacity = 16
        while capacity < n * 2 { capacity <<= 1 }
        mask = capacity - 1
        var slots = [Int32](repeating: -1, count: capacity)
        var duplicate: (Int, Int)?
        bytes.withUnsafeBufferPointer { b in
            starts.withUnsafeBufferPointer { s in
                slots.withUnsafeMutableBufferPointer { slot in
                    for id in 0..<n {
                        let lo = Int(s[id]), len = Int(s[id + 1]) - lo
                        let key = UnsafeBufferPointer(rebasing: b[lo ..< lo + len])
                        var i = Self.hash(key) & (capacity - 1)
                        while slot[i] >= 0 {
                            let other = Int(slot[i])
                            if Self.equal(key, b, s, other) { duplicate = (other, id); return }
                            i = (i + 1) & (capacity - 1)
                        }
                        slot[i] = Int32(id)
                    }
                }
            }
        }
        if let (first, second) = duplicate {
            let lo = Int(starts[second]), hi = Int(starts[second + 1])
            throw .duplicateToken(text: String(decoding: bytes[lo ..< hi], as: UTF8.self), firstID: first, secondID: second)
        }
        self.slots = slots
    }

    /// FNV-1a over the bytes, with a final avalanche so that the low bits used for the slot index
    /// depend on every byte.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        h ^= h >> 29
        h = h &* 0xbf58_476d_1ce4_e5b9
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }

    @inline(__always)
    private static func equal(_ key: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                              _ s: UnsafeBufferPointer<Int32>, _ id: Int) -> Bool {
        let lo = Int(s[id]), len = Int(s[id + 1]) - lo
        guard len == key.count else { return false }
        if len == 0 { return true }
        guard let kp = key.baseAddress, let bp = b.baseAddress else { return false }
        return memcmpBytes(kp, bp + lo, len)
    }

    /// The id of the token whose text is exactly `key`, or `nil`.
    @inline(__always)
    func id(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { b in
            starts.withUnsafeBufferPointer { s in
                slots.withUnsafeBufferPointer { slot in
                    var i = Self.hash(key) & mask
                    while true {
                        let id = Int(slot[i])
                        if id < 0 { return nil }
                        if Self.equal(key, b, s, id) { return id }
                        i = (i + 1) & mask
                    }
                }
            }
        }
    }

    func id(of key: [UInt8]) -> Int? {
        key.withUnsafeBufferPointer { id(of: $0) }
    }

    /// Bytes of token `id`.
    func text(_ id: Int) -> ArraySlice<UInt8> {
        bytes[Int(starts[id]) ..< Int(starts[id + 1])]
    }

    /// Length in bytes of the longest token text.
    var maxTokenLength: Int {
        var longest = 0
        for i in 0 ..< count { longest = max(longest, Int(starts[i + 1] - starts[i])) }
        return longest
    }
}

@inline(__always)
private func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    var i = 0
    while i + 8 <= n {
        if UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self) != UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self) { return false }
        i += 8
    }
    while i < n {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}
