/// The attention work unit (see ``AttentionShape``), `@inlinable` so that each kernel module
/// compiles it for its own instruction set (F16C and FMA in the AVX2 module), with that module's
/// multiply-add `M` and half-precision widening `H`.
public enum AttentionKernel<M: MultiplyAdd, H: HalfConversion> {
    /// Runs unit `unit` of `work` with thread `thread`'s scratch: the queries of one KV head for
    /// one chunk of tokens, over one split of the positions. Writes the finished rows of `out`, or
    /// with several splits this split's partial `(o, max, sum)` per query.
    @inlinable @inline(__always)
    public static func attend(_ work: AttentionWork, unit: Int, thread: Int) {
        let s = work.shape
        let split = unit % work.splits, rest = unit / work.splits
        let chunk = rest % work.tokenChunks, kvHead = rest / work.tokenChunks
        let headDim = s.headDim, group = s.group
        let t0 = chunk * s.tokensPerUnit, t1 = min(work.nTokens, t0 + s.tokensPerUnit)
        let nQ = (t1 - t0) * group
        let tile = s.tilePositions, B = AttentionShape.block, rowSize = s.nHead * headDim
        // Workspace: keys [tile/8, headDim, 8], values [tile, headDim], scores [maxQueries, tile],
        // outputs [maxQueries, headDim], running max and sum [maxQueries].
        let kf = work.scratch + thread * s.threadScratch, vf = kf + tile * headDim
        let sc = vf + tile * headDim, o = sc + s.maxQueries * tile
        let mx = o + s.maxQueries * headDim, sm = mx + s.maxQueries

        let firstPosition = work.firstPosition
        let lastPos = firstPosition + t1 - 1
        let firstPos = s.window.map { max(0, firstPosition + t0 - $0 + 1) } ?? 0
        let blocks = splitRange((firstPos / B)..<(lastPos / B + 1), index: split, count: work.splits)
        for i in 0..<nQ { mx[i] = -.infinity; sm[i] = 0 }
        o.initialize(repeating: 0, count: nQ * headDim)

        // Infinities and NaNs need the exact (slower) conversion; a well-behaved model has none.
        let exact = work.kv.mayHoldNonFinite
        var tb = blocks.lowerBound
        while tb < blocks.upperBound {
            let nb = min(tile / B, blocks.upperBound - tb)
            let base = tb * B
            let tileLast = min(base + nb * B - 1, lastPos)
            for bi in 0..<nb {
                convert(work.kv.keyBlock(tb + bi, kvHead), into: kf + bi * headDim * B, headDim * B, exact: exact)
            }
            let vLo = max(firstPos, base)
            if vLo <= tileLast {
                for p in vLo...tileLast {
                    convert(work.kv.value(p) + kvHead * headDim, into: vf + (p - base) * headDim, headDim, exact: exact)
                }
            }
            for i in 0..<nQ {
                let t = t0 + i / group, h = kvHead * group + i % group
                let pos = firstPosition + t
                let lo = max(s.window.map { max(0, pos - $0 + 1) } ?? 0, base), hi = min(pos, tileLast)
                guard lo <= hi else { continue }
                let qi = work.q + t * rowSize + h * headDim, si = sc + i * tile, oi = o + i * headDim
                let bLo = (lo - base) / B, bHi = (hi - base) / B

                // Scores of 8 positions at once; lanes outside lo...hi become -inf (weight 0).
                var tileMax = -Float.infinity
                for bi in bLo...bHi {
                    var score = dotBlock(qi, kf + bi * headDim * B, headDim) * s.scale
                    let p0 = base + bi * B
                    if p0 < lo || p0 + B - 1 > hi {
                        for lane in 0..<B where p0 + lane < lo || p0 + lane > hi { score[lane] = -.infinity }
                    }
                    tileMax = max(tileMax, maxLane(score))
                    UnsafeMutableRawPointer(si + bi * B).storeBytes(of: score, as: SIMD8<Float>.self)
                }
                // Online softmax: rescale what was summed under the old max.
                if tileMax > mx[i] {
                    if sm[i] > 0 {
                        let f = vectorExp(SIMD8(repeating: mx[i] - tileMax))[0]
                        sm[i] *= f
                        scale(oi, by: f, headDim)
                    }
                    mx[i] = tileMax
                }
                let m = SIMD8<Float>(repeating: mx[i])
                var sum = SIMD8<Float>()
                for bi in bLo...bHi {
                    let p = UnsafeMutableRawPointer(si + bi * B)
                    let e = vectorExp(p.loadUnaligned(as: SIMD8<Float>.self) - m)
                    sum += e
                    p.storeBytes(of: e, as: SIMD8<Float>.self)
                }
                sm[i] += sum.sum()
                accumulate(oi, weights: si + (lo - base), rows: vf + (lo - base) * headDim, count: hi - lo + 1, headDim)
            }
            tb += nb
        }

        for i in 0..<nQ {
            let t = t0 + i / group, h = kvHead * group + i % group
            let oi = o + i * headDim
            if work.splits == 1 {
                let dst = work.out + t * rowSize + h * headDim
                dst.update(from: oi, count: headDim)
                scale(dst, by: 1 / sm[i], headDim)
            } else {
                let dst = work.partial(split: split, kvHead: kvHead, query: i)
                dst.update(from: oi, count: headDim)
                dst[headDim] = mx[i]
                dst[headDim + 1] = sm[i]
            }
        }
    }

