import LMKernelsCore

extension BlockDot: RowKernel {
    static var activationFormat: ActivationFormat { F.activationFormat }
}

/// Float weights against the Float copy of the activations.
enum FloatRowKernel<F: FloatFormat>: RowKernel {
    static var activationFormat: ActivationFormat { .f32 }

    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float {
        FloatDot<F>.dot(w, x.floats, cols: cols)
    }

    @inline(__always)
    static func dot4(_ w: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow,
                     _ x2: ActivationRow, _ x3: ActivationRow, cols: Int) -> SIMD4<Float> {
        SIMD4(FloatDot<F>.dot(w, x0.floats, cols: cols), FloatDot<F>.dot(w, x1.floats, cols: cols),
              FloatDot<F>.dot(w, x2.floats, cols: cols), FloatDot<F>.dot(w, x3.floats, cols: cols))
    }
}
