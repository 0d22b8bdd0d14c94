import LMKernels

/// The thread pool and matmul scratch one context computes with. Allocated once per context so a
/// decode step allocates nothing.
final class ComputeResources {
    let threads: Int
    /// Dequantized weight row scratch, `[maxCols]` per thread.
    private let rowScratch: UnsafeMutablePointer<Float>
    private let maxCols: Int

    init(threads: Int, maxCols: Int) {
        self.threads = max(1, threads)
        self.maxCols = maxCols
        rowScratch = .allocate(capacity: maxCols * self.threads)
    }

    deinit { rowScratch.deallocate() }

    /// Runs `body` over `0..<count` split into one contiguous range per thread.
    func parallel(_ count: Int, _ body: (Range<Int>, Int) -> Void) {
        body(0..<count, 0)
    }

    /// `y[t, :] = W x[t, :]`: x `[nTokens, w.cols]`, y `[nTokens, w.rows]`.
    func multiply(_ w: WeightMatrix, _ x: UnsafePointer<Float>, nTokens: Int, into y: UnsafeMutablePointer<Float>) {
        let rows = w.rows, cols = w.cols
        parallel(rows) { range, thread in
            let row = rowScratch + thread * maxCols
            for r in range {
                w.dequantizeRow(r, into: row)
                for t in 0..<nTokens {
                    y[t * rows + r] = VectorMath.dot(row, x + t * cols, cols)
                }
            }
        }
    }
}
