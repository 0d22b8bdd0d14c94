import Foundation
import TestSupport
import LMGGUF
import LMKernels
import Testing

/// A random weight matrix `[rows, cols]` of one type, with its Double reference values.
struct RandomMatrix {
    let type: GGMLType
    let rows: Int
    let cols: Int
    let bytes: [UInt8]
    /// `[rows][cols]` reference values (`WeightMatrix.dequantizeRow`).
    let values: [[Double]]

    init(_ type: GGMLType, rows: Int, cols: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var bytes: [UInt8] = []
        var values: [[Double]] = []
        for _ in 0..<rows { bytes += DotReference.randomRow(type, cols: cols, rng: &rng) }
        var decoded = [Float](repeating: 0, count: cols)
        bytes.withUnsafeBytes { raw in
            let w = WeightMatrix(type: type, data: raw.baseAddress!, rows: rows, cols: cols)
            for r in 0..<rows {
                w.dequantizeRow(r, into: &decoded)   // the formats' reference dequantization
                values.append(decoded.map(Double.init))
            }
        }
        self.type = type
        self.rows = rows
        self.cols = cols
        self.bytes = bytes
        self.values = values
    }

    func withMatrix<R>(_ body: (WeightMatrix) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { raw in
            try body(WeightMatrix(type: type, data: raw.baseAddress!, rows: rows, cols: cols))
        }
    }

    /// Reference `Σ w[r, c] * x̂[t, c]` in Double against the activations as quantized
    /// (`x̂ = d * q`), plus ggml's Q8_1 min term `m * s` in place of `m * d * Σq`, and the bound
    /// `Σ |w * x̂|` that scales the tolerance.
    func reference(row r: Int, token t: Int, _ x: QuantizedActivations) -> (value: Double, magnitude: Double) {
        var sum = 0.0, magnitude = 0.0
        for c in 0..<cols {
            let p = values[r][c] * Double(x.dequantized(token: t, c))
            sum += p
            magnitude += abs(p)
        }
        if x.format == .q8_1 {
            // Weight value q*d + m meets activation block b as d*d_a*Σq*q_a + m*s_b in ggml.
            let bpb = type.bytesPerBlock
            for b in 0..<(cols / 32) {
                let o = r * (cols / 32) * bpb + b * bpb
                let m = DotReference.half(UInt16(bytes[o + 2]) | UInt16(bytes[o + 3]) << 8)
                var qsum = 0.0
                for j in 0..<32 { qsum += Double(x.quant(token: t, 32 * b + j)) }
                let exact = m * Double(x.scale(token: t, block: b)) * qsum
                sum += m * Double(x.blockSum(token: t, block: b)) - exact
            }
        }
        return (sum, magnitude)
    }
}

struct KernelCase: CustomTestStringConvertible, Sendable {
    let type: GGMLType
    let cols: Int
    var kernels: KernelSet = .portable
    var testDescription: String { "\(type) x \(cols) (\(kernels))" }
}

let typeCases: [KernelCase] = [
    .init(type: .q4_0, cols: 576), .init(type: .q4_1, cols: 576), .init(type: .q4_1, cols: 1536),
    .init(type: .q5_0, cols: 640), .init(type: .q5_1, cols: 576), .init(type: .q8_0, cols: 640),
    .init(type: .q4_K, cols: 2048), .init(type: .q5_K, cols: 512), .init(type: .q6_K, cols: 2048),
    .init(type: .f32, cols: 37), .init(type: .f16, cols: 600), .init(type: .bf16, cols: 72),
]

/// Every type case under the portable kernels, and under each other kernel set this CPU runs for
/// the types that set has kernels of its own for.
let kernelCases: [KernelCase] = typeCases + KernelSet.supported.filter { $0 != .portable }.flatMap { set in
    typeCases.filter { set.ownTypes.contains($0.type) }.map { KernelCase(type: $0.type, cols: $0.cols, kernels: set) }
}

