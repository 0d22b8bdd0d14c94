import LMKernels

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Causal grouped-query attention (GQA: `nHead` query heads share `nKVHead` key/value heads) over
/// the f16 KV cache, optionally restricted to a sliding window.
///
/// The work unit (one KV head with the query heads of up to `tokensPerUnit` tokens, keys and
/// values in tiles with an online softmax) is LMKernelsCore's ``AttentionKernel``, run by the
/// context's kernel set so it is compiled for the CPU's instruction set. This plans the units,
/// spreads them over the threads, and, when one chunk of tokens would leave threads idle
/// (decode), splits the positions across threads and merges the partial results (flash-decoding).
package struct Attention: Sendable {
    package let shape: AttentionShape

    package init(nHead: Int, nKVHead: Int, headDim: Int, scale: Float, window: Int?, softcap: Float = 0) {
        shape = AttentionShape(nHead: nHead, nKVHead: nKVHead, headDim: headDim, scale: scale, window: window, softcap: softcap)
    }

    package var nHead: Int { shape.nHead }
    package var nKVHead: Int { shape.nKVHead }
    package var headDim: Int { shape.headDim }
    package var scale: Float { shape.scale }
    package var window: Int? { shape.window }
    /// `softcap · tanh(score / softcap)` before the softmax when non-zero (Gemma 2).
    package var softcap: Float { shape.softcap }
    /// Query heads per KV head.
    var group: Int { shape.group }

    /// Scratch floats ``callAsFunction(q:nTokens:firstPosition:layer:cache:out:scores:_:)`` needs
    /// with `threads` threads: per-thread workspaces, then the split partials
    /// `[threads, nKVHead, maxQueries, headDim + 2]`.
    package func scratchCount(threads: Int) -> Int {
        threads * shape.threadScratch + threads * shape.nKVHead * shape.partialSize
    }

    /// ``scratchCount(threads:)`` for a model's attention (the window and scale do not matter).
    static func scratchCount(nHead: Int, nKVHead: Int, headDim: Int, threads: Int) -> Int {
        Attention(nHead: nHead, nKVHead: nKVHead, headDim: headDim, scale: 1, window: nil).scratchCount(threads: threads)
    }

    /// The work of one call: token chunks, and position splits when one chunk leaves threads idle.
    func work(q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, bidirectional: Range<Int>, layer: Int, cache: KVCache,
              out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, threads: Int) -> AttentionWork {
        let chunks = (nTokens + shape.tokensPerUnit - 1) / shape.tokensPerUnit
        var splits = 1
        if chunks == 1, threads > 1 {
            // Enough positions per split to amortise the merge: at least 16 (with fewer KV heads
            // than threads, no split would leave threads idle for the whole call).
            let last = AttentionWork.lastVisible(firstPosition + nTokens - 1, bidirectional: bidirectional)
            let first = window.map { max(0, firstPosition - $0 + 1) } ?? 0
            splits = max(1, min(threads, (last - first + 1) / 16))
        }
        return AttentionWork(shape: shape, threads: threads, tokenChunks: chunks, splits: splits, q: q, nTokens: nTokens,
                             firstPosition: firstPosition, kv: cache.layerView(layer), out: out, scratch: scratch,
                             bidirectional: bidirectional)
    }

    /// For `nTokens` queries at positions `firstPosition...` (`q`: `[nTokens, nHead * headDim]`),
    /// attends over cached positions `0...position` of `layer` (to the end of `bidirectional` for a query in
    /// that span, whose keys and values must all be cached) and writes `out` (`[nTokens, nHead * headDim]`).
    /// `scores` is scratch of ``scratchCount(threads:)`` floats.
    func callAsFunction(q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, bidirectional: Range<Int> = 0..<0,
                        layer: Int, cache: KVCache, out: UnsafeMutablePointer<Float>, scores scratch: UnsafeMutablePointer<Float>,
                        _ compute: ComputeResources) {
        let work = work(q: q, nTokens: nTokens, firstPosition: firstPosition, bidirectional: bidirectional, layer: layer, cache: cache,
                        out: out, scratch: scratch, threads: compute.threads)
        compute.pool.run(parts: compute.threads, job: Units(work: work, kernels: compute.vector))
        if work.splits > 1 { merge(work) }
    }

    /// The units split into one contiguous share per thread (a thread's scratch is its part's).
    private struct Units: ParallelJob {
        let work: AttentionWork, kernels: VectorKernels

        func run(part: Int, parts: Int) {
            for unit in ThreadPool.chunk(0..<work.units, index: part, count: parts) {
                kernels.attend(work, unit, part)
            }
        }
    }

    /// The same computation on the calling thread only, as if run with `threads` threads (same
    /// splits) with `kernels` (default: the process's): for tests.
    package func serial(q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, bidirectional: Range<Int> = 0..<0,
                        layer: Int, cache: KVCache, out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>,
                        threads: Int, kernels: KernelSet = .active) {
        let work = work(q: q, nTokens: nTokens, firstPosition: firstPosition, bidirectional: bidirectional, layer: layer, cache: cache,
                        out: out, scratch: scratch, threads: threads)
        let vector = kernels.vectorKernels
        for unit in 0..<work.units { vector.attend(work, unit, unit % threads) }
        if work.splits > 1 { merge(work) }
    }

    /// Combines the splits' partial results `(o, max, sum)` of each query into `out`.
    private func merge(_ work: AttentionWork) {
        let rowSize = nHead * headDim
        for kvHead in 0..<nKVHead {
            for i in 0..<work.nTokens * group {
                let t = i / group, h = kvHead * group + i % group
                var m = -Float.infinity
                for s in 0..<work.splits { m = max(m, work.partial(split: s, kvHead: kvHead, query: i)[headDim]) }
                let o = out(work, t, h, rowSize)
                o.initialize(repeating: 0, count: headDim)
                var sum: Float = 0
                for s in 0..<work.splits {
                    let p = work.partial(split: s, kvHead: kvHead, query: i)
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

    private func out(_ work: AttentionWork, _ t: Int, _ h: Int, _ rowSize: Int) -> UnsafeMutablePointer<Float> {
        work.out + t * rowSize + h * headDim
    }
}
