import Foundation
import LMGGUF
import TestSupport
import Testing

/// Files written by ``GGUFBuilder`` read back with every value, tensor info and data byte intact.
struct GGUFRoundTripTests {
    /// One entry of each of the 13 value types, arrays of each element type, and nested arrays.
    static let metadata: [(String, GGUFValue)] = [
        ("general.architecture", .string("llama")),
        ("t.uint8", .uint8(255)),
        ("t.int8", .int8(-128)),
        ("t.uint16", .uint16(65535)),
        ("t.int16", .int16(-32768)),
        ("t.uint32", .uint32(4_000_000_000)),
        ("t.int32", .int32(-2_000_000_000)),
        ("t.float32", .float32(-1.5e-3)),
        ("t.bool.true", .bool(true)),
        ("t.bool.false", .bool(false)),
        ("t.string", .string("héllo, 世界 🌍")),
        ("t.string.empty", .string("")),
        ("t.uint64", .uint64(.max)),
        ("t.int64", .int64(.min)),
        ("t.float64", .float64(3.141592653589793)),
        ("a.uint8", .array(.uint8([0, 1, 255]))),
        ("a.int8", .array(.int8([-128, 0, 127]))),
        ("a.uint16", .array(.uint16([1, 65535]))),
        ("a.int16", .array(.int16([-32768, 32767]))),
        ("a.uint32", .array(.uint32([7, .max]))),
        ("a.int32", .array(.int32([3, -3, .min]))),
        ("a.float32", .array(.float32([0.5, -2.25, 1e30]))),
        ("a.bool", .array(.bool([true, false, true]))),
        ("a.string", .array(.string(["<s>", "", "Ġthe", "🌍"]))),
        ("a.uint64", .array(.uint64([.max, 0]))),
        ("a.int64", .array(.int64([.min, -1]))),
        ("a.float64", .array(.float64([1e-300, -0.125]))),
        ("a.empty", .array(.int32([]))),
        ("a.nested", .array(.array([.int32([1, 2]), .string(["a", "bc"]), .array([.float64([0.5])]), .uint8([])]))),
    ]

    static func builder(version: UInt32) -> GGUFBuilder {
        var b = GGUFBuilder()
        b.version = version
        for (key, value) in metadata { b.add(key, value) }
        b.addTensor("token_embd.weight", .q8_0, dims: [64, 3])
        b.addTensor("output_norm.weight", .f32, dims: [7])
        b.addTensor("blk.0.ffn_up.weight", .q4_1, dims: [32, 2, 3])
        b.addTensor("blk.0.ffn_down.weight", .q4_K, dims: [256, 2])
        b.addTensor("blk.0.attn_k.weight", .f16, dims: [3, 1, 1, 2])
        return b
    }

    @Test("a v2 or v3 file returns every metadata value in file order", arguments: [UInt32(2), 3])
    func metadataRoundTrips(version: UInt32) throws {
        let file = try Self.builder(version: version).parse()
        #expect(file.version == version)
        #expect(file.keys == Self.metadata.map(\.0))
        #expect(file.metadata.count == Self.metadata.count)
        for (key, value) in Self.metadata {
            #expect(file[key] == value, "key \(key)")
        }
        #expect(file.architecture == "llama")
    }

    /// Byte counts from ggml's block sizes; offsets from laying them out at 32-byte alignment.
    static let expectedTensors: [TensorFacts] = [
        TensorFacts(name: "token_embd.weight", dims: [64, 3], type: .q8_0, dataOffset: 0, byteCount: 6 * 34),
        TensorFacts(name: "output_norm.weight", dims: [7], type: .f32, dataOffset: 224, byteCount: 28),
        TensorFacts(name: "blk.0.ffn_up.weight", dims: [32, 2, 3], type: .q4_1, dataOffset: 256, byteCount: 6 * 20),
        TensorFacts(name: "blk.0.ffn_down.weight", dims: [256, 2], type: .q4_K, dataOffset: 384, byteCount: 2 * 144),
        TensorFacts(name: "blk.0.attn_k.weight", dims: [3, 1, 1, 2], type: .f16, dataOffset: 672, byteCount: 12),
    ]

