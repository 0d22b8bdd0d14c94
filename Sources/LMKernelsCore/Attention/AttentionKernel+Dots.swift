/// The inner products of attention: query·key scores over key blocks stored dimension-major
/// (`[headDim, 8]`, lane = position) and weighted sums of value rows (`[count, headDim]`), for one
/// query or four at a time. Four queries load each key or value vector once (register tiles as
/// in a GEMM micro-kernel), which halves the loads per multiply-add.
extension AttentionKernel {
    @inlinable @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// Dot products of `q` (`[headDim]`) with 8 keys stored dimension-major (`[headDim, 8]`).
    @inlinable @inline(__always)
    static func dotBlock(_ q: UnsafePointer<Float>, _ k: UnsafePointer<Float>, _ headDim: Int) -> SIMD8<Float> {
        var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
        var d = 0
        while d + 4 <= headDim {
            let kd = k + d &* 8
            a0 = M.madd(a0, SIMD8(repeating: q[d]), load(kd))
            a1 = M.madd(a1, SIMD8(repeating: q[d + 1]), load(kd + 8))
            a2 = M.madd(a2, SIMD8(repeating: q[d + 2]), load(kd + 16))
            a3 = M.madd(a3, SIMD8(repeating: q[d + 3]), load(kd + 24))
            d += 4
        }
        while d < headDim { a0 = M.madd(a0, SIMD8(repeating: q[d]), load(k + d &* 8)); d += 1 }
        return (a0 + a1) + (a2 + a3)
    }

