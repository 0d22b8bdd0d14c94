#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the query steps of one tile share: the unit's queries and workspace, and the tile's
/// positions `base...tileLast` (keys and values already converted to floats).
@usableFromInline
struct TileStep {
    @usableFromInline let work: AttentionWork
    @usableFromInline let kvHead: Int
    @usableFromInline let firstToken: Int
    @usableFromInline let base: Int
    @usableFromInline let tileLast: Int
    @usableFromInline let keys: UnsafeMutablePointer<Float>
    @usableFromInline let values: UnsafeMutablePointer<Float>
    @usableFromInline let scores: UnsafeMutablePointer<Float>
    @usableFromInline let outputs: UnsafeMutablePointer<Float>
    @usableFromInline let maxima: UnsafeMutablePointer<Float>
    @usableFromInline let sums: UnsafeMutablePointer<Float>

    @inlinable
    init(work: AttentionWork, kvHead: Int, firstToken: Int, base: Int, tileLast: Int, keys: UnsafeMutablePointer<Float>,
         values: UnsafeMutablePointer<Float>, scores: UnsafeMutablePointer<Float>, outputs: UnsafeMutablePointer<Float>,
         maxima: UnsafeMutablePointer<Float>, sums: UnsafeMutablePointer<Float>) {
        self.work = work
        self.kvHead = kvHead
        self.firstToken = firstToken
        self.base = base
        self.tileLast = tileLast
        self.keys = keys
        self.values = values
        self.scores = scores
        self.outputs = outputs
        self.maxima = maxima
        self.sums = sums
    }

    /// Query `i` of the unit (`[headDim]`) and the positions of this tile it attends to, `lo...hi`
    /// (empty when `lo > hi`).
    @inlinable @inline(__always)
    func query(_ i: Int) -> (q: UnsafePointer<Float>, lo: Int, hi: Int) {
        let s = work.shape, group = s.group
        let t = firstToken + i / group, h = kvHead * group + i % group
        let pos = work.firstPosition + t
        let lo = max(s.window.map { max(0, pos - $0 + 1) } ?? 0, base), hi = min(work.lastVisible(pos), tileLast)
        return (work.q + t * s.nHead * s.headDim + h * s.headDim, lo, hi)
    }

    /// Query `i`'s scores over the tile: `[tilePositions]`.
    @inlinable @inline(__always)
    func scores(_ i: Int) -> UnsafeMutablePointer<Float> { scores + i * work.shape.tilePositions }
}

extension AttentionKernel {
    /// One query over the tile: scores, online-softmax update, weighted values.
    @inlinable @inline(__always)
    static func oneQuery(_ step: TileStep, _ i: Int) {
        let (qi, lo, hi) = step.query(i)
        guard lo <= hi else { return }
        let headDim = step.work.shape.headDim, B = AttentionShape.block, base = step.base
        let si = step.scores(i)
        let bLo = (lo - base) / B, bHi = (hi - base) / B
        var tileMax = -Float.infinity
        for bi in bLo...bHi {
            let score = finish(dotBlock(qi, step.keys + bi * headDim * B, headDim), step, p0: base + bi * B, lo: lo, hi: hi)
            tileMax = max(tileMax, maxLane(score))
            UnsafeMutableRawPointer(si + bi * B).storeBytes(of: score, as: SIMD8<Float>.self)
        }
        softmax(step, i, blocks: bLo...bHi, tileMax: tileMax)
        accumulate(step.outputs + i * headDim, weights: si + (lo - base), rows: step.values + (lo - base) * headDim,
                   count: hi - lo + 1, headDim, stride: headDim)
    }