@Suite struct DotKernelTests {
    @Test(arguments: kernelCases)
    func matVecMatchesTheDoubleReferenceOnQuantizedActivations(_ c: KernelCase) {
        let rows = 13
        let m = RandomMatrix(c.type, rows: rows, cols: c.cols, seed: UInt64(c.type.rawValue) * 7919 + UInt64(c.cols))
        var rng = SplitMix64(seed: 42)
        let input = DotReference.randomActivations(c.cols, rng: &rng)
        let x = QuantizedActivations(maxTokens: 1, maxCols: c.cols)
        x.quantize(input, nTokens: 1, cols: c.cols, format: activationFormat(for: c.type))
        var y = [Float](repeating: .nan, count: rows)
        m.withMatrix { w in MatMul.matVec(w, x, into: &y, rows: 0..<rows, kernels: c.kernels) }
        for r in 0..<rows {
            let (expected, magnitude) = m.reference(row: r, token: 0, x)
            #expect(abs(Double(y[r]) - expected) <= 2e-6 * magnitude + 1e-6,
                    "row \(r): got \(y[r]), expected \(expected) (Σ|wx| \(magnitude))")
        }
    }

    @Test(arguments: [
        (GGMLType.q4_0, ActivationFormat.q8_0), (.q4_1, .q8_1), (.q5_0, .q8_0), (.q5_1, .q8_1),
        (.q8_0, .q8_0), (.q4_K, .q8_K), (.q5_K, .q8_K), (.q6_K, .q8_K), (.f32, .f32), (.f16, .f32),
    ])
    func weightTypesPairWithGgmlsActivationFormat(_ type: GGMLType, _ expected: ActivationFormat) {
        #expect(activationFormat(for: type) == expected)
    }

    /// The activations are quantized once for whichever kernels run, so every set must pair a
    /// type with the same format (and the quantizer writes every layout a set reads).
    @Test(arguments: GGMLType.allCases.filter(\.isTensorType))
    func everyKernelSetPairsATypeWithTheSameActivationFormat(_ type: GGMLType) {
        let x = QuantizedActivations(maxTokens: 1, maxCols: 256)
        for set in KernelSet.supported {
            x.quantize([Float](repeating: 0.5, count: 256), nTokens: 1, cols: 256, format: activationFormat(for: type))
            let w = [UInt8](repeating: 0, count: 256 / type.blockSize * type.bytesPerBlock)
            var y: Float = 0
            w.withUnsafeBytes { raw in
                MatMul.matVec(WeightMatrix(type: type, data: raw.baseAddress!, rows: 1, cols: 256), x, into: &y, rows: 0..<1, kernels: set)
            }
            #expect(y == 0 || type == .f16 || type == .bf16 || type == .f32, "\(set): zero weights give \(y)")
        }
    }

    /// The fast kernels must be what a plain build runs: on a CPU that reports AVX2 (and FMA,
    /// F16C, BMI2) in /proc/cpuinfo, the active set is AVX2, or AVX-512 VNNI where it also reports
    /// AVX-512 F, VL, BW and VNNI, unless the environment asks for another.
    @Test func theActiveSetIsTheFastestTheCPUReports() throws {
        #if os(Linux) && arch(x86_64)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
        let hasAVX2 = ["avx2", "fma", "f16c", "bmi2"].allSatisfy(flags.contains)
        let hasVNNI = hasAVX2 && ["avx512f", "avx512vl", "avx512bw", "avx512_vnni"].allSatisfy(flags.contains)
        #expect(KernelSet.avx2.isSupported == hasAVX2)
        #expect(KernelSet.avx512vnni.isSupported == hasVNNI)
        if ProcessInfo.processInfo.environment["LMSESSION_KERNELS"] == nil {
            #expect(KernelSet.active == (hasVNNI ? .avx512vnni : hasAVX2 ? .avx2 : .portable))
        }
        #endif
        #expect(KernelSet.portable.isSupported)
        #expect(KernelSet.supported.contains(KernelSet.active))
    }

    @Test func matVecWritesOnlyTheRequestedRows() {
        let m = RandomMatrix(.q4_1, rows: 8, cols: 64, seed: 3)
        var rng = SplitMix64(seed: 5)
        let x = QuantizedActivations(maxTokens: 1, maxCols: 64)
        x.quantize(DotReference.randomActivations(64, rng: &rng), nTokens: 1, cols: 64, format: .q8_1)
        var y = [Float](repeating: -7, count: 8)
        m.withMatrix { w in MatMul.matVec(w, x, into: &y, rows: 2..<5) }
        #expect(y[0] == -7 && y[1] == -7 && y[5] == -7 && y[7] == -7)
        #expect(y[2] != -7 && y[3] != -7 && y[4] != -7)
    }

    @Test func f32MatVecMatchesADoubleDotProduct() {
        let rows = 5, cols = 43
        var rng = SplitMix64(seed: 11)
        let w = (0..<(rows * cols)).map { _ in Float.random(in: -1...1, using: &rng) }
        let x = (0..<cols).map { _ in Float.random(in: -1...1, using: &rng) }
        var y = [Float](repeating: 0, count: rows)
        MatMul.matVecF32(w, cols: cols, x: x, into: &y, rows: 0..<rows)
        for r in 0..<rows {
            let expected = (0..<cols).reduce(0.0) { $0 + Double(w[r * cols + $1]) * Double(x[$1]) }
            #expect(abs(Double(y[r]) - expected) < 1e-5)
        }
    }
}
