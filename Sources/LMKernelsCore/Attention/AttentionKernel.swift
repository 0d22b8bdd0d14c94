#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        // Workspace: keys [tile/8, headDim, 8], values [tile, headDim], scores [querySlots, tile],
        // outputs [querySlots, headDim], running max and sum [querySlots].
        let kf = work.scratch + thread * s.threadScratch, vf = kf + tile * headDim
        let sc = vf + tile * headDim, o = sc + s.querySlots * tile
        let mx = o + s.querySlots * headDim, sm = mx + s.querySlots
        let slots = (nQ + 3) / 4 * 4

        let firstPosition = work.firstPosition
        let lastPos = work.lastVisible(firstPosition + t1 - 1)
        let firstPos = s.window.map { max(0, firstPosition + t0 - $0 + 1) } ?? 0
        let blocks = splitRange((firstPos / B)..<(lastPos / B + 1), index: split, count: work.splits)
        for i in 0..<slots { mx[i] = -.infinity; sm[i] = 0 }
        o.initialize(repeating: 0, count: slots * headDim)

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
            let step = TileStep(work: work, kvHead: kvHead, firstToken: t0, base: base, tileLast: tileLast,
                                keys: kf, values: vf, scores: sc, outputs: o, maxima: mx, sums: sm)
            // Four queries share each key and value load (a last two or three padded with copies);
            // not with non-finite values in the cache, where the shared range would multiply an
            // infinity by a zero weight.
            var i = 0
            if !exact {
                while i + 4 <= nQ { fourQueries(step, i, count: 4); i += 4 }
                if nQ - i >= 2 { fourQueries(step, i, count: nQ - i); i = nQ }
            }
            while i < nQ { oneQuery(step, i); i += 1 }
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
}