    /// Queries `i..<i+count` (`count` in 2...4) over the tile, each key and value load shared by
    /// four slots (heads of one token under GQA, or neighbouring tokens); with fewer than four
    /// queries the spare slots repeat the last one, and their results are not read. They run over
    /// the union of their position ranges; a position outside a query's own range gets weight 0.
    @inlinable @inline(__always)
    static func fourQueries(_ step: TileStep, _ i: Int, count: Int) {
        let last = i + count - 1
        let (q0, lo0, hi0) = step.query(i), (q1, lo1, hi1) = step.query(min(i + 1, last))
        let (q2, lo2, hi2) = step.query(min(i + 2, last)), (q3, lo3, hi3) = step.query(min(i + 3, last))
        let lo = SIMD4(lo0, lo1, lo2, lo3), hi = SIMD4(hi0, hi1, hi2, hi3)
        let active = lo .<= hi
        guard any(active) else { return }
        let big = Int.max / 2
        let loG = lo.replacing(with: big, where: .!active).min()
        let hiG = hi.replacing(with: -big, where: .!active).max()
        let headDim = step.work.shape.headDim, B = AttentionShape.block, base = step.base
        let bLo = (loG - base) / B, bHi = (hiG - base) / B
        let s0 = step.scores(i), s1 = step.scores(i + 1), s2 = step.scores(i + 2), s3 = step.scores(i + 3)
        var m = SIMD4<Float>(repeating: -.infinity)

        @inline(__always) func keep(_ r: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), _ bi: Int) -> SIMD4<Float> {
            let p0 = base + bi * B
            let a = finish(r.0, step, p0: p0, lo: lo0, hi: hi0), b = finish(r.1, step, p0: p0, lo: lo1, hi: hi1)
            let c = finish(r.2, step, p0: p0, lo: lo2, hi: hi2), d = finish(r.3, step, p0: p0, lo: lo3, hi: hi3)
            store(a, s0 + bi * B); store(b, s1 + bi * B); store(c, s2 + bi * B); store(d, s3 + bi * B)
            return SIMD4(maxLane(a), maxLane(b), maxLane(c), maxLane(d))
        }
        var bi = bLo
        while bi + 1 <= bHi {
            let k = step.keys + bi * headDim * B
            let r = dotFourPair(q0, q1, q2, q3, k, k + headDim * B, headDim)
            m = pointwiseMax(m, keep((r.0, r.1, r.2, r.3), bi))
            m = pointwiseMax(m, keep((r.4, r.5, r.6, r.7), bi + 1))
            bi += 2
        }
        if bi == bHi { m = pointwiseMax(m, keep(dotFour(q0, q1, q2, q3, step.keys + bi * headDim * B, headDim), bi)) }

        for k in 0..<4 {
            if active[k] {
                softmax(step, i + k, blocks: bLo...bHi, tileMax: m[k])
            } else {
                (step.scores(i + k) + bLo * B).initialize(repeating: 0, count: (bHi - bLo + 1) * B)
            }
        }
        accumulateFour(step.outputs + i * headDim, weights: s0 + (loG - base), stride: step.work.shape.tilePositions,
                       rows: step.values + (loG - base) * headDim, count: hiG - loG + 1, headDim)
    }

    /// Scores of 8 positions from `p0` scaled (and capped); lanes outside `lo...hi` become -inf
    /// (weight 0). With a cap, scores are `cap · tanh(q·k · scale / cap)`, the scale folded in as
    /// ggml does.
    @inlinable @inline(__always)
    static func finish(_ dot: SIMD8<Float>, _ step: TileStep, p0: Int, lo: Int, hi: Int) -> SIMD8<Float> {
        let s = step.work.shape, cap = s.softcap, B = AttentionShape.block
        var score = dot * (cap != 0 ? s.scale / cap : s.scale)
        if cap != 0 { for lane in 0..<B { score[lane] = cap * tanhf(score[lane]) } }
        if p0 < lo || p0 + B - 1 > hi {
            for lane in 0..<B where p0 + lane < lo || p0 + lane > hi { score[lane] = -.infinity }
        }
        return score
    }

    /// Online softmax for query `i` over score blocks `blocks` whose largest score is `tileMax`:
    /// rescales what was summed under the old maximum, turns the scores into weights in place
    /// and adds them to the running sum.
    @inlinable @inline(__always)
    static func softmax(_ step: TileStep, _ i: Int, blocks: ClosedRange<Int>, tileMax: Float) {
        let mx = step.maxima, sm = step.sums, headDim = step.work.shape.headDim, si = step.scores(i)
        if tileMax > mx[i] {
            if sm[i] > 0 {
                let f = vectorExp(SIMD8(repeating: mx[i] - tileMax))[0]
                sm[i] *= f
                scale(step.outputs + i * headDim, by: f, headDim)
            }
            mx[i] = tileMax
        }
        let m = SIMD8<Float>(repeating: mx[i])
        var sum = SIMD8<Float>()
        for bi in blocks {
            let p = UnsafeMutableRawPointer(si + bi * AttentionShape.block)
            let e = vectorExp(p.loadUnaligned(as: SIMD8<Float>.self) - m)
            sum += e
            p.storeBytes(of: e, as: SIMD8<Float>.self)
        }
        sm[i] += sum.sum()
    }

    @inlinable @inline(__always)
    static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }
}
