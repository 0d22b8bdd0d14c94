/// The matrix loops over a weight type's row kernels.
public enum RowLoops<K: RowKernel> {
    @inlinable
    public static func matVec(_ w: WeightMatrix, _ x: ActivationRows, token: Int,
                               into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let a = x.row(token)
        let cols = w.cols
        for r in rows { y[r] = K.dot(w.row(r), a, cols: cols) }
    }

    /// Tiles of `rowTile` weight rows by 4 tokens: each weight row is decoded once per 4 tokens,
    /// and a tile's weight rows and activations stay in L1 while it is swept.
    @inlinable
    public static func matMul(_ w: WeightMatrix, _ x: ActivationRows,
                               into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let rowTile = 16
        let n = x.nTokens, cols = w.cols, stride = w.rows
        var r0 = rows.lowerBound
        while r0 < rows.upperBound {
            let r1 = min(r0 + rowTile, rows.upperBound)
            var t = 0
            while t + 4 <= n {
                let a0 = x.row(t), a1 = x.row(t + 1), a2 = x.row(t + 2), a3 = x.row(t + 3)
                let out = y + t * stride
                for r in r0..<r1 {
                    let v = K.dot4(w.row(r), a0, a1, a2, a3, cols: cols)
                    out[r] = v[0]
                    out[stride + r] = v[1]
                    out[2 * stride + r] = v[2]
                    out[3 * stride + r] = v[3]
                }
                t += 4
            }
            while t < n {
                let a = x.row(t)
                for r in r0..<r1 { y[t * stride + r] = K.dot(w.row(r), a, cols: cols) }
                t += 1
            }
            r0 = r1
        }
    }
}
