import TestSupport
import Foundation
import LMKernels
import Testing

/// The formats' reference quantizers (ggml's byte layouts), decoded per block.
enum QuantizerReference {
    /// `quantizeRowQ8_0` / `quantizeRowQ8_1` on one block of 32: (quants, d, s).
    static func q8Block(_ x: ArraySlice<Float>, withSum: Bool) -> (q: [Int8], d: Float, s: Float) {
        let input = Array(x)
        var block = [UInt8](repeating: 0, count: 36)
        block.withUnsafeMutableBytes { out in
            if withSum { quantizeRowQ8_1(input, into: out.baseAddress!, count: 32) }
            else { quantizeRowQ8_0(input, into: out.baseAddress!, count: 32) }
        }
        let qs = withSum ? 4 : 2
        return ((0..<32).map { Int8(bitPattern: block[qs + $0]) },
                halfToFloat(UInt16(block[0]) | UInt16(block[1]) << 8),
                withSum ? halfToFloat(UInt16(block[2]) | UInt16(block[3]) << 8) : 0)
    }

    /// `quantizeRowQ8_K` on one block of 256: (quants, d, bsums).
    static func q8KBlock(_ x: ArraySlice<Float>) -> (q: [Int8], d: Float, bsums: [Int16]) {
        let input = Array(x)
        var block = [UInt8](repeating: 0, count: 292)
        block.withUnsafeMutableBytes { out in quantizeRowQ8_K(input, into: out.baseAddress!, count: 256) }
        let d = Float(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(block[$1]) << (8 * UInt32($1)) })
        return ((0..<256).map { Int8(bitPattern: block[4 + $0]) }, d,
                (0..<16).map { Int16(bitPattern: UInt16(block[260 + 2 * $0]) | UInt16(block[261 + 2 * $0]) << 8) })
    }
}

struct QuantizerCase: CustomTestStringConvertible, Sendable {
    let name: String
    let values: [Float]
    var testDescription: String { name }
}

private func quantizerCases() -> [QuantizerCase] {
    var rng = SplitMix64(seed: 77)
    let random = DotReference.randomActivations(512, rng: &rng)
    // Exact halves after scaling by 127/amax: amax 127 makes x/d == x.
    var ties = (0..<512).map { Float($0 % 64) - 31.5 }
    ties[0] = 127
    ties[256] = -127
    let zeros = [Float](repeating: 0, count: 512)
    var negativeMax = random
    negativeMax[3] = -50
    negativeMax[300] = -60
    let tiny = random.map { $0 * 1e-6 }
    return [
        .init(name: "random", values: random), .init(name: "ties", values: ties),
        .init(name: "zeros", values: zeros), .init(name: "negative max", values: negativeMax),
        .init(name: "tiny (subnormal f16 scales)", values: tiny),
    ]
}

@Suite struct DotActivationQuantizerTests {
    @Test(arguments: quantizerCases())
    func q8_0AndQ8_1MatchGgmlsReferenceQuantizer(_ c: QuantizerCase) {
        let x = QuantizedActivations(maxTokens: 2, maxCols: 256)
        for format in [ActivationFormat.q8_0, .q8_1] {
            x.quantize(c.values, nTokens: 2, cols: 256, format: format)
            for t in 0..<2 {
                for b in 0..<8 {
                    let start = t * 256 + 32 * b
                    let ref = QuantizerReference.q8Block(c.values[start..<(start + 32)], withSum: format == .q8_1)
                    #expect(x.scale(token: t, block: b) == ref.d, "\(format) token \(t) block \(b) d")
                    #expect((0..<32).map { x.quant(token: t, 32 * b + $0) } == ref.q, "\(format) token \(t) block \(b)")
                    if format == .q8_1 { #expect(x.blockSum(token: t, block: b) == ref.s, "token \(t) block \(b) s") }
                }
            }
        }
    }

    @Test(arguments: quantizerCases())
    func q8_KMatchesGgmlsReferenceQuantizer(_ c: QuantizerCase) {
        let x = QuantizedActivations(maxTokens: 1, maxCols: 512)
        x.quantize(c.values, nTokens: 1, cols: 512, format: .q8_K)
        for b in 0..<2 {
            let ref = QuantizerReference.q8KBlock(c.values[(256 * b)..<(256 * b + 256)])
            #expect(x.scale(token: 0, block: b) == ref.d, "block \(b) d")
            #expect((0..<256).map { x.quant(token: 0, 256 * b + $0) } == ref.q, "block \(b)")
            #expect((0..<16).map { x.bsum(token: 0, 16 * b + $0) } == ref.bsums, "block \(b) bsums")
        }
    }

    @Test(arguments: [ActivationFormat.q8_0, .q8_1, .q8_K])
    func quantizingAcrossThePoolEqualsQuantizingOnOneThread(_ format: ActivationFormat) {
        let nTokens = 40, cols = 512
        var rng = SplitMix64(seed: 9)
        let x = DotReference.randomActivations(nTokens * cols, rng: &rng)
        let serial = QuantizedActivations(maxTokens: nTokens, maxCols: cols)
        let pooled = QuantizedActivations(maxTokens: nTokens, maxCols: cols)
        serial.quantize(x, nTokens: nTokens, cols: cols, format: format)
        pooled.quantize(x, nTokens: nTokens, cols: cols, format: format, pool: ThreadPool(threads: 2))
        for t in [0, 17, 39] {
            #expect((0..<cols).map { pooled.dequantized(token: t, $0) } == (0..<cols).map { serial.dequantized(token: t, $0) })
            #expect((0..<(cols / format.blockSize)).map { pooled.scale(token: t, block: $0) } != [Float](repeating: 0, count: cols / format.blockSize))
        }
    }

    @Test func f32FormatKeepsTheFloatsUnchanged() {
        let values: [Float] = [1.5, -2.25, 0, 3e-7, 1e9]
        let x = QuantizedActivations(maxTokens: 1, maxCols: 5)
        x.quantize(values, nTokens: 1, cols: 5, format: .f32)
        #expect((0..<5).map { x.dequantized(token: 0, $0) } == values)
    }
}
