import TestSupport
import LMGGUF
import LMKernels
import Testing

/// `independentRows` (a batched decode step over many sequences): every token's row of the product
/// is bit for bit the one-token product's, for any batch size, including 8+ tokens where the
/// ordinary product switches to packed tiles (another Float order), on weights prepared with decode
/// tiles and on a row count that leaves a ragged tail of tiles and stretches.
@Suite struct IndependentRowsTests {
    @Test(arguments: kernelCases, [2, 8, 13])
    func independentRowsEqualOneTokenProductsBitForBit(_ c: KernelCase, _ nTokens: Int) {
        let rows = 85
        let m = RandomMatrix(c.type, rows: rows, cols: c.cols, seed: 31 + UInt64(c.cols))
        var rng = SplitMix64(seed: 5)
        let input = DotReference.randomActivations(nTokens * c.cols, rng: &rng)
        let pool = ThreadPool(threads: 2)
        let x = QuantizedActivations(maxTokens: nTokens, maxCols: c.cols)
        let one = QuantizedActivations(maxTokens: 1, maxCols: c.cols)
        let format = activationFormat(for: c.type)
        x.quantize(input, nTokens: nTokens, cols: c.cols, format: format)
        var batched = [Float](repeating: .nan, count: nTokens * rows)
        var single = [Float](repeating: .nan, count: rows)
        m.withMatrix { raw in
            let w = c.kernels.prepare(raw)
            MatMul.multiply(w, quantized: x, into: &batched, pool: pool, kernels: c.kernels, independentRows: true)
            input.withUnsafeBufferPointer { input in
                for t in 0..<nTokens {
                    one.quantize(input.baseAddress! + t * c.cols, nTokens: 1, cols: c.cols, format: format)
                    MatMul.multiply(w, quantized: one, into: &single, pool: pool, kernels: c.kernels)
                    #expect(Array(batched[(t * rows)..<((t + 1) * rows)]) == single, "token \(t)")
                }
            }
        }
    }
}
