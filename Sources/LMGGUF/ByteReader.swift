/// A bounds-checked little-endian cursor over file bytes. Every read checks the bytes left first,
/// so no input can make the reader touch memory outside the file.
struct ByteReader {
    let base: UnsafeRawPointer
    let count: Int
    var offset: Int = 0

    var remaining: Int { count - offset }

    mutating func bytes(_ n: Int, _ what: @autoclosure () -> String) throws(GGUFError) -> UnsafeRawPointer {
        guard n >= 0, n <= remaining else { throw .truncated(what: what(), offset: offset, needed: n) }
        defer { offset += n }
        return base + offset
    }

    mutating func read<T: FixedWidthInteger>(_: T.Type, _ what: @autoclosure () -> String) throws(GGUFError) -> T {
        let p = try bytes(MemoryLayout<T>.size, what())
        return T(littleEndian: p.loadUnaligned(as: T.self))
    }

    mutating func readFloat(_ what: @autoclosure () -> String) throws(GGUFError) -> Float {
        Float(bitPattern: try read(UInt32.self, what()))
    }

    mutating func readDouble(_ what: @autoclosure () -> String) throws(GGUFError) -> Double {
        Double(bitPattern: try read(UInt64.self, what()))
    }

    /// A GGUF string: `uint64` length then that many UTF-8 bytes (invalid sequences are repaired).
    mutating func readString(_ what: @autoclosure () -> String) throws(GGUFError) -> String {
        let start = offset
        let len = try read(UInt64.self, what())
        guard len <= UInt64(remaining) else { throw .countTooLarge(what: what(), count: len, offset: start) }
        let p = try bytes(Int(len), what())
        return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(len)), as: UTF8.self)
    }
}
