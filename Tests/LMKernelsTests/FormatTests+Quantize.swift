import TestSupport
import Testing
import Foundation
import LMGGUF
import LMKernels

/// The activation quantizers Q8_0 / Q8_1 / Q8_K against gguf-py (Q8_0) and numpy ports of
/// ggml's `quantize_row_q8_1_ref` / `quantize_row_q8_K_ref`, plus hand cases.
struct QuantizeFormatTests {
    typealias Quantizer = @Sendable (UnsafePointer<Float>, UnsafeMutableRawPointer, Int) -> Void

    static let quantizers: [(GGMLType, Quantizer)] = [
        (.q8_0, { quantizeRowQ8_0($0, into: $1, count: $2) }),
        (.q8_1, { quantizeRowQ8_1($0, into: $1, count: $2) }),
        (.q8_K, { quantizeRowQ8_K($0, into: $1, count: $2) }),
    ]

    static func quantize(_ type: GGMLType, _ x: [Float]) -> [UInt8] {
        let quantizer = quantizers.first { $0.0 == type }!.1
        var out = [UInt8](repeating: 0xAA, count: x.count / type.blockSize * type.bytesPerBlock)
        x.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBytes { quantizer(src.baseAddress!, $0.baseAddress!, x.count) }
        }
        return out
    }

    @Test("quantizer output equals the reference bytes", arguments: [GGMLType.q8_0, .q8_1, .q8_K])
    func quantizerMatchesFixture(type: GGMLType) throws {
        let input = try Fixture.floats("quantize/\(type).input.bin")
        let expected = Array(try Fixture.data("quantize/\(type).output.bin"))
        let ours = Self.quantize(type, input)
        #expect(ours.count == expected.count)
        let bad = ours.indices.filter { $0 < expected.count && ours[$0] != expected[$0] }
        let mismatchCount = bad.count
        #expect(mismatchCount == 0, "bytes differ; first at \(bad.first ?? -1) (block \((bad.first ?? 0) / type.bytesPerBlock))")
    }

    /// Dequantizing what was quantized gives each input back within half a step (d / 2), with
    /// d the scale actually stored (f16 for Q8_0/Q8_1, so allow its rounding too).
    @Test("quantize then dequantize stays within half a step", arguments: [GGMLType.q8_0, .q8_1, .q8_K])
    func roundTrip(type: GGMLType) {
        var rng = SplitMix64(seed: 7)
        var x: [Float] = []
        for i in 0..<(4 * 256) {
            let unit = Float(rng.nextUnit() * 2 - 1)
            x.append(unit * Float(1 << (i / 256)))
        }
        let bytes = Self.quantize(type, x)
        var y = [Float](repeating: .nan, count: x.count)
        bytes.withUnsafeBytes { src in
            y.withUnsafeMutableBufferPointer { dequantizeRow(type: type, src.baseAddress!, into: $0.baseAddress!, count: x.count) }
        }
        for b in 0..<(x.count / type.blockSize) {
            let block = b * type.blockSize..<((b + 1) * type.blockSize)
            let amax = block.map { abs(x[$0]) }.max()!
            let step = amax / 127
            for i in block {
                #expect(abs(y[i] - x[i]) <= step * 0.5 + amax * 0x1p-10, "element \(i)")
            }
        }
    }

    @Test func q8KRoundsTiesToEvenAndSumsGroups() {
        // max = -127 gives iscale = 1, so 2.5 / 3.5 / -0.5 are exact ties: ggml's nearest_int
        // rounds them to even, unlike Q8_0's roundf.
        var x = [Float](repeating: 0, count: 256)
        x[0] = -127; x[1] = 2.5; x[2] = 3.5; x[3] = -0.5; x[16] = 100
        let bytes = Self.quantize(.q8_K, x)
        bytes.withUnsafeBytes { raw in
            #expect(raw.loadUnaligned(fromByteOffset: Q8_K.dOffset, as: Float.self) == 1)
            let qs = (0..<4).map { raw.load(fromByteOffset: Q8_K.qsOffset + $0, as: Int8.self) }
            #expect(qs == [-127, 2, 4, 0])
            #expect(raw.loadUnaligned(fromByteOffset: Q8_K.bsumsOffset, as: Int16.self) == -121)
            #expect(raw.loadUnaligned(fromByteOffset: Q8_K.bsumsOffset + 2, as: Int16.self) == 100)
        }
        let q80 = Self.quantize(.q8_0, Array(x[0..<32]))
        #expect(q80[Q8_0.qsOffset + 1] == 3 && q80[Q8_0.qsOffset + 2] == 4)   // roundf: away from zero
    }

    @Test("an all-zero block quantizes to all-zero bytes", arguments: [GGMLType.q8_0, .q8_1, .q8_K])
    func zeroBlock(type: GGMLType) {
        #expect(Self.quantize(type, [Float](repeating: 0, count: type.blockSize)).allSatisfy { $0 == 0 })
    }

    @Test func q8_1StoresScaledSumOfCodes() {
        let x = (0..<32).map { Float($0) - 10 }                  // amax 21, d = 21/127
        let bytes = Self.quantize(.q8_1, x)
        bytes.withUnsafeBytes { raw in
            let qs = (0..<32).map { Int(raw.load(fromByteOffset: Q8_1.qsOffset + $0, as: Int8.self)) }
            #expect(qs.last == 127)
            let base = raw.baseAddress!
            let d = Float(21) / 127
            #expect(base.loadHalf(fromByteOffset: Q8_1.dOffset) == halfToFloat(floatToHalf(d)))
            let sum = Float(qs.reduce(0, +))
            #expect(base.loadHalf(fromByteOffset: Q8_1.sOffset) == halfToFloat(floatToHalf(sum * d)))
        }
    }

    @Test func nonFiniteInputDoesNotTrap() {
        var x = [Float](repeating: 1, count: 256)
        x[3] = .nan; x[9] = .infinity
        for (type, _) in Self.quantizers { _ = Self.quantize(type, x) }
    }
}

