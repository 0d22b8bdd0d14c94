import TestSupport
import LMGGUF
import LMKernels
import Testing

// Fixtures for the kernel tests: random but well-formed weight rows and activations, and
// hand-built blocks whose dot products are known in closed form.


enum DotReference {
    static func half(_ bits: UInt16) -> Double { Double(halfToFloat(bits)) }
    static func halfBits(_ x: Float) -> UInt16 { floatToHalf(x) }

    /// Offsets of the f16 (or, for Q8_K, f32) scale fields inside one block.
    static func scaleFields(_ type: GGMLType) -> [Int] {
        switch type {
        case .q4_0, .q5_0, .q8_0: [0]
        case .q4_1, .q5_1, .q8_1, .q4_K, .q5_K: [0, 2]
        case .q6_K: [208]
        case .q8_K, .f32, .f16, .bf16: []
        }
    }

    /// A row of `cols` random weights of `type` with sane scales (small positive `d`, mins in
    /// ±0.1) and random quant bits.
    static func randomRow(_ type: GGMLType, cols: Int, rng: inout SplitMix64) -> [UInt8] {
        let blocks = cols / type.blockSize
        var bytes = (0..<(blocks * type.bytesPerBlock)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        func put16(_ v: UInt16, _ at: Int) { bytes[at] = UInt8(v & 0xff); bytes[at + 1] = UInt8(v >> 8) }
        func put32(_ v: UInt32, _ at: Int) { for k in 0..<4 { bytes[at + k] = UInt8((v >> (8 * UInt32(k))) & 0xff) } }
        for b in 0..<blocks {
            let base = b * type.bytesPerBlock
            switch type {
            case .f32: put32(Float.random(in: -1...1, using: &rng).bitPattern, base)
            case .f16: put16(halfBits(Float.random(in: -1...1, using: &rng)), base)
            case .bf16: put16(UInt16(Float.random(in: -1...1, using: &rng).bitPattern >> 16), base)
            case .q8_K: put32(Float.random(in: 0.0005...0.01, using: &rng).bitPattern, base)
            default:
                let fields = scaleFields(type)
                put16(halfBits(Float.random(in: 0.001...0.03, using: &rng)), base + fields[0])
                if fields.count > 1 {
                    let second: Float = type == .q4_K || type == .q5_K
                        ? Float.random(in: 0.001...0.02, using: &rng) : Float.random(in: -0.1...0.1, using: &rng)
                    put16(halfBits(second), base + fields[1])
                }
            }
        }
        return bytes
    }

    /// Random activations: mostly N(0,1)-like with a few outliers, as hidden states look.
    static func randomActivations(_ count: Int, rng: inout SplitMix64) -> [Float] {
        (0..<count).map { i in
            let u = Float.random(in: -1...1, using: &rng) + Float.random(in: -1...1, using: &rng)
            return i % 97 == 5 ? u * 20 : u
        }
    }
}

@Suite struct DotReferenceTests {
    /// Pins the kernels on hand-built blocks whose products are known in closed form, independent
    /// of any reference decoder.
    @Test func kernelsComputeHandBuiltQ4_1AndQ6_KBlocksExactly() {
        // Q4_1: d = 0.5, m = -1, byte j = (j & 15) | ((15 - j) << 4): Σq = 240. Activations all 1
        // quantize to q = 127 with d_a = f16(1/127) and s = 32, so ggml's dot is
        // 0.5 * d_a * 127 * 240 + (-1) * 32.
        var q41: [UInt8] = [0x00, 0x38, 0x00, 0xbc]
        q41 += (0..<16).map { UInt8($0 & 15) | UInt8((15 - $0) << 4) }
        let dA = Double(halfToFloat(floatToHalf(Float(1) / 127)))
        for set in KernelSet.supported {
            #expect(abs(dot(.q4_1, q41, [Float](repeating: 1, count: 32), set) - (0.5 * dA * 127 * 240 - 32)) < 1e-5, "\(set)")
        }

        // Q6_K with every quant 33 (+1 after the -32 offset), sub-scale j = j, d = 1: with the
        // activation 1 at index 130 (sub-block 8) and 0 elsewhere, the dot is 8 * d_a * 127.
        var q6 = [UInt8](repeating: 0, count: 210)
        for l in 0..<128 { q6[l] = 0x11 }          // low nibbles 1
        for l in 0..<64 { q6[128 + l] = 0xaa }     // high bits 2 -> +32
        for s in 0..<16 { q6[192 + s] = UInt8(s) }
        q6[208] = 0x00; q6[209] = 0x3c             // f16 1.0
        var x = [Float](repeating: 0, count: 256)
        x[130] = 1
        for set in KernelSet.supported {
            #expect(abs(dot(.q6_K, q6, x, set) - 8 * Double(Float(1) / 127 * -1 * -127)) < 1e-5, "\(set)")
        }
    }

    private func dot(_ type: GGMLType, _ block: [UInt8], _ x: [Float], _ kernels: KernelSet) -> Double {
        let a = QuantizedActivations(maxTokens: 1, maxCols: x.count)
        a.quantize(x, nTokens: 1, cols: x.count, format: activationFormat(for: type))
        var y: Float = .nan
        block.withUnsafeBytes { raw in
            MatMul.matVec(WeightMatrix(type: type, data: raw.baseAddress!, rows: 1, cols: x.count), a,
                          into: &y, rows: 0..<1, kernels: kernels)
        }
        return Double(y)
    }
}
