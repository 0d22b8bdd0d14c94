import Testing
import Foundation
import LMGGUF
import LMKernels

/// Dequantization of every GGUF type against gguf-py (`gguf.quants`), hand-made blocks, and the
/// row dispatch.
struct FormatTests {
    static let fixtureTypes: [GGMLType] = [.f32, .f16, .bf16, .q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .q4_K, .q5_K, .q6_K]

    @Test("every format's block layout has ggml's byte count", arguments: GGMLType.allCases)
    func layoutMatchesGGMLBytesPerBlock(type: GGMLType) {
        let format = TensorFormats.format(for: type)
        #expect(format.type == type)
        #expect(format.layoutBytes == type.bytesPerBlock)
        #expect(format.blockSize == type.blockSize)
    }

    @Test func registryReportsNoLayoutMismatches() {
        #expect(TensorFormats.layoutMismatches.isEmpty)
        #expect(TensorFormats.all.count == GGMLType.allCases.count)
    }

    /// All arithmetic is the same float32 operations in the same order as gguf.quants (products
    /// like `(d * scale) * q` associate alike, and Swift does not fuse `a * b + c`), so the
    /// results must be identical, not merely close.
    @Test("dequantization equals gguf.quants bit for bit", arguments: fixtureTypes)
    func dequantizationMatchesGGUFPy(type: GGMLType) throws {
        let (blocks, expected) = try Fixture.dequantized(type)
        #expect(blocks.count == expected.count / type.blockSize * type.bytesPerBlock)
        var ours = [Float](repeating: .nan, count: expected.count)
        blocks.withUnsafeBytes { src in
            ours.withUnsafeMutableBufferPointer { dst in
                dequantizeRow(type: type, src.baseAddress!, into: dst.baseAddress!, count: expected.count)
            }
        }
        let bad = bitMismatches(ours, expected)
        let mismatchCount = bad.count
        #expect(mismatchCount == 0, "of \(expected.count); first at \(bad.first ?? -1): \(bad.first.map { (ours[$0], expected[$0]) }.debugDescription)")
        #expect(expected.contains { $0 != 0 && $0.isFinite })
    }

    @Test("a format's row conversion equals converting block by block", arguments: fixtureTypes)
    func rowConversionEqualsBlockConversion(type: GGMLType) throws {
        let (blocks, expected) = try Fixture.dequantized(type)
        let format = TensorFormats.format(for: type)
        var row = [Float](repeating: 0, count: expected.count)
        var perBlock = [Float](repeating: 0, count: expected.count)
        blocks.withUnsafeBytes { src in
            row.withUnsafeMutableBufferPointer { format.dequantizeRow(src.baseAddress!, into: $0.baseAddress!, count: expected.count) }
            perBlock.withUnsafeMutableBufferPointer { dst in
                for b in 0..<(expected.count / type.blockSize) {
                    format.dequantize(block: src.baseAddress! + b * type.bytesPerBlock, into: dst.baseAddress! + b * type.blockSize)
                }
            }
        }
        let mismatchCount = bitMismatches(row, perBlock).count
        #expect(mismatchCount == 0)
    }

    @Test func weightMatrixRowsAreSlicesOfTheTensor() throws {
        // 256 Q4_0 blocks viewed as 8 rows of 1024 columns.
        let (blocks, expected) = try Fixture.dequantized(.q4_0)
        blocks.withUnsafeBytes { raw in
            let matrix = WeightMatrix(type: .q4_0, data: raw.baseAddress!, rows: 8, cols: 1024)
            var out = [Float](repeating: 0, count: 1024)
            for r in [0, 3, 7] {
                out.withUnsafeMutableBufferPointer { matrix.dequantizeRow(r, into: $0.baseAddress!) }
                #expect(out == Array(expected[(r * 1024)..<((r + 1) * 1024)]))
            }
        }
    }

    /// A hand-built block per type, with the values ggml's dequantize_row_* gives for chosen
    /// elements: pins nibble order, the high-bit fields, and signedness independently of gguf-py.
    struct HandCase: Sendable, CustomTestStringConvertible {
        let type: GGMLType
        let bytes: [(offset: Int, value: UInt8)]
        let expected: [(index: Int, value: Float)]
        let testDescription: String
    }

