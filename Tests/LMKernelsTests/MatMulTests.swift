import TestSupport
import LMGGUF
import LMKernels
import Testing

@Suite struct MatMulTests {
    @Test(arguments: kernelCases, [1, 4, 7])
    func matMulEqualsPerTokenMatVecBitForBit(_ c: KernelCase, _ nTokens: Int) {
        let rows = 21
        let m = RandomMatrix(c.type, rows: rows, cols: c.cols, seed: 99 + UInt64(c.cols))
        var rng = SplitMix64(seed: 7)
        let input = DotReference.randomActivations(nTokens * c.cols, rng: &rng)
        let x = QuantizedActivations(maxTokens: 8, maxCols: c.cols)
        x.quantize(input, nTokens: nTokens, cols: c.cols, format: activationFormat(for: c.type))
        var batched = [Float](repeating: .nan, count: nTokens * rows)
        var single = [Float](repeating: .nan, count: rows)
        m.withMatrix { w in
            MatMul.matMul(w, x, into: &batched, rows: 0..<rows, kernels: c.kernels)
            for t in 0..<nTokens {
                MatMul.matVec(w, x, token: t, into: &single, rows: 0..<rows, kernels: c.kernels)
                #expect(Array(batched[(t * rows)..<((t + 1) * rows)]) == single, "token \(t)")
            }
        }
    }

    /// From 8 tokens the AVX2 legacy formats run packed tiles (another summation order), so the
    /// batch is checked against the Double reference on every row and token instead.
    @Test(arguments: kernelCases, [8, 13])
    func largeBatchesMatchTheDoubleReference(_ c: KernelCase, _ nTokens: Int) {
        let rows = 21
        let m = RandomMatrix(c.type, rows: rows, cols: c.cols, seed: 77 + UInt64(c.cols))
        var rng = SplitMix64(seed: 9)
        let input = DotReference.randomActivations(nTokens * c.cols, rng: &rng)
        let x = QuantizedActivations(maxTokens: nTokens, maxCols: c.cols)
        x.quantize(input, nTokens: nTokens, cols: c.cols, format: activationFormat(for: c.type))
        var y = [Float](repeating: .nan, count: nTokens * rows)
        m.withMatrix { w in MatMul.matMul(w, x, into: &y, rows: 0..<rows, kernels: c.kernels) }
        for t in 0..<nTokens {
            for r in 0..<rows {
                let (expected, magnitude) = m.reference(row: r, token: t, x)
                #expect(abs(Double(y[t * rows + r]) - expected) <= 2e-6 * magnitude + 1e-6,
                        "token \(t) row \(r): got \(y[t * rows + r]), expected \(expected)")
            }
        }
    }

    @Test(arguments: [GGMLType.q4_1, .q8_0, .q4_K, .q6_K], [1, 6])
    func multiplyOnTwoThreadsEqualsOneThreadBitForBit(_ type: GGMLType, _ nTokens: Int) {
        let rows = 70, cols = 512
        let m = RandomMatrix(type, rows: rows, cols: cols, seed: 1234)
        var rng = SplitMix64(seed: 8)
        let input = DotReference.randomActivations(nTokens * cols, rng: &rng)
        let scratch = QuantizedActivations(maxTokens: nTokens, maxCols: cols)
        let one = ThreadPool(threads: 1), two = ThreadPool(threads: 2)
        var y1 = [Float](repeating: .nan, count: nTokens * rows)
        var y2 = [Float](repeating: .nan, count: nTokens * rows)
        m.withMatrix { w in
            MatMul.multiply(w, x: input, nTokens: nTokens, into: &y1, scratch: scratch, pool: one)
            MatMul.multiply(w, x: input, nTokens: nTokens, into: &y2, scratch: scratch, pool: two)
        }
        #expect(y1 == y2)
        #expect(!y1.contains { $0.isNaN })
        // And the product is the reference one.
        let (expected, magnitude) = m.reference(row: rows - 1, token: nTokens - 1, scratch)
        #expect(abs(Double(y1[nTokens * rows - 1]) - expected) <= 2e-6 * magnitude + 1e-6)
    }
}
