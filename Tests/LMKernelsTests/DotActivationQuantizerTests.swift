import Foundation
import LMKernels
import Testing

/// ggml's reference activation quantizers, written out one value at a time.
enum QuantizerReference {
    /// `quantize_row_q8_0_ref` / `_q8_1_ref` for one block of 32: (quants, d as f16, s as f16).
    static func q8Block(_ x: ArraySlice<Float>) -> (q: [Int8], d: Float, s: Float) {
        let amax = x.reduce(Float(0)) { max($0, abs($1)) }
        let d = amax / 127
        let id: Float = d != 0 ? 1 / d : 0
        let q = x.map { Int8(($0 * id).rounded(.toNearestOrAwayFromZero)) }
        let sum = q.reduce(0) { $0 + Int($1) }
        return (q, Float(Float16(d)), Float(Float16(Float(sum) * d)))
    }

    /// `quantize_row_q8_K_ref` for one block of 256: (quants, d, bsums).
    static func q8KBlock(_ x: ArraySlice<Float>) -> (q: [Int8], d: Float, bsums: [Int16]) {
        var amax: Float = 0, maxValue: Float = 0
        for v in x where abs(v) > amax { amax = abs(v); maxValue = v }
        if amax == 0 { return ([Int8](repeating: 0, count: 256), 0, [Int16](repeating: 0, count: 16)) }
        let iscale = -127 / maxValue
        let q = x.map { Int8(min(127, Int(($0 * iscale).rounded(.toNearestOrEven)))) }
        let bsums = (0..<16).map { j in Int16(q[(16 * j)..<(16 * j + 16)].reduce(0) { $0 + Int($1) }) }
        return (q, 1 / iscale, bsums)
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
                    let ref = QuantizerReference.q8Block(c.values[start..<(start + 32)])
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

    @Test func f32FormatKeepsTheFloatsUnchanged() {
        let values: [Float] = [1.5, -2.25, 0, 3e-7, 1e9]
        let x = QuantizedActivations(maxTokens: 1, maxCols: 5)
        x.quantize(values, nTokens: 1, cols: 5, format: .f32)
        #expect((0..<5).map { x.dequantized(token: 0, $0) } == values)
    }
}
