import LMKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Causal grouped-query attention (GQA: `nHead` query heads share `nKVHead` key/value heads) over
/// the f16 KV cache, optionally restricted to a sliding window.
///
/// One work unit is one KV head with the query heads of up to ``tokensPerUnit`` tokens that read
/// it, so each cached key and value is converted from f16 once for all of them. Keys and values
/// are read in tiles of ``tilePositions`` positions with an online softmax (running max and sum
/// per query, as FlashAttention, Dao et al. 2022), so scratch does not grow with the context.
/// When one chunk of tokens leaves threads idle (decode), the positions are split across threads
/// and the partial results merged (flash-decoding).
package struct Attention: Sendable {
    package let nHead: Int
    package let nKVHead: Int
    package let headDim: Int
    package let scale: Float
    /// Keys at distance `window` or more behind the query are masked (`nil`: all earlier keys).
    package let window: Int?
    /// Scores become `softcap · tanh(score / softcap)` before the softmax (Gemma 2); 0: no cap.
    package let softcap: Float

    package init(nHead: Int, nKVHead: Int, headDim: Int, scale: Float, window: Int?, softcap: Float = 0) {
        self.nHead = nHead
        self.nKVHead = nKVHead
        self.headDim = headDim
        self.scale = scale
        self.window = window
        self.softcap = softcap
    }

    /// Query heads per KV head.
    var group: Int { nHead / nKVHead }
    /// Query tokens attended together per KV head: about 16 queries per unit.
    var tokensPerUnit: Int { max(1, 16 / group) }
    /// Queries per unit at most.
    var maxQueries: Int { tokensPerUnit * group }
    /// Positions per tile: 2048 converted floats each for keys and values.
    var tilePositions: Int { max(KVCache.block, 2048 / max(headDim, 1) / KVCache.block * KVCache.block) }
    /// Scratch floats one thread uses: converted keys and values `[tilePositions, headDim]` each,
    /// scores `[maxQueries, tilePositions]`, outputs `[maxQueries, headDim]`, max and sum `[maxQueries]` each.
    var threadScratch: Int { 2 * tilePositions * headDim + maxQueries * (tilePositions + headDim + 2) }
    /// Floats of one split's partial result per KV head: `[maxQueries, headDim + 2]`.
    var partialSize: Int { maxQueries * (headDim + 2) }

    /// Scratch floats ``callAsFunction(q:nTokens:firstPosition:layer:cache:out:scores:_:)`` needs
    /// with `threads` threads: per-thread workspaces, then the split partials
    /// `[threads, nKVHead, maxQueries, headDim + 2]`.
    package func scratchCount(threads: Int) -> Int {
        threads * threadScratch + threads * nKVHead * partialSize
    }

    /// ``scratchCount(threads:)`` for a model's attention (the window and scale do not matter).
    static func scratchCount(nHead: Int, nKVHead: Int, headDim: Int, threads: Int) -> Int {
        Attention(nHead: nHead, nKVHead: nKVHead, headDim: headDim, scale: 1, window: nil).scratchCount(threads: threads)
    }

    /// How one call is cut into work units.
    struct Plan {
        /// Threads the scratch is laid out for.
        let threads: Int
        let tokenChunks: Int
        let splits: Int
        let units: Int
    }

    func plan(nTokens: Int, firstPosition: Int, threads: Int) -> Plan {
        let chunks = (nTokens + tokensPerUnit - 1) / tokensPerUnit
        var splits = 1
        if chunks == 1, threads > 1 {
            // Enough positions per split to amortise the merge: at least 64.
            let last = firstPosition + nTokens - 1
            let first = window.map { max(0, firstPosition - $0 + 1) } ?? 0
            splits = max(1, min(threads, (last - first + 1) / 64))
        }
        return Plan(threads: threads, tokenChunks: chunks, splits: splits, units: nKVHead * chunks * splits)
    }

    /// For `nTokens` queries at positions `firstPosition...` (`q`: `[nTokens, nHead * headDim]`),
    /// attends over cached positions `0...position` of `layer` and writes `out`
    /// (`[nTokens, nHead * headDim]`). `scores` is scratch of ``scratchCount(threads:)`` floats.
    func callAsFunction(q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, layer: Int, cache: KVCache,
                        out: UnsafeMutablePointer<Float>, scores scratch: UnsafeMutablePointer<Float>, _ compute: ComputeResources) {
        let plan = plan(nTokens: nTokens, firstPosition: firstPosition, threads: compute.threads)
        compute.pool.run(parts: compute.threads,
                         job: Units(attention: self, plan: plan, q: q, nTokens: nTokens, firstPosition: firstPosition,
                                    layer: layer, cache: cache, out: out, scratch: scratch))
        if plan.splits > 1 { merge(plan, nTokens: nTokens, out: out, scratch: scratch) }
    }

    /// The plan's units split into one contiguous share per thread (a thread's scratch is its part's).
    private struct Units: ParallelJob {
        let attention: Attention, plan: Plan
        let q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, layer: Int, cache: KVCache
        let out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>

        func run(part: Int, parts: Int) {
            for unit in ThreadPool.chunk(0..<plan.units, index: part, count: parts) {
                attention.attend(unit: unit, plan, q: q, nTokens: nTokens, firstPosition: firstPosition, layer: layer,
                                 cache: cache, out: out, scratch: scratch, thread: part)
            }
        }
    }

    /// The same computation on the calling thread only, as if run with `threads` threads (same
    /// splits): for tests.
    package func serial(q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, layer: Int, cache: KVCache,
                out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, threads: Int) {
        let plan = plan(nTokens: nTokens, firstPosition: firstPosition, threads: threads)
        for unit in 0..<plan.units {
            attend(unit: unit, plan, q: q, nTokens: nTokens, firstPosition: firstPosition, layer: layer, cache: cache,
                   out: out, scratch: scratch, thread: unit % threads)
        }
        if plan.splits > 1 { merge(plan, nTokens: nTokens, out: out, scratch: scratch) }
    }

    /// Combines the splits' partial results `(o, max, sum)` of each query into `out`.
    private func merge(_ plan: Plan, nTokens: Int, out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) {
        let partials = scratch + plan.threads * threadScratch
        let rowSize = nHead * headDim
        for kvHead in 0..<nKVHead {
            for i in 0..<nTokens * group {
                let t = i / group, h = kvHead * group + i % group
                func partial(_ s: Int) -> UnsafeMutablePointer<Float> {
                    partials + (s * nKVHead + kvHead) * partialSize + i * (headDim + 2)
                }
                var m = -Float.infinity
                for s in 0..<plan.splits { m = max(m, partial(s)[headDim]) }
                let o = out + t * rowSize + h * headDim
                o.initialize(repeating: 0, count: headDim)
                var sum: Float = 0
                for s in 0..<plan.splits {
                    let p = partial(s)
                    guard p[headDim + 1] > 0 else { continue }
                    let f = expf(p[headDim] - m)
                    sum += f * p[headDim + 1]
                    VectorMath.axpy(f, p, o, headDim)
                }
                let inv = 1 / sum
                for d in 0..<headDim { o[d] *= inv }
            }
        }
    }
}