    /// ``dotBlock(_:_:_:)`` for four queries and one key block: `[8]` scores each.
    @inlinable @inline(__always)
    static func dotFour(_ q0: UnsafePointer<Float>, _ q1: UnsafePointer<Float>, _ q2: UnsafePointer<Float>,
                        _ q3: UnsafePointer<Float>, _ k: UnsafePointer<Float>, _ headDim: Int)
        -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
        var b0 = SIMD8<Float>(), b1 = SIMD8<Float>(), b2 = SIMD8<Float>(), b3 = SIMD8<Float>()
        var d = 0
        while d + 2 <= headDim {
            let x = load(k + d &* 8), y = load(k + d &* 8 + 8)
            a0 = M.madd(a0, SIMD8(repeating: q0[d]), x); a1 = M.madd(a1, SIMD8(repeating: q1[d]), x)
            a2 = M.madd(a2, SIMD8(repeating: q2[d]), x); a3 = M.madd(a3, SIMD8(repeating: q3[d]), x)
            b0 = M.madd(b0, SIMD8(repeating: q0[d + 1]), y); b1 = M.madd(b1, SIMD8(repeating: q1[d + 1]), y)
            b2 = M.madd(b2, SIMD8(repeating: q2[d + 1]), y); b3 = M.madd(b3, SIMD8(repeating: q3[d + 1]), y)
            d += 2
        }
        if d < headDim {
            let x = load(k + d &* 8)
            a0 = M.madd(a0, SIMD8(repeating: q0[d]), x); a1 = M.madd(a1, SIMD8(repeating: q1[d]), x)
            a2 = M.madd(a2, SIMD8(repeating: q2[d]), x); a3 = M.madd(a3, SIMD8(repeating: q3[d]), x)
        }
        return (a0 + b0, a1 + b1, a2 + b2, a3 + b3)
    }

    /// ``dotFour(_:_:_:_:_:_:)`` over two key blocks `k` and `k2`: the four queries' scores for `k`,
    /// then for `k2`.
    @inlinable @inline(__always)
    static func dotFourPair(_ q0: UnsafePointer<Float>, _ q1: UnsafePointer<Float>, _ q2: UnsafePointer<Float>,
                            _ q3: UnsafePointer<Float>, _ k: UnsafePointer<Float>, _ k2: UnsafePointer<Float>, _ headDim: Int)
        -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
        var b0 = SIMD8<Float>(), b1 = SIMD8<Float>(), b2 = SIMD8<Float>(), b3 = SIMD8<Float>()
        for d in 0..<headDim {
            let x = load(k + d &* 8), y = load(k2 + d &* 8)
            let w0 = SIMD8<Float>(repeating: q0[d]), w1 = SIMD8<Float>(repeating: q1[d])
            let w2 = SIMD8<Float>(repeating: q2[d]), w3 = SIMD8<Float>(repeating: q3[d])
            a0 = M.madd(a0, w0, x); a1 = M.madd(a1, w1, x); a2 = M.madd(a2, w2, x); a3 = M.madd(a3, w3, x)
            b0 = M.madd(b0, w0, y); b1 = M.madd(b1, w1, y); b2 = M.madd(b2, w2, y); b3 = M.madd(b3, w3, y)
        }
        return (a0, a1, a2, a3, b0, b1, b2, b3)
    }

    /// `o[d] += Σ_j weights[j] · rows[j, d]` for `d < width`, over `count` rows `stride` floats apart.
    @inlinable @inline(__always)
    static func accumulate(_ o: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, rows: UnsafePointer<Float>,
                           count: Int, _ width: Int, stride: Int) {
        var c = 0
        while c + 32 <= width {
            var a0 = load(o + c), a1 = load(o + c + 8), a2 = load(o + c + 16), a3 = load(o + c + 24)
            var r = rows + c
            for j in 0..<count {
                let w = SIMD8<Float>(repeating: weights[j])
                a0 = M.madd(a0, w, load(r)); a1 = M.madd(a1, w, load(r + 8))
                a2 = M.madd(a2, w, load(r + 16)); a3 = M.madd(a3, w, load(r + 24))
                r += stride
            }
            store(a0, o + c); store(a1, o + c + 8); store(a2, o + c + 16); store(a3, o + c + 24)
            c += 32
        }
        while c + 8 <= width {
            var a = load(o + c), r = rows + c
            for j in 0..<count { a = M.madd(a, SIMD8(repeating: weights[j]), load(r)); r += stride }
            store(a, o + c)
            c += 8
        }
        while c < width {
            var a = o[c]
            for j in 0..<count { a += weights[j] * rows[j &* stride + c] }
            o[c] = a
            c += 1
        }
    }

    /// ``accumulate(_:weights:rows:count:_:stride:)`` for four queries: outputs `o` `[4, headDim]`,
    /// weights `[4, stride]` (the first `count` of each row used).
    @inlinable @inline(__always)
    static func accumulateFour(_ o: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, stride: Int,
                               rows: UnsafePointer<Float>, count: Int, _ headDim: Int) {
        let o0 = o, o1 = o + headDim, o2 = o1 + headDim, o3 = o2 + headDim
        let w0 = weights, w1 = weights + stride, w2 = w1 + stride, w3 = w2 + stride
        var c = 0
        while c + 16 <= headDim {
            var a0 = load(o0 + c), b0 = load(o0 + c + 8), a1 = load(o1 + c), b1 = load(o1 + c + 8)
            var a2 = load(o2 + c), b2 = load(o2 + c + 8), a3 = load(o3 + c), b3 = load(o3 + c + 8)
            var r = rows + c
            for j in 0..<count {
                let x = load(r), y = load(r + 8)
                let v0 = SIMD8<Float>(repeating: w0[j]), v1 = SIMD8<Float>(repeating: w1[j])
                let v2 = SIMD8<Float>(repeating: w2[j]), v3 = SIMD8<Float>(repeating: w3[j])
                a0 = M.madd(a0, v0, x); b0 = M.madd(b0, v0, y); a1 = M.madd(a1, v1, x); b1 = M.madd(b1, v1, y)
                a2 = M.madd(a2, v2, x); b2 = M.madd(b2, v2, y); a3 = M.madd(a3, v3, x); b3 = M.madd(b3, v3, y)
                r += headDim
            }
            store(a0, o0 + c); store(b0, o0 + c + 8); store(a1, o1 + c); store(b1, o1 + c + 8)
            store(a2, o2 + c); store(b2, o2 + c + 8); store(a3, o3 + c); store(b3, o3 + c + 8)
            c += 16
        }
        if c < headDim {
            let rest = rows + c
            accumulate(o0 + c, weights: w0, rows: rest, count: count, headDim - c, stride: headDim)
            accumulate(o1 + c, weights: w1, rows: rest, count: count, headDim - c, stride: headDim)
            accumulate(o2 + c, weights: w2, rows: rest, count: count, headDim - c, stride: headDim)
            accumulate(o3 + c, weights: w3, rows: rest, count: count, headDim - c, stride: headDim)
        }
    }
}
