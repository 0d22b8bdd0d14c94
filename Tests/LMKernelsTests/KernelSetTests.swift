import Foundation
import LMGGUF
import LMKernels
import TestSupport
import Testing

/// Every kernel set this CPU runs against the portable kernels on real model weights: the rows of
/// each weight type in SmolLM2 and Gemma 3, dotted with the same quantized activations, agree up
/// to Float summation order.
@Suite struct KernelSetTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let model: (name: String, file: String)
        let tensor: String
        var testDescription: String { "\(model.file) \(tensor)" }
    }

    static let cases: [Case] = [
        Case(model: TestModels.smolLM2, tensor: "blk.0.attn_q.weight"),      // Q4_1
        Case(model: TestModels.smolLM2, tensor: "token_embd.weight"),        // Q8_0
        Case(model: TestModels.gemma3, tensor: "blk.0.ffn_gate.weight"),     // Q5_0
        Case(model: TestModels.gemma3, tensor: "blk.0.attn_output.weight"),  // Q4_K
        Case(model: TestModels.gemma3, tensor: "blk.0.ffn_down.weight"),     // Q6_K
        Case(model: TestModels.gemma3, tensor: "token_embd.weight"),         // Q8_0
    ]

    @Test("fast kernels equal the portable kernels on real weights", arguments: cases)
    func fastKernelsMatchPortableOnModelRows(_ c: Case) throws {
        let file = try GGUFFile(path: TestModels.path(c.model))
        let info = try #require(file.tensor(named: c.tensor))
        let rows = min(96, info.rowCount), cols = info.rowLength
        let w = WeightMatrix(type: info.type, data: file.data(for: info), rows: rows, cols: cols)
        var rng = SplitMix64(seed: 17)
        // 12 tokens: past the threshold where the AVX2 legacy formats switch to packed tiles.
        let tokens = 12
        let input = DotReference.randomActivations(tokens * cols, rng: &rng)
        let x = QuantizedActivations(maxTokens: tokens, maxCols: cols)
        x.quantize(input, nTokens: tokens, cols: cols, format: activationFormat(for: info.type))
        var reference = [Float](repeating: .nan, count: tokens * rows)
        MatMul.matMul(w, x, into: &reference, rows: 0..<rows, kernels: .portable)
        var compared = 0
        for set in KernelSet.supported where set != .portable {
            var fast = [Float](repeating: .nan, count: tokens * rows)
            MatMul.matMul(w, x, into: &fast, rows: 0..<rows, kernels: set)
            let scale = reference.map { abs($0) }.max() ?? 1
            for i in 0..<(tokens * rows) {
                #expect(abs(fast[i] - reference[i]) <= 1e-5 * scale, "\(set) [\(i / rows), \(i % rows)]: \(fast[i]) vs \(reference[i])")
            }
            compared += 1
        }
        #expect(!reference.contains { !$0.isFinite })
        print("\(c.testDescription) (\(info.type)): compared \(compared) fast kernel set(s) with the portable kernels")
    }
}
