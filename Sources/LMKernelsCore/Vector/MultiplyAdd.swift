/// How a kernel module multiplies and adds float vectors: fused (one rounding, one instruction)
/// where the instruction set has FMA, separately where `addingProduct` would become a library call
/// per lane (x86-64 without FMA). Generic code over it is specialised per kernel module.
public protocol MultiplyAdd {
    /// `acc + a * b`.
    static func madd(_ acc: SIMD8<Float>, _ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float>
}

/// `acc + a * b` with two roundings: for instruction sets without FMA.
public enum SeparateMultiplyAdd: MultiplyAdd {
    @inlinable @inline(__always)
    public static func madd(_ acc: SIMD8<Float>, _ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { acc + a * b }
}

/// `acc + a * b` fused: for modules compiled with FMA (x86-64 AVX2 kernels, every arm64).
public enum FusedMultiplyAdd: MultiplyAdd {
    @inlinable @inline(__always)
    public static func madd(_ acc: SIMD8<Float>, _ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { acc.addingProduct(a, b) }
}

#if arch(arm64)
/// The portable kernels' multiply-add: arm64 always has FMA.
public typealias PortableMultiplyAdd = FusedMultiplyAdd
#else
/// The portable kernels' multiply-add: baseline x86-64 has no FMA.
public typealias PortableMultiplyAdd = SeparateMultiplyAdd
#endif
