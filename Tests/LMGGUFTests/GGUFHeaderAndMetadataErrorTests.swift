#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LMGGUF
import TestSupport
import Testing

/// Corrupt headers and key-values are rejected with the error that names what and where.
struct GGUFHeaderAndMetadataErrorTests {
    typealias Case = GGUFCorruptionCase

    static let headerCases: [Case] = [
        Case("GGML magic", .badMagic(found: 0x4C4D_4747)) { $0.magic = 0x4C4D_4747 },
        Case("zero magic", .badMagic(found: 0)) { $0.magic = 0 },
        Case("version 1 (32-bit counts)", .unsupportedVersion(1)) { $0.version = 1 },
        Case("version 4", .unsupportedVersion(4)) { $0.version = 4 },
        Case("version 0", .unsupportedVersion(0)) { $0.version = 0 },
        Case("big-endian version 3", .unsupportedVersion(0x0300_0000)) { $0.version = 0x0300_0000 },
        Case("huge key-value count", .countTooLarge(what: "metadata key-value count", count: .max, offset: 16)) {
            $0.kvCount = .max
        },
        Case("key-value count past the end", .countTooLarge(what: "metadata key-value count", count: 2, offset: 16)) {
            $0.add("k", .uint8(1)) // 14 bytes: room for one entry of at least 12, not two
            $0.kvCount = 2
        },
        Case("huge tensor count", .countTooLarge(what: "tensor count", count: .max, offset: 8)) {
            $0.tensorCount = .max
        },
        Case("tensor count with no bytes left", .countTooLarge(what: "tensor count", count: 1, offset: 8)) {
            $0.tensorCount = 1
        },
    ]

    static let metadataCases: [Case] = [
        Case("huge key length", .countTooLarge(what: "key of metadata entry 0", count: .max, offset: Layout.header)) {
            $0.add(rawEntry: le(UInt64.max) + Array("k".utf8) + le(UInt32(0)) + [1])
        },
        Case("key length one past the end", .countTooLarge(what: "key of metadata entry 0", count: 5, offset: Layout.header)) {
            $0.add(rawEntry: le(UInt64(5)) + Array("key!".utf8)) // 4 bytes follow the length
        },
        Case("huge string value length", .countTooLarge(what: "value of key \"k\"", count: 1 << 62, offset: Layout.firstValue)) {
            $0.add("k", typeID: 8, payload: le(UInt64(1) << 62))
        },
        Case("huge array count", .countTooLarge(what: "array of key \"a\"", count: .max, offset: Layout.firstValue + 4)) {
            $0.add("a", typeID: 9, payload: le(UInt32(0)) + le(UInt64.max))
        },
        Case("huge string array count", .countTooLarge(what: "array of key \"a\"", count: 1 << 40, offset: Layout.firstValue + 4)) {
            $0.add("a", typeID: 9, payload: le(UInt32(8)) + le(UInt64(1) << 40))
        },
        Case("array count one past the bytes left", .countTooLarge(what: "array of key \"a\"", count: 3, offset: Layout.firstValue + 4)) {
            $0.add("a", typeID: 9, payload: le(UInt32(5)) + le(UInt64(3)) + le(Int32(1)) + le(Int32(2)))
        },
        Case("value type 13", .unknownValueType(key: "k", typeID: 13, offset: Layout.firstTypeID)) {
            $0.add("k", typeID: 13, payload: [0, 0, 0, 0])
        },
        Case("value type UInt32.max", .unknownValueType(key: "k", typeID: .max, offset: Layout.firstTypeID)) {
            $0.add("k", typeID: .max, payload: [0, 0, 0, 0])
        },
        Case("array element type 13", .unknownValueType(key: "a", typeID: 13, offset: Layout.firstValue)) {
            $0.add("a", typeID: 9, payload: le(UInt32(13)) + le(UInt64(0)))
        },
        Case("unknown type in the second entry", .unknownValueType(key: "b", typeID: 99, offset: Layout.firstValue + 1 + 9)) {
            $0.add("a", .bool(true))
            $0.add("b", typeID: 99, payload: [0])
        },
        Case("duplicate key", .duplicateKey("k", offset: Layout.firstValue + 1)) {
            $0.add("k", .uint8(1))
            $0.add("k", .uint8(2))
        },
        Case("duplicate key of another type", .duplicateKey("general.name", offset: Layout.header + 8 + 12 + 4 + 8 + 1)) {
            $0.add("general.name", .string("x"))
            $0.add("general.name", .int32(3))
        },
        Case("arrays nested nine deep", .nestingTooDeep(key: "d", offset: Layout.firstValue + 8 * 12)) {
            var value = GGUFArray.int8([1])
            for _ in 0..<8 { value = .array([value]) }
            $0.add("d", .array(value))
        },
        Case("arrays nested a thousand deep", .nestingTooDeep(key: "d", offset: Layout.firstValue + 8 * 12)) {
            let level = le(UInt32(9)) + le(UInt64(1))
            $0.add("d", typeID: 9, payload: Array([[UInt8]](repeating: level, count: 1000).joined()))
        },
    ]

