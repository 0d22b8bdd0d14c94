#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LMKernels

extension Attention {
    /// The plain definition the tiled path is tested against: for each query head, scores
    /// `q·k · scale` (capped as `softcap · tanh(s / softcap)` when set) over its causal (and window) range, or
    /// to the end of `bidirectional` for a query in it, softmax, weighted sum of values, one position and one
    /// element at a time, in Double. Same arguments as
    /// ``callAsFunction(q:nTokens:firstPosition:bidirectional:layer:cache:out:scores:_:)``; no scratch.
    package func reference(q: UnsafePointer<Float>, nTokens: Int, firstPosition: Int, bidirectional: Range<Int> = 0..<0,
                           layer: Int, cache: KVCache, out: UnsafeMutablePointer<Float>) {
        let rowSize = nHead * headDim, B = KVCache.block
        for t in 0..<nTokens {
            let pos = firstPosition + t
            let start = window.map { max(0, pos - $0 + 1) } ?? 0
            let last = AttentionWork.lastVisible(pos, bidirectional: bidirectional)
            for h in 0..<nHead {
                let kvHead = h / group, qh = q + t * rowSize + h * headDim
                var scores: [Double] = []
                for j in start...last {
                    let k = cache.keyBlock(layer, j / B, kvHead)
                    var dot = 0.0
                    for d in 0..<headDim { dot += Double(qh[d]) * Double(halfToFloat(k[d * B + j % B])) }
                    let scaled = dot * Double(scale)
                    scores.append(softcap == 0 ? scaled : Double(softcap) * Foundation.tanh(scaled / Double(softcap)))
                }
                let m = scores.max() ?? 0
                let weights = scores.map { Foundation.exp($0 - m) }
                let sum = weights.reduce(0, +)
                for d in 0..<headDim {
                    var acc = 0.0
                    for (i, j) in (start...last).enumerated() {
                        acc += weights[i] * Double(halfToFloat(cache.value(layer, j)[kvHead * headDim + d]))
                    }
                    out[t * rowSize + h * headDim + d] = Float(acc / sum)
                }
            }
        }
    }
}

import Foundation