    static let handCases: [HandCase] = [
        // d = 1.0 (0x3C00); qs[0] = 0x1F: low nibble 15 -> x0 = 7, high nibble 1 -> x16 = -7.
        HandCase(type: .q4_0, bytes: [(1, 0x3C), (2, 0x1F)],
                 expected: [(0, 7), (16, -7), (1, -8)], testDescription: "Q4_0 nibbles minus 8"),
        // d = 0.5, m = -1 (0xBC00); qs[3] = 0xA2 -> x3 = 2*0.5-1 = 0, x19 = 10*0.5-1 = 4.
        HandCase(type: .q4_1, bytes: [(1, 0x38), (3, 0xBC), (7, 0xA2)],
                 expected: [(3, 0), (19, 4), (0, -1)], testDescription: "Q4_1 nibble * d + m"),
        // d = 2; qh bit 0 and bit 17 set; qs[0] = 0x00, qs[1] = 0x30:
        // x0 = (0|16)-16 = 0, x16 = 0-16 = -16 -> -32, x1 = 0-16 -> -32, x17 = (3|16)-16 = 3 -> 6.
        HandCase(type: .q5_0, bytes: [(1, 0x40), (2, 0x01), (4, 0x02), (7, 0x30)],
                 expected: [(0, 0), (16, -32), (1, -32), (17, 6)], testDescription: "Q5_0 fifth bit from qh"),
        // d = 1, m = 0.5; qh bit 31 set; qs[15] = 0xF0: x15 = 0 + 0.5, x31 = (15|16) + 0.5 = 31.5.
        HandCase(type: .q5_1, bytes: [(1, 0x3C), (3, 0x38), (7, 0x80), (23, 0xF0)],
                 expected: [(15, 0.5), (31, 31.5)], testDescription: "Q5_1 fifth bit plus minimum"),
        // d = -0.25 (0xB400); qs[5] = 0x80 = -128 -> 32.
        HandCase(type: .q8_0, bytes: [(1, 0xB4), (7, 0x80)],
                 expected: [(5, 32), (0, -0)], testDescription: "Q8_0 signed bytes"),
        // d = 1, dmin = 1; scales[0] = 2 (scale 0), scales[4] = 3 (min 0), scales[1] = 5 (scale 1),
        // scales[8] = 0x71 with scales[0]'s top bits 0b01: scale 4 = 1 | 1<<4 = 17, min 4 = 7.
        // qs[0] = 0x4F: x0 = 2*15 - 3 = 27, x32 = 5*4 - 0 = 20. qs[64] = 0x02: x128 = 17*2 - 7 = 27.
        HandCase(type: .q4_K, bytes: [(1, 0x3C), (3, 0x3C), (4, 0x42), (5, 5), (8, 3), (12, 0x71), (16, 0x4F), (80, 0x02)],
                 expected: [(0, 27), (32, 20), (128, 27), (1, -3)], testDescription: "Q4_K six-bit scales and mins"),
        // As Q4_K but qh[0] = 0b0000_0110: bit 1 -> sub-block 1 (x32 +16), bit 2 -> sub-block 2.
        // scales: scale 0 = 1, scale 1 = 1, scale 2 = 1; mins 0.
        HandCase(type: .q5_K, bytes: [(1, 0x3C), (4, 1), (5, 1), (6, 1), (16, 0x06), (48, 0x21), (80, 0x03)],
                 expected: [(0, 1), (32, 18), (64, 19), (96, 0)], testDescription: "Q5_K high bits per sub-block"),
        // d = 1 at 208; scales[0] = -2, scales[2] = 3, scales[4] = 1, scales[6] = 1; ql[0] = 0x21,
        // qh[0] = 0b11_10_01_00 -> q0 = 1-32, q32 = (ql[32]=0 | 1<<4)-32 = -16, q64 = (2|2<<4)-32 = 2,
        // q96 = (0|3<<4)-32 = 16.
        HandCase(type: .q6_K, bytes: [(209, 0x3C), (192, 0xFE), (194, 3), (196, 1), (198, 1), (0, 0x21), (128, 0xE4)],
                 expected: [(0, 62), (32, -48), (64, 2), (96, 16)], testDescription: "Q6_K ql/qh/scales"),
    ]

    @Test("hand-built blocks dequantize to ggml's values", arguments: handCases)
    func handBuiltBlock(_ c: HandCase) {
        var block = [UInt8](repeating: 0, count: c.type.bytesPerBlock)
        for (offset, value) in c.bytes { block[offset] = value }
        var out = [Float](repeating: .nan, count: c.type.blockSize)
        block.withUnsafeBytes { src in
            out.withUnsafeMutableBufferPointer { dequantizeRow(type: c.type, src.baseAddress!, into: $0.baseAddress!, count: c.type.blockSize) }
        }
        for (index, value) in c.expected {
            #expect(out[index] == value, "element \(index)")
        }
    }

    @Test("Q4_K scale/min unpacking", arguments: [
        (0, UInt8(0x3F), UInt8(0x01)), (3, 0x04, 0x08), (4, 0x1F, 0x3E), (7, 0x30, 0x0F),
    ])
    func q4KScaleMin(j: Int, scale: UInt8, min: UInt8) {
        // bytes 0-3: scales 0-3 (+ top bits of scales 4-7); 4-7: mins 0-3 (+ top bits of mins
        // 4-7); 8-11: low nibble = scale 4-7 low bits, high nibble = min 4-7 low bits.
        let packed: [UInt8] = [0x7F, 0x00, 0x00, 0xC4, 0xC1, 0xC0, 0x00, 0x08, 0xEF, 0x00, 0x00, 0xF0]
        packed.withUnsafeBytes { raw in
            let (s, m) = Q4_K.scaleMin(j, raw.baseAddress!)
            #expect(s == scale)
            #expect(m == min)
        }
    }
}