    @Test("a corrupt header throws its specific error", arguments: headerCases)
    func corruptHeader(c: Case) {
        #expect(throws: c.expected) { try GGUFFile(bytes: MappedBytes(copying: c.bytes)) }
    }

    @Test("a corrupt key-value throws its specific error naming the key", arguments: metadataCases)
    func corruptMetadata(c: Case) {
        #expect(throws: c.expected) { try GGUFFile(bytes: MappedBytes(copying: c.bytes)) }
    }

    @Test("general.alignment must be a power-of-two uint32", arguments: [
        (GGUFValue.uint32(0), GGUFError.invalidAlignment("0 is not a power of two")),
        (.uint32(48), .invalidAlignment("48 is not a power of two")),
        (.uint32(3), .invalidAlignment("3 is not a power of two")),
        (.uint32(0x8000_0001), .invalidAlignment("2147483649 is not a power of two")),
        (.uint64(32), .invalidAlignment("must be a uint32")),
        (.int32(32), .invalidAlignment("must be a uint32")),
        (.uint16(32), .invalidAlignment("must be a uint32")),
        (.string("32"), .invalidAlignment("must be a uint32")),
    ])
    func invalidAlignment(value: GGUFValue, expected: GGUFError) {
        var b = GGUFBuilder()
        b.add("general.alignment", value)
        b.addTensor("t", .f32, dims: [4])
        #expect(throws: expected) { try b.parse() }
    }

    @Test("files that cannot be opened or are empty throw without mapping")
    func unopenableFiles() throws {
        let missing = "/nonexistent/lmgguf/model.gguf"
        #expect(throws: GGUFError.cannotOpen(path: missing, reason: "No such file or directory")) {
            try GGUFFile(path: missing)
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: GGUFError.cannotOpen(path: directory, reason: "not a regular file")) {
            try GGUFFile(path: directory)
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("lmgguf-empty-\(UUID().uuidString).gguf")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: GGUFError.truncated(what: "header", offset: 0, needed: 4)) {
            try GGUFFile(path: empty.path)
        }
        #expect(throws: GGUFError.truncated(what: "magic", offset: 0, needed: 4)) {
            try GGUFFile(bytes: MappedBytes(copying: []))
        }
    }

    @Test("a named pipe is refused without waiting for a writer")
    func namedPipeIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmgguf-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: GGUFError.cannotOpen(path: path, reason: "not a regular file")) {
            try GGUFFile(path: path)
        }
    }

    @Test("error descriptions name the key and the offset")
    func descriptions() {
        #expect(GGUFError.duplicateKey("k", offset: 38).description == "duplicate key \"k\" at offset 38")
        #expect(GGUFError.badMagic(found: 0x4C4D_4747).description == "not a GGUF file: magic 0x4c4d4747 at offset 0")
        #expect(GGUFError.unknownValueType(key: "a", typeID: 13, offset: 37).description
            == "key \"a\": unknown value type 13 at offset 37")
    }

    /// A corrupt key length read the rest of the file as the key, and its description held all of it (17 MB of
    /// NULs and control characters on a tester's terminal).
    @Test("a name in an error is escaped and cut short")
    func namesAreEscapedAndCut() {
        let long = "general.name\u{08}\0\u{1B}[31m" + String(repeating: "x", count: 1_000_000)
        let description = GGUFError.unknownValueType(key: long, typeID: 3_708_224_239, offset: 10_000_032).description
        #expect(description.count < 200, "\(description.prefix(300))")
        #expect(description.hasPrefix(#"key "general.name\u{08}\0\u{1B}[31mxxx"#), "\(description.prefix(300))")
        #expect(description.hasSuffix("… (1000019 characters): unknown value type 3708224239 at offset 10000032"))
        #expect(!description.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(GGUFError.duplicateTensor("blk.0.attn_q\u{7}", offset: 9).description == #"duplicate tensor "blk.0.attn_q\u{07}" at offset 9"#)
    }
}
