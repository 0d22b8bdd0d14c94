/// One kernel set's float-vector kernels, compiled for its instruction set: the gated
/// feed-forward's activation and the attention work unit. Each kernel module builds its own
/// instance with closures over the `@inlinable` code here (see `DotKernels` and `AVX2Kernels`).
public struct VectorKernels: Sendable {
    /// `g[i] = act(g[i]) * u[i]` for `i` in the range (``Gating/apply(_:_:_:)``).
    public let gate: @Sendable (Gating, UnsafeMutablePointer<Float>, UnsafePointer<Float>, Range<Int>) -> Void
    /// Attention work unit `unit` with thread `thread`'s scratch (``AttentionKernel/attend(_:unit:thread:)``).
    public let attend: @Sendable (AttentionWork, _ unit: Int, _ thread: Int) -> Void
    /// `dst[i] = half(src[i])` for `i < count` (``HalfRows/convert(_:_:count:)``); returns whether
    /// some half is an infinity or NaN.
    public let halves: @Sendable (_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<UInt16>, _ count: Int) -> Bool
    /// The rows of tokens in the range of a non-causal attention (``FullAttentionKernel/attend(_:tokens:scores:)``),
    /// with ``FullAttentionWork/scoresCount`` Floats of scratch.
    public let attendAll: @Sendable (FullAttentionWork, Range<Int>, UnsafeMutablePointer<Float>) -> Void
    /// The first index of the largest of `count` Floats and that value (``VectorArgmax/find(_:count:)``).
    public let argmax: @Sendable (UnsafePointer<Float>, _ count: Int) -> (index: Int, value: Float)

    public init(gate: @escaping @Sendable (Gating, UnsafeMutablePointer<Float>, UnsafePointer<Float>, Range<Int>) -> Void,
                attend: @escaping @Sendable (AttentionWork, Int, Int) -> Void,
                halves: @escaping @Sendable (UnsafePointer<Float>, UnsafeMutablePointer<UInt16>, Int) -> Bool,
                attendAll: @escaping @Sendable (FullAttentionWork, Range<Int>, UnsafeMutablePointer<Float>) -> Void,
                argmax: @escaping @Sendable (UnsafePointer<Float>, Int) -> (index: Int, value: Float) = { VectorArgmax.find($0, count: $1) }) {
        self.gate = gate
        self.attend = attend
        self.halves = halves
        self.attendAll = attendAll
        self.argmax = argmax
    }
}
