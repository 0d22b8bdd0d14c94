import LMKernels

/// The logits as the sampling filters see them: penalised where a recent token is marked, and only
/// the allowed tokens when there is a token mask. Scans skip whole 8-token chunks that cannot pass
/// a threshold with one vector compare, so a pass over the vocabulary costs little more than
/// reading it.
struct LogitSource {
    /// `[vocabSize]`.
    let logits: UnsafeBufferPointer<Float>
    /// Token mask (bit `i % 64` of word `i / 64`), nil when every token is allowed.
    let allowed: UnsafeBufferPointer<UInt64>?
    /// Penalised tokens as the same kind of bitset, nil when none is.
    let recent: UnsafeBufferPointer<UInt64>?
    /// Positive logits of penalised tokens are divided by it, negative ones multiplied.
    let penalty: Float

    /// The active kernel set's argmax, looked up once.
    private static let vectorArgmax = KernelSet.active.vectorKernels.argmax

    /// Token `i`'s logit after the repetition penalty.
    @inline(__always)
    func value(_ i: Int) -> Float {
        let l = logits[i]
        guard let recent, recent[i >> 6] >> UInt64(i & 63) & 1 != 0 else { return l }
        return l > 0 ? l / penalty : l * penalty
    }

    /// The allowed token with the highest (penalised) logit, the first one on ties; nil when the
    /// mask allows no token.
    func argmax() -> (Int, Float)? {
        if allowed == nil, recent == nil, let base = logits.baseAddress, logits.count > 0 {
            // Nothing masked or penalised: the kernel set's vector argmax (the same answer, first on ties).
            let (index, value) = Self.vectorArgmax(base, logits.count)
            return (index, value)
        }
        var best = -1
        var bestValue = -Float.infinity
        scan(atLeast: -Float.infinity) { i, v in
            if best < 0 || v > bestValue { best = i; bestValue = v }
            return bestValue
        }
        return best < 0 ? nil : (best, bestValue)
    }

    /// Calls `body(token, value)` in token order for every allowed token whose penalised value may
    /// be at least the threshold, which `body` returns (it can raise it as it goes). Tokens below
    /// the threshold may be skipped; `body` must still check.
    @inline(__always)
    func scan(atLeast initial: Float, _ body: (Int, Float) -> Float) {
        var threshold = initial
        let n = logits.count
        let base = logits.baseAddress!
        // Penalised tokens may move either way (a penalty below 1 raises them): never skip them.
        @inline(__always) func hasRecent8(_ i: Int) -> Bool {
            guard let recent else { return false }
            return (recent[i >> 6] >> UInt64(i & 63)) & 0xff != 0
        }
        @inline(__always) func chunk8(_ i: Int) {
            let v = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD8<Float>.self)
            // A lane-wise max and a scalar compare: `any(v .>= t)` built its mask lane by lane through
            // the stack for the baseline target (a tenth of Gemma's decode went to argmax).
            let h = pointwiseMax(v.lowHalf, v.highHalf)
            guard Swift.max(Swift.max(h[0], h[1]), Swift.max(h[2], h[3])) >= threshold || hasRecent8(i) else { return }
            for j in i..<(i + 8) {
                let x = value(j)
                if x >= threshold { threshold = body(j, x) }
            }
        }
        if let allowed {
            for w in 0..<min(allowed.count, (n + 63) >> 6) {
                var bits = allowed[w]
                let first = w << 6
                if bits == ~0, first + 64 <= n {
                    for c in 0..<8 { chunk8(first + 8 * c) }
                    continue
                }
                while bits != 0 {
                    let i = first + bits.trailingZeroBitCount
                    bits &= bits &- 1
                    guard i < n else { break }
                    let x = value(i)
                    if x >= threshold { threshold = body(i, x) }
                }
            }
        } else {
            var i = 0
            while i + 8 <= n {
                chunk8(i)
                i += 8
            }
            while i < n {
                let x = value(i)
                if x >= threshold { threshold = body(i, x) }
                i += 1
            }
        }
    }
}
