import LMGGUF
import Testing

// Independent scalar references for the kernel tests: ggml's block layouts decoded one value at
// a time in Double, and random but well-formed weight rows.

/// Deterministic random numbers (SplitMix64) so failures reproduce.
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

enum DotReference {
    static func half(_ bits: UInt16) -> Double { Double(Float16(bitPattern: bits)) }
    static func halfBits(_ x: Float) -> UInt16 { Float16(x).bitPattern }

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

    /// Row `bytes` of `type` decoded to `cols` Doubles, one value at a time from ggml's layouts.
    static func dequantize(_ type: GGMLType, _ bytes: [UInt8], cols: Int) -> [Double] {
        var out = [Double](repeating: 0, count: cols)
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
        func i8(_ at: Int) -> Double { Double(Int8(bitPattern: bytes[at])) }
        let bs = type.blockSize, bpb = type.bytesPerBlock
        for b in 0..<(cols / bs) {
            let o = b * bpb, y = b * bs
            switch type {
            case .f32: out[y] = Double(Float(bitPattern: u32(o)))
            case .f16: out[y] = half(u16(o))
            case .bf16: out[y] = Double(Float(bitPattern: UInt32(u16(o)) << 16))
            case .q4_0, .q4_1:
                let d = half(u16(o)), m = type == .q4_1 ? half(u16(o + 2)) : 0
                let qs = o + (type == .q4_1 ? 4 : 2)
                for j in 0..<16 {
                    let lo = Double(bytes[qs + j] & 0x0f), hi = Double(bytes[qs + j] >> 4)
                    out[y + j] = type == .q4_0 ? (lo - 8) * d : lo * d + m
                    out[y + j + 16] = type == .q4_0 ? (hi - 8) * d : hi * d + m
                }
            case .q5_0, .q5_1:
                let d = half(u16(o)), m = type == .q5_1 ? half(u16(o + 2)) : 0
                let qhAt = o + (type == .q5_1 ? 4 : 2)
                let qh = u32(qhAt)
                for j in 0..<16 {
                    let lo = Double(UInt32(bytes[qhAt + 4 + j] & 0x0f) | ((qh >> UInt32(j)) & 1) << 4)
                    let hi = Double(UInt32(bytes[qhAt + 4 + j] >> 4) | ((qh >> UInt32(j + 16)) & 1) << 4)
                    out[y + j] = type == .q5_0 ? (lo - 16) * d : lo * d + m
                    out[y + j + 16] = type == .q5_0 ? (hi - 16) * d : hi * d + m
                }
            case .q8_0, .q8_1:
                let d = half(u16(o)), qs = o + (type == .q8_1 ? 4 : 2)
                for j in 0..<32 { out[y + j] = i8(qs + j) * d }
            case .q8_K:
                let d = Double(Float(bitPattern: u32(o)))
                for j in 0..<256 { out[y + j] = i8(o + 4 + j) * d }
            case .q4_K, .q5_K:
                let d = half(u16(o)), dmin = half(u16(o + 2))
                let sc = o + 4, qh = o + 16, qs = o + (type == .q5_K ? 48 : 16)
                for g in 0..<8 {
                    let (s, m) = scaleMin(bytes, sc, g)
                    for l in 0..<32 {
                        let byte = bytes[qs + 32 * (g / 2) + l]
                        var q = Int(g % 2 == 0 ? byte & 0x0f : byte >> 4)
                        if type == .q5_K, bytes[qh + l] & (1 << g) != 0 { q += 16 }
                        out[y + 32 * g + l] = d * Double(s) * Double(q) - dmin * Double(m)
                    }
                }
            case .q6_K:
                let d = half(u16(o + 208))
                for n in 0..<2 {
                    for l in 0..<32 {
                        let ql0 = Int(bytes[o + 64 * n + l]), ql1 = Int(bytes[o + 64 * n + 32 + l])
                        let h = Int(bytes[o + 128 + 32 * n + l])
                        let q = [(ql0 & 15) | (h & 3) << 4, (ql1 & 15) | ((h >> 2) & 3) << 4,
                                 (ql0 >> 4) | ((h >> 4) & 3) << 4, (ql1 >> 4) | ((h >> 6) & 3) << 4]
                        for k in 0..<4 {
                            let s = i8(o + 192 + 8 * n + 2 * k + l / 16)
                            out[y + 128 * n + 32 * k + l] = d * s * Double(q[k] - 32)
                        }
                    }
                }
            }
        }
        return out
    }

    /// ggml's `get_scale_min_k4` on the 12 bytes at `at`.
    static func scaleMin(_ b: [UInt8], _ at: Int, _ j: Int) -> (Int, Int) {
        if j < 4 { return (Int(b[at + j] & 63), Int(b[at + j + 4] & 63)) }
        return (Int((b[at + j + 4] & 0x0f) | ((b[at + j - 4] >> 6) << 4)),
                Int((b[at + j + 4] >> 4) | ((b[at + j] >> 6) << 4)))
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
    /// Pins the scalar reference itself on hand-built blocks, so the kernel tests compare against
    /// something known to be right.
    @Test func referenceDecodesHandBuiltQ4_1AndQ6_KBlocks() {
        // Q4_1: d = 0.5, m = -1, byte j = (j & 15) | ((15 - j) << 4).
        var q41: [UInt8] = [0x00, 0x38, 0x00, 0xbc]
        q41 += (0..<16).map { UInt8($0 & 15) | UInt8((15 - $0) << 4) }
        let v = DotReference.dequantize(.q4_1, q41, cols: 32)
        #expect(v[0] == -1 && v[3] == 0.5 && v[16] == 6.5 && v[31] == -1)

        // Q6_K with every quant 33 (value +1 after the -32 offset), scales = index, d = 1.
        var q6 = [UInt8](repeating: 0, count: 210)
        for l in 0..<128 { q6[l] = 0x11 }          // low nibbles 1
        for l in 0..<64 { q6[128 + l] = 0xaa }     // high bits 2 -> +32
        for s in 0..<16 { q6[192 + s] = UInt8(s) }
        q6[208] = 0x00; q6[209] = 0x3c             // f16 1.0
        let w = DotReference.dequantize(.q6_K, q6, cols: 256)
        #expect(w[0] == 0 && w[16] == 1 && w[255] == 15 && w[130] == 8)
    }
}
