/// The largest of a run of Floats and where it first occurs: greedy sampling over the logits, whose
/// vocabulary (Gemma 3's 262,144 tokens) made a scalar scan a few percent of a decode step.
///
/// Eight lanes each keep their largest value (strictly larger replaces, so each keeps its first
/// occurrence) and its index; the lanes' largest is then taken, the smallest index on ties.
public enum VectorArgmax {
    /// The first index of the largest value of `x[0..<count]` and that value. A NaN is never larger
    /// than anything; when no value is larger than -infinity (all -infinity or NaN) the answer is
    /// index 0. - Precondition: `count >= 1`.
    @inlinable
    public static func find(_ x: UnsafePointer<Float>, count n: Int) -> (index: Int, value: Float) {
        precondition(n >= 1, "argmax of no values")
        var best = SIMD8<Float>(repeating: -.infinity)
        var bestIndex = SIMD8<Int32>(repeating: -1)
        var lanes = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        var i = 0
        if n <= Int(Int32.max) {
            while i + 8 <= n {
                let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD8<Float>.self)
                let larger = v .> best
                best = laneSelect(larger, v, best)
                let m = unsafeBitCast(larger, to: SIMD8<Int32>.self)
                bestIndex = lanes & m | bestIndex & ~m
                lanes &+= 8
                i += 8
            }
        }
        var value = -Float.infinity, index = -1
        for l in 0..<8 where bestIndex[l] >= 0 && (best[l] > value || best[l] == value && Int(bestIndex[l]) < index) {
            value = best[l]
            index = Int(bestIndex[l])
        }
        while i < n {
            if x[i] > value {
                value = x[i]
                index = i
            }
            i += 1
        }
        return index < 0 ? (0, x[0]) : (index, value)
    }
}
