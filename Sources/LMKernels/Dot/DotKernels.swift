import LMGGUF
import LMKernelsCore
#if arch(x86_64)
import LMKernelsAVX2
import LMKernelsVNNI
#endif

/// The per-type kernel tables (ggml's `type_traits_cpu` for the types LMSession reads): the
/// portable one, and per ``KernelSet`` the types that set has its own kernels for.
enum DotKernels {
    /// The portable kernels: Swift SIMD code compiled for the baseline target, the fallback for
    /// every type and the reference the fast kernels are tested against.
    static let f32 = floatEntry(F32Format.self)
    static let f16 = floatEntry(F16Format.self)
    static let bf16 = floatEntry(BF16Format.self)
    static let q4_0 = entry(BlockDot<Q4_0Format>.self)
    static let q4_1 = entry(BlockDot<Q4_1Format>.self)
    static let q5_0 = entry(BlockDot<Q5_0Format>.self)
    static let q5_1 = entry(BlockDot<Q5_1Format>.self)
    static let q8_0 = entry(BlockDot<Q8_0Format>.self)
    static let q4_K = entry(BlockDot<Q4_KFormat>.self)
    static let q5_K = entry(BlockDot<Q5_KFormat>.self)
    static let q6_K = entry(BlockDot<Q6_KFormat>.self)

    /// The table entry of row kernel `K`, with its loops specialised in this module.
    private static func entry<K: RowKernel>(_: K.Type) -> DotKernel {
        DotKernel(activationFormat: K.activationFormat,
                  matVec: { w, x, t, y, rows in RowLoops<K>.matVec(w, x, token: t, into: y, rows: rows) },
                  matMul: { w, x, y, rows in RowLoops<K>.matMul(w, x, into: y, rows: rows) })
    }

    /// The table entry of float weights: their prefill converts each tile of rows once (``FloatMatMul``).
    private static func floatEntry<F: FloatFormat>(_: F.Type) -> DotKernel {
        DotKernel(activationFormat: FloatRowKernel<F>.activationFormat,
                  matVec: { w, x, t, y, rows in RowLoops<FloatRowKernel<F>>.matVec(w, x, token: t, into: y, rows: rows) },
                  matMul: { w, x, y, rows in FloatMatMul<F>.matMul(w, x, into: y, rows: rows) })
    }

    /// The portable kernel of a weight type. Q8_1 and Q8_K are activation formats only: the GGUF
    /// reader rejects them as tensor types, so no weight matrix has them (a programmer error).
    static func portable(_ type: GGMLType) -> DotKernel {
        switch type {
        case .f32: f32
        case .f16: f16
        case .bf16: bf16
        case .q4_0: q4_0
        case .q4_1: q4_1
        case .q5_0: q5_0
        case .q5_1: q5_1
        case .q8_0: q8_0
        case .q4_K: q4_K
        case .q5_K: q5_K
        case .q6_K: q6_K
        case .q8_1, .q8_K: preconditionFailure("\(type) is not a weight type (the GGUF reader rejects it)")
        }
    }

    /// The kernel for `type` in `set`, falling back to the portable one for types the set has no
    /// kernel of its own for. - Precondition: `set.isSupported` (the caller checked the CPU).
    static func kernel(for type: GGMLType, in set: KernelSet = .active) -> DotKernel {
        switch set {
        case .portable:
            return portable(type)
        case .avx2:
            #if arch(x86_64)
            return LMKernelsAVX2.AVX2Kernels.kernel(for: type) ?? portable(type)
            #else
            return portable(type)
            #endif
        case .avx512vnni:
            #if arch(x86_64)
            return LMKernelsVNNI.AVX2Kernels.kernel(for: type) ?? portable(type)
            #else
            return portable(type)
            #endif
        }
    }

    /// The portable float-vector kernels (activations, attention), for the baseline target.
    static let portableVector = VectorKernels(
        gate: { activation, g, u, rows in activation.apply(g, u, rows) },
        attend: { work, unit, thread in AttentionKernel<PortableMultiplyAdd, PortableHalves>.attend(work, unit: unit, thread: thread) },
        halves: { src, dst, count in HalfRows<PortableHalves>.convert(src, dst, count: count) },
        attendAll: { work, tokens, scores in FullAttentionKernel<PortableMultiplyAdd>.attend(work, tokens: tokens, scores: scores) })

    /// `set`'s float-vector kernels. - Precondition: `set.isSupported`.
    static func vector(in set: KernelSet) -> VectorKernels {
        switch set {
        case .portable:
            return portableVector
        case .avx2:
            #if arch(x86_64)
            return LMKernelsAVX2.AVX2Kernels.vector
            #else
            return portableVector
            #endif
        case .avx512vnni:
            #if arch(x86_64)
            return LMKernelsVNNI.AVX2Kernels.vector
            #else
            return portableVector
            #endif
        }
    }

    /// Weight types `set` has kernels of its own for (empty for `.portable`).
    static func ownTypes(_ set: KernelSet) -> [GGMLType] {
        switch set {
        case .portable:
            return []
        case .avx2:
            #if arch(x86_64)
            return GGMLType.allCases.filter { LMKernelsAVX2.AVX2Kernels.kernel(for: $0) != nil }
            #else
            return []
            #endif
        case .avx512vnni:
            #if arch(x86_64)
            return GGMLType.allCases.filter { LMKernelsVNNI.AVX2Kernels.kernel(for: $0) != nil }
            #else
            return []
            #endif
        }
    }
}
