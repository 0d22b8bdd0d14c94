import LMGGUF
import TestSupport
import Testing

/// Cut and mutated copies of a valid file: every one throws a ``GGUFError`` or parses into tensors
/// that lie inside the bytes; none crashes or allocates beyond the file's size.
struct GGUFTruncationTests {
    static let valid = GGUFRoundTripTests.builder(version: 3).build()

    /// The errors a cut file may give: a read past the end, a count or length larger than the
    /// bytes left, or tensor data past the end.
    static func isTruncationError(_ error: GGUFError) -> Bool {
        switch error {
        case .truncated, .countTooLarge, .tensorOutOfRange: true
        default: false
        }
    }

    @Test("every proper prefix of a valid file throws a truncation error")
    func everyPrefixThrows() {
        #expect(Self.valid.count > 1000)
        var parsed: [Int] = []
        var wrongKind: [(Int, GGUFError)] = []
        for n in 0..<Self.valid.count {
            do {
                _ = try GGUFFile(bytes: MappedBytes(copying: Array(Self.valid[..<n])))
                parsed.append(n)
            } catch {
                if !Self.isTruncationError(error) { wrongKind.append((n, error)) }
            }
        }
        #expect(parsed.isEmpty, "prefixes that parsed: \(parsed)")
        #expect(wrongKind.isEmpty, "prefixes with another error: \(wrongKind.prefix(5))")
    }

    @Test("a prefix ending in the header or the tensor padding names the part cut", arguments: [
        (0, GGUFError.truncated(what: "magic", offset: 0, needed: 4)),
        (3, .truncated(what: "magic", offset: 0, needed: 4)),
        (6, .truncated(what: "version", offset: 4, needed: 4)),
        (15, .truncated(what: "tensor count", offset: 8, needed: 8)),
        (23, .truncated(what: "metadata count", offset: 16, needed: 8)),
    ])
    func headerPrefix(length: Int, expected: GGUFError) {
        #expect(throws: expected) { try GGUFFile(bytes: MappedBytes(copying: Array(Self.valid[..<length]))) }
    }

    @Test("a file cut inside the padding before the data section says so")
    func cutInPadding() throws {
        var b = GGUFBuilder()
        b.addTensor("t", .f32, dims: [4]) // infos end at 24 + 33 = 57; data starts at 64
        let bytes = b.build()
        #expect(bytes.count == 80)
        #expect(throws: GGUFError.truncated(what: "data section", offset: 57, needed: 7)) {
            try GGUFFile(bytes: MappedBytes(copying: Array(bytes[..<60])))
        }
        #expect(throws: GGUFError.tensorOutOfRange(tensor: "t", dataOffset: 0, byteCount: 16, dataSectionSize: 15)) {
            try GGUFFile(bytes: MappedBytes(copying: Array(bytes[..<79])))
        }
    }

    /// Parses `bytes`; when that succeeds, checks every tensor lies inside them.
    static func checkParsesSafely(_ bytes: [UInt8]) -> Bool {
        guard let file = try? GGUFFile(bytes: MappedBytes(copying: bytes)) else { return true }
        return file.tensors.allSatisfy { t in
            file.dataSectionOffset + t.dataOffset + t.byteCount <= bytes.count
                && t.byteCount == t.type.byteCount(elements: t.elementCount)
        }
    }

    @Test("changing any one byte never crashes and never yields a tensor outside the file")
    func everySingleByteChange() {
        var unsafe: [Int] = []
        for i in Self.valid.indices {
            for replacement in [0x00, 0xFF, Self.valid[i] &+ 1, Self.valid[i] ^ 0x80] as [UInt8] {
                var bytes = Self.valid
                bytes[i] = replacement
                if !Self.checkParsesSafely(bytes) { unsafe.append(i) }
            }
        }
        #expect(unsafe.isEmpty, "byte positions: \(unsafe)")
    }

    @Test("random multi-byte damage never crashes and never yields a tensor outside the file")
    func randomDamage() {
        var rng = SplitMix64(seed: 0x6767_7566)
        var unsafe = 0
        for _ in 0..<2000 {
            var bytes = Self.valid
            for _ in 0..<(1 + Int(rng.next() % 8)) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            if rng.next() % 4 == 0 { bytes.removeLast(Int(rng.next() % UInt64(bytes.count))) }
            if !Self.checkParsesSafely(bytes) { unsafe += 1 }
        }
        #expect(unsafe == 0)
    }
}

/// A small seeded generator (SplitMix64) so damage is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