    /// Chunk `index` of `count` of `range`, tiling it in order (as `ThreadPool.chunk`).
    @inlinable @inline(__always)
    static func splitRange(_ range: Range<Int>, index: Int, count: Int) -> Range<Int> {
        let n = range.count
        return (range.lowerBound + n * index / count)..<(range.lowerBound + n * (index + 1) / count)
    }

    /// Halves to floats, 8 at a time; `exact` keeps infinities and NaNs.
    @inlinable @inline(__always)
    static func convert(_ src: UnsafePointer<UInt16>, into dst: UnsafeMutablePointer<Float>, _ n: Int, exact: Bool) {
        var i = 0
        if exact {
            while i + 8 <= n {
                let h = UnsafeRawPointer(src + i).loadUnaligned(as: SIMD8<UInt16>.self)
                UnsafeMutableRawPointer(dst + i).storeBytes(of: halfToFloat(h), as: SIMD8<Float>.self)
                i += 8
            }
        } else {
            while i + 8 <= n {
                let h = UnsafeRawPointer(src + i).loadUnaligned(as: SIMD8<UInt16>.self)
                UnsafeMutableRawPointer(dst + i).storeBytes(of: H.floats(h), as: SIMD8<Float>.self)
                i += 8
            }
        }
        while i < n { dst[i] = halfToFloat(src[i]); i += 1 }
    }

    /// Dot products of `q` (`[headDim]`) with 8 keys stored dimension-major (`[headDim, 8]`).
    @inlinable @inline(__always)
    static func dotBlock(_ q: UnsafePointer<Float>, _ k: UnsafePointer<Float>, _ headDim: Int) -> SIMD8<Float> {
        @inline(__always) func key(_ d: Int) -> SIMD8<Float> {
            UnsafeRawPointer(k + d * 8).loadUnaligned(as: SIMD8<Float>.self)
        }
        var a0 = SIMD8<Float>(), a1 = SIMD8<Float>(), a2 = SIMD8<Float>(), a3 = SIMD8<Float>()
        var d = 0
        while d + 4 <= headDim {
            a0 = M.madd(a0, SIMD8(repeating: q[d]), key(d))
            a1 = M.madd(a1, SIMD8(repeating: q[d + 1]), key(d + 1))
            a2 = M.madd(a2, SIMD8(repeating: q[d + 2]), key(d + 2))
            a3 = M.madd(a3, SIMD8(repeating: q[d + 3]), key(d + 3))
            d += 4
        }
        while d < headDim { a0 = M.madd(a0, SIMD8(repeating: q[d]), key(d)); d += 1 }
        return (a0 + a1) + (a2 + a3)
    }

    /// `o[d] *= f` over `headDim`.
    @inlinable @inline(__always)
    static func scale(_ o: UnsafeMutablePointer<Float>, by f: Float, _ headDim: Int) {
        var c = 0
        while c + 8 <= headDim {
            let p = UnsafeMutableRawPointer(o + c)
            p.storeBytes(of: p.loadUnaligned(as: SIMD8<Float>.self) * f, as: SIMD8<Float>.self)
            c += 8
        }
        while c < headDim { o[c] *= f; c += 1 }
    }

    /// `o[d] += Σ_j weights[j] · rows[j, d]` for `count` rows of `[headDim]`.
    @inlinable @inline(__always)
    static func accumulate(_ o: UnsafeMutablePointer<Float>, weights: UnsafePointer<Float>, rows: UnsafePointer<Float>,
                           count: Int, _ headDim: Int) {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
        }
        @inline(__always) func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
        }
        var c = 0
        while c + 32 <= headDim {
            var a0 = load(o + c), a1 = load(o + c + 8), a2 = load(o + c + 16), a3 = load(o + c + 24)
            for j in 0..<count {
                let w = SIMD8<Float>(repeating: weights[j]), r = rows + j * headDim + c
                a0 = M.madd(a0, w, load(r)); a1 = M.madd(a1, w, load(r + 8))
                a2 = M.madd(a2, w, load(r + 16)); a3 = M.madd(a3, w, load(r + 24))
            }
            store(a0, o + c); store(a1, o + c + 8); store(a2, o + c + 16); store(a3, o + c + 24)
            c += 32
        }
        while c + 8 <= headDim {
            var a = load(o + c)
            for j in 0..<count { a = M.madd(a, SIMD8(repeating: weights[j]), load(rows + j * headDim + c)) }
            store(a, o + c)
            c += 8
        }
        while c < headDim {
            var a = o[c]
            for j in 0..<count { a += weights[j] * rows[j * headDim + c] }
            o[c] = a
            c += 1
        }
    }
}