    @Test("a v2 or v3 file returns every tensor info and its data bytes", arguments: [UInt32(2), 3])
    func tensorsRoundTrip(version: UInt32) throws {
        let builder = Self.builder(version: version)
        let bytes = builder.build()
        let file = try GGUFFile(bytes: MappedBytes(copying: bytes))
        #expect(file.tensors.map(TensorFacts.init) == Self.expectedTensors)
        #expect(file.alignment == 32)
        #expect(file.dataSectionOffset % 32 == 0)
        #expect(file.dataSectionOffset + 672 + 12 == bytes.count)
        for (info, written) in zip(file.tensors, builder.tensors) {
            #expect(file.tensor(named: info.name) == info)
            let read = Array(UnsafeRawBufferPointer(start: file.data(for: info), count: info.byteCount))
            #expect(read == written.data, "data of \(info.name)")
        }
        #expect(file.tensor(named: "missing.weight") == nil)
    }

    @Test("tensor shapes report rows, row length and element count")
    func tensorShapeAccessors() throws {
        let file = try Self.builder(version: 3).parse()
        let up = try #require(file.tensor(named: "blk.0.ffn_up.weight"))
        #expect(up.rowLength == 32)
        #expect(up.rowCount == 6)
        #expect(up.elementCount == 192)
        let norm = try #require(file.tensor(named: "output_norm.weight"))
        #expect(norm.rowLength == 7)
        #expect(norm.rowCount == 1)
    }

    @Test("general.alignment places the data section and every tensor on its multiple", arguments: [UInt32(1), 8, 64, 4096])
    func customAlignment(alignment: UInt32) throws {
        var b = GGUFBuilder()
        b.alignment = Int(alignment)
        b.add("general.alignment", .uint32(alignment))
        b.addTensor("a", .f32, dims: [3])
        b.addTensor("b", .q8_0, dims: [32])
        b.addTensor("c", .f16, dims: [5])
        let file = try b.parse()
        #expect(file.alignment == Int(alignment))
        #expect(file.dataSectionOffset % Int(alignment) == 0)
        #expect(file.tensors.map(\.dataOffset) == b.dataOffsets)
        #expect(file.tensors.allSatisfy { $0.dataOffset % Int(alignment) == 0 })
        for (info, written) in zip(file.tensors, b.tensors) {
            let read = Array(UnsafeRawBufferPointer(start: file.data(for: info), count: info.byteCount))
            #expect(read == written.data, "data of \(info.name)")
        }
    }

    @Test("a file with no tensors and no metadata is valid")
    func emptyFile() throws {
        let file = try GGUFBuilder().parse()
        #expect(file.keys.isEmpty)
        #expect(file.tensors.isEmpty)
        #expect(file.architecture == nil)
    }

    @Test("arrays nested eight deep are accepted")
    func eightNestedArraysAreAccepted() throws {
        var value = GGUFArray.int8([-1])
        for _ in 0..<7 { value = .array([value]) }
        var b = GGUFBuilder()
        b.add("deep", .array(value))
        #expect(try b.parse()["deep"] == .array(value))
    }

    @Test("invalid UTF-8 in a string is repaired with U+FFFD, not rejected")
    func invalidUTF8IsRepaired() throws {
        var b = GGUFBuilder()
        b.add("s", typeID: 8, payload: GGUFBuilder.le(UInt64(4)) + [0x61, 0xFF, 0xC3, 0x62])
        #expect(try b.parse()["s"] == .string("a\u{FFFD}\u{FFFD}b"))
    }

    @Test("a file read through a memory mapping equals the same bytes read from memory")
    func mappedFileMatchesInMemory() throws {
        let bytes = Self.builder(version: 3).build()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lmgguf-\(UUID().uuidString).gguf")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let mapped = try GGUFFile(path: url.path)
        #expect(mapped.bytes.count == bytes.count)
        #expect(mapped.keys == Self.metadata.map(\.0))
        #expect(mapped.tensors.map(TensorFacts.init) == Self.expectedTensors)
        let last = try #require(mapped.tensors.last)
        let read = Array(UnsafeRawBufferPointer(start: mapped.data(for: last), count: last.byteCount))
        #expect(read == Array(bytes.suffix(last.byteCount)))
    }
}
