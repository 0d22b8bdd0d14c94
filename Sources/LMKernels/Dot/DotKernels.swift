import LMGGUF

/// One weight type's entry in the kernel table: its activation format and its matrix loops,
/// specialised for the type, so a matmul dispatches on the format once rather than per block.
struct DotKernel: Sendable {
    let activationFormat: ActivationFormat
    /// `y[r] = w[r] · x[token]` for `r` in the range.
    let matVec: @Sendable (WeightMatrix, QuantizedActivations, Int, UnsafeMutablePointer<Float>, Range<Int>) -> Void
    /// `y[t * w.rows + r] = w[r] · x[t]` for all tokens `t` and `r` in the range.
    let matMul: @Sendable (WeightMatrix, QuantizedActivations, UnsafeMutablePointer<Float>, Range<Int>) -> Void

    init<K: RowKernel>(_ kernel: K.Type) {
        activationFormat = K.activationFormat
        matVec = { w, x, t, y, rows in RowLoops<K>.matVec(w, x, token: t, into: y, rows: rows) }
        matMul = { w, x, y, rows in RowLoops<K>.matMul(w, x, into: y, rows: rows) }
    }
}

/// The per-type kernel table (ggml's `type_traits_cpu` for the types LMSession reads).
enum DotKernels {
    static let f32 = DotKernel(FloatRowKernel<F32Format>.self)
    static let f16 = DotKernel(FloatRowKernel<F16Format>.self)
    static let bf16 = DotKernel(FloatRowKernel<BF16Format>.self)
    static let q4_0 = DotKernel(BlockDot<Q4_0Format>.self)
    #if X86V3 && arch(x86_64)
    static let q4_1 = DotKernel(AVX2BlockDot<Q4_1AVX2>.self)
    #else
    static let q4_1 = DotKernel(BlockDot<Q4_1Format>.self)
    #endif
    #if X86V3 && arch(x86_64)
    static let q5_0 = DotKernel(AVX2BlockDot<Q5_0AVX2>.self)
    #else
    static let q5_0 = DotKernel(BlockDot<Q5_0Format>.self)
    #endif
    static let q5_1 = DotKernel(BlockDot<Q5_1Format>.self)
    #if X86V3 && arch(x86_64)
    static let q8_0 = DotKernel(AVX2BlockDot<Q8_0AVX2>.self)
    #else
    static let q8_0 = DotKernel(BlockDot<Q8_0Format>.self)
    #endif
    static let q8_1 = DotKernel(BlockDot<Q8_1Format>.self)
    #if X86V3 && arch(x86_64)
    static let q4_K = DotKernel(AVX2SuperBlockDot<Q4_KAVX2>.self)
    #else
    static let q4_K = DotKernel(BlockDot<Q4_KFormat>.self)
    #endif
    static let q5_K = DotKernel(BlockDot<Q5_KFormat>.self)
    #if X86V3 && arch(x86_64)
    static let q6_K = DotKernel(AVX2SuperBlockDot<Q6_KAVX2>.self)
    #else
    static let q6_K = DotKernel(BlockDot<Q6_KFormat>.self)
    #endif
    static let q8_K = DotKernel(BlockDot<Q8_KFormat>.self)

    static func kernel(for type: GGMLType) -> DotKernel {
        switch type {
        case .f32: f32
        case .f16: f16
        case .bf16: bf16
        case .q4_0: q4_0
        case .q4_1: q4_1
        case .q5_0: q5_0
        case .q5_1: q5_1
        case .q8_0: q8_0
        case .q8_1: q8_1
        case .q4_K: q4_K
        case .q5_K: q5_K
        case .q6_K: q6_K
        case .q8_K: q8_K
        }
    }
}
