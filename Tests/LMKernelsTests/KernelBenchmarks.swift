import TestSupport
import Foundation
import LMGGUF
import LMKernels
import Testing

// Kernel throughput, run only with LMSESSION_BENCH=1 in release builds:
//   LMSESSION_BENCH=1 swift test -c release --filter KernelBenchmarks
// Prints GB/s of weights streamed by matVec, tokens/s of matMul on a 512-token batch, a whole
// SmolLM2-135M token's matmuls, and the pool's dispatch cost. Figures are best-of-N wall-clock;
// [cpu ...] repeats the single-thread figure per CPU-second of the thread, which other processes
// sharing the 2 cores distort less.

private let benchEnabled = ProcessInfo.processInfo.environment["LMSESSION_BENCH"] == "1"

/// Weights of `type` `[rows, cols]` with random quant bits and sane scales, filled quickly.
private final class BenchMatrix: @unchecked Sendable {   // immutable after init; read by the pool
    let matrix: WeightMatrix
    private let storage: UnsafeMutableRawPointer

    init(_ type: GGMLType, rows: Int, cols: Int, seed: UInt64) {
        let bytes = rows * (cols / type.blockSize) * type.bytesPerBlock
        storage = .allocate(byteCount: bytes + 8, alignment: 64)
        var rng = SplitMix64(seed: seed)
        let words = storage.bindMemory(to: UInt64.self, capacity: bytes / 8 + 1)
        for i in 0..<(bytes / 8 + 1) { words[i] = rng.next() }
        let blocks = bytes / type.bytesPerBlock
        let half = floatToHalf(0.01), halfMin = floatToHalf(0.002)
        for b in 0..<blocks {
            let block = storage + b * type.bytesPerBlock
            switch type {
            case .f32: block.storeBytes(of: Float(0.01), as: Float.self)
            case .f16, .bf16: block.storeBytes(of: half, as: UInt16.self)
            case .q8_K: block.storeBytes(of: Float(0.01), as: Float.self)
            default:
                let fields = DotReference.scaleFields(type)
                block.storeBytes(of: half, toByteOffset: fields[0], as: UInt16.self)
                if fields.count > 1 { block.storeBytes(of: halfMin, toByteOffset: fields[1], as: UInt16.self) }
            }
        }
        matrix = WeightMatrix(type: type, data: UnsafeRawPointer(storage), rows: rows, cols: cols)
    }

    var byteCount: Int { matrix.rows * matrix.rowBytes }

    deinit { storage.deallocate() }
}

/// A benchmark's inputs: weights of shape `s` and `tokens` random activation rows, their quantization scratch
/// and an output of `[tokens, s.rows]`.
private struct BenchInputs {
    let matrix: BenchMatrix
    let x: [Float]
    let scratch: QuantizedActivations
    var y: [Float]

    init(_ s: BenchShape, tokens: Int, seed: UInt64) {
        matrix = BenchMatrix(s.type, rows: s.rows, cols: s.cols, seed: seed)
        var rng = SplitMix64(seed: seed + 1)
        x = DotReference.randomActivations(tokens * s.cols, rng: &rng)
        scratch = QuantizedActivations(maxTokens: tokens, maxCols: s.cols)
        y = [Float](repeating: 0, count: tokens * s.rows)
    }
}

