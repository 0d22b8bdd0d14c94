import LMKernelsCore

/// Prefill products of float weights (F32, F16, BF16): each tile of 8 weight rows is converted to Float once
/// and reused for every token. ``RowLoops``'s tiles would convert each weight row again for every 4 tokens,
/// which made a ViT's F16 matrices (1,024 tokens a tile) spend most of their time converting halves.
///
/// Every value is `FloatDot<F>.dot`'s bit for bit: the conversion is exact and the sums run in its order.
enum FloatMatMul<F: FloatFormat> {
    static var tileRows: Int { 8 }

    /// `y[t * w.rows + r] = w[r] · x[t]` for all tokens `t` and `r` in `rows`.
    static func matMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let cols = w.cols, n = x.nTokens, stride = w.rows
        withUnsafeTemporaryAllocation(of: Float.self, capacity: tileRows * cols) { tile in
            let tile = tile.baseAddress!
            var r0 = rows.lowerBound
            while r0 < rows.upperBound {
                let r1 = min(r0 + tileRows, rows.upperBound)
                for r in r0..<r1 {
                    let source = w.row(r), out = tile + (r - r0) * cols
                    var c = 0
                    while c + 8 <= cols {
                        UnsafeMutableRawPointer(out + c).storeBytes(of: F.load8(source, c), as: SIMD8<Float>.self)
                        c += 8
                    }
                    while c < cols {
                        out[c] = F.load1(source, c)
                        c += 1
                    }
                }
                for t in 0..<n {
                    let a = x.row(t).floats, out = y + t * stride
                    for r in r0..<r1 {
                        out[r] = FloatDot<F32Format>.dot(UnsafeRawPointer(tile + (r - r0) * cols), a, cols: cols)
                    }
                }
                r0 = r1
            }
        }
    }
}