/// Wall-clock seconds of `body`, or with `cpu` the calling thread's CPU seconds: single-threaded
/// figures use CPU time so that other processes sharing the 2 cores do not distort them.
private func seconds(cpu: Bool = false, _ body: () -> Void) -> Double {
    func now() -> Double {
        var ts = timespec()
        clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
    let start = now()
    body()
    return now() - start
}

/// Best time of `repeats` runs of `body`, each run repeated until it lasts ~20 ms.
private func best(repeats: Int = 7, cpu: Bool = false, _ body: () -> Void) -> Double {
    var inner = 1
    while seconds(cpu: cpu, { for _ in 0..<inner { body() } }) < 0.02 && inner < 1 << 20 { inner *= 2 }
    var bestTime = Double.infinity
    for _ in 0..<repeats {
        bestTime = min(bestTime, seconds(cpu: cpu) { for _ in 0..<inner { body() } } / Double(inner))
    }
    return bestTime
}

private func format(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }

struct BenchShape: CustomTestStringConvertible, Sendable {
    let type: GGMLType
    let rows: Int
    let cols: Int
    var testDescription: String { "\(type) \(rows)x\(cols)" }
}

@Suite(.enabled(if: benchEnabled), .serialized) struct KernelBenchmarks {
    static let shapes: [BenchShape] = [
        // SmolLM2-135M (Q4_1 layers, Q8_0 output).
        .init(type: .q4_1, rows: 576, cols: 576), .init(type: .q4_1, rows: 1536, cols: 576),
        .init(type: .q4_1, rows: 576, cols: 1536), .init(type: .q8_0, rows: 49152, cols: 576),
        // Gemma 3 270M (n_embd 640, n_ff 2048; Q5_0/Q8_0 where 640 is not whole K-blocks).
        .init(type: .q5_0, rows: 2048, cols: 640), .init(type: .q8_0, rows: 1024, cols: 640),
        .init(type: .q4_K, rows: 640, cols: 2048), .init(type: .q6_K, rows: 640, cols: 2048),
        .init(type: .q4_0, rows: 1536, cols: 576), .init(type: .f16, rows: 576, cols: 576),
        .init(type: .q8_0, rows: 262_144, cols: 640),
    ]

    @Test func kernelSetInUse() {
        print("kernel set: \(KernelSet.active) (supported: \(KernelSet.supported.map(\.rawValue).joined(separator: ", ")); own kernels for \(KernelSet.active.ownTypes.map(\.description).joined(separator: " ")))")
        #expect(KernelSet.active.isSupported)
    }

    @Test(arguments: shapes)
    func matVecWeightThroughput(_ s: BenchShape) {
        var inputs = BenchInputs(s, tokens: 1, seed: 1)
        let m = inputs.matrix, x = inputs.x, scratch = inputs.scratch
        for set in KernelSet.supported {
            // The layout the model loads for this set (decode tiles where the set has them).
            let w = set.prepare(m.matrix)
            var line = "matVec \(s.type) \(s.rows)x\(s.cols) \(set)\(w.tiles == nil ? "" : " tiles"):"
            for threads in [1, 2] {
                let pool = ThreadPool(threads: threads)
                inputs.y.withUnsafeMutableBufferPointer { out in
                    let run = { MatMul.multiply(w, x: x, nTokens: 1, into: out.baseAddress!, scratch: scratch, pool: pool, kernels: set) }
                    let wall = best(run)
                    line += "  \(threads)T \(format(Double(m.byteCount) / wall / 1e9, 2)) GB/s (\(format(wall * 1e6)) us)"
                    if threads == 1 { line += " [cpu \(format(Double(m.byteCount) / best(cpu: true, run) / 1e9, 2)) GB/s]" }
                }
            }
            print(line)
        }
        #expect(!inputs.y.contains { !$0.isFinite })
    }

    @Test(arguments: [BenchShape(type: .q4_1, rows: 1536, cols: 576), BenchShape(type: .q4_1, rows: 576, cols: 1536),
                      BenchShape(type: .q8_0, rows: 1024, cols: 640), BenchShape(type: .q4_K, rows: 640, cols: 2048),
                      BenchShape(type: .q6_K, rows: 640, cols: 2048), BenchShape(type: .q5_0, rows: 2048, cols: 640)])
    func matMulPrefillThroughput(_ s: BenchShape) {
        let n = 512
        var inputs = BenchInputs(s, tokens: n, seed: 3)
        let m = inputs.matrix, x = inputs.x, scratch = inputs.scratch
        for set in KernelSet.supported {
            let w = set.prepare(m.matrix)
            var line = "matMul \(s.type) \(s.rows)x\(s.cols) x \(n) tokens \(set)\(w.tiles == nil ? "" : " tiles"):"
            for threads in [1, 2] {
                let pool = ThreadPool(threads: threads)
                inputs.y.withUnsafeMutableBufferPointer { out in
                    let run = { MatMul.multiply(w, x: x, nTokens: n, into: out.baseAddress!, scratch: scratch, pool: pool, kernels: set) }
                    let wall = best(repeats: 3, run)
                    line += "  \(threads)T \(format(Double(n) / wall, 0)) tok/s (\(format(Double(n * s.rows * s.cols) / wall / 1e9)) GMAC/s)"
                    if threads == 1 { line += " [cpu \(format(Double(n) / best(repeats: 3, cpu: true, run), 0)) tok/s]" }
                }
            }
            print(line)
        }
        #expect(!inputs.y.contains { !$0.isFinite })
    }

    /// Batched decode: 8 tokens' rows computed as one-token products (`independentRows`), as a decode step of 8
    /// sessions runs them, on Llama 3.2 1B's shapes.
    @Test(arguments: [BenchShape(type: .q4_K, rows: 8192, cols: 2048), BenchShape(type: .q4_K, rows: 2048, cols: 8192),
                      BenchShape(type: .q6_K, rows: 8192, cols: 2048)])
    func batchedDecodeThroughput(_ s: BenchShape) {
        let n = 8
        var inputs = BenchInputs(s, tokens: n, seed: 5)
        let m = inputs.matrix, x = inputs.x, scratch = inputs.scratch
        let set = KernelSet.active, w = set.prepare(m.matrix)
        var line = "matVecs \(s.type) \(s.rows)x\(s.cols) x \(n) tokens \(set):"
        for threads in [1, 2] {
            let pool = ThreadPool(threads: threads)
            inputs.y.withUnsafeMutableBufferPointer { out in
                let run = { MatMul.multiply(w, x: x, nTokens: n, into: out.baseAddress!, scratch: scratch, pool: pool, kernels: set,
                                            independentRows: true) }
                line += "  \(threads)T \(format(best(repeats: 5, run) * 1e3, 3)) ms"
                if threads == 1 { line += " [cpu \(format(best(repeats: 5, cpu: true, run) * 1e3, 3)) ms]" }
            }
        }
        print(line)
        #expect(!inputs.y.contains { !$0.isFinite })
    }

    /// All matmuls of one SmolLM2-135M token (30 layers of Q4_1 q/k/v/o/gate/up/down, Q8_0
    /// output head), each layer in its own memory as in the model: decode tokens/s bounded by
    /// the matmuls alone, and prefill tokens/s over a 512-token batch (output head excluded,
    /// as prefill only needs the last token's logits).
    @Test func smolLM2TokenMatmuls() {
        let layerShapes = [(576, 576), (192, 576), (192, 576), (576, 576), (1536, 576), (1536, 576), (576, 1536)]
        var layers: [BenchMatrix] = []
        for l in 0..<30 {
            for (i, (r, c)) in layerShapes.enumerated() { layers.append(BenchMatrix(.q4_1, rows: r, cols: c, seed: UInt64(l * 10 + i))) }
        }
        let output = BenchMatrix(.q8_0, rows: 49152, cols: 576, seed: 999)
        let n = 512
        var rng = SplitMix64(seed: 5)
        let x = DotReference.randomActivations(n * 1536, rng: &rng)
        let scratch = QuantizedActivations(maxTokens: n, maxCols: 1536)
        let y = UnsafeMutablePointer<Float>.allocate(capacity: n * 49152)
        defer { y.deallocate() }
        var line = "SmolLM2 matmuls per token:"
        for threads in [1, 2] {
            let pool = ThreadPool(threads: threads)
            let decode = { (cpu: Bool) in
                best(repeats: 5, cpu: cpu) {
                    for w in layers { MatMul.multiply(w.matrix, x: x, nTokens: 1, into: y, scratch: scratch, pool: pool) }
                    MatMul.multiply(output.matrix, x: x, nTokens: 1, into: y, scratch: scratch, pool: pool)
                }
            }
            let prefill = { (cpu: Bool) in
                best(repeats: 1, cpu: cpu) {
                    for w in layers { MatMul.multiply(w.matrix, x: x, nTokens: n, into: y, scratch: scratch, pool: pool) }
                }
            }
            line += "  \(threads)T decode \(format(1 / decode(false))) tok/s, prefill \(format(Double(n) / prefill(false))) tok/s"
            if threads == 1 {
                line += " [cpu: decode \(format(1 / decode(true))), prefill \(format(Double(n) / prefill(true)))]"
            }
        }
        print(line)
        #expect(y[0].isFinite)
    }

    @Test func threadPoolDispatchCost() {
        let pool = ThreadPool(threads: 2)
        let t = best { pool.run { _, _ in } }
        let tiny = best { pool.parallelFor(0..<64, alignment: 16) { _ in } }
        print("ThreadPool(2) empty run: \(format(t * 1e6, 2)) us, parallelFor: \(format(tiny * 1e6, 2)) us")
        #expect(t < 1e-3)
    }
}
