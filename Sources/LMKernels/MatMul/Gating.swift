#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LMKernelsCore

/// The activation of a gated feed-forward, `g = act(g) * u`: SwiGLU (Shazeer 2020) with SiLU for
/// llama-style models, GeGLU with tanh-approximated GELU for Gemma.
public enum Gating: Sendable {
    case silu, geluTanh

    /// `g[i] = act(g[i]) * u[i]` for `i` in `rows`.
    @inline(__always)
    public func apply(_ g: UnsafeMutablePointer<Float>, _ u: UnsafePointer<Float>, _ rows: Range<Int>) {
        switch self {
        case .silu:
            for i in rows { let x = g[i]; g[i] = x / (1 + expf(-x)) * u[i] }
        case .geluTanh:
            for i in rows {
                let x = g[i]
                let inner: Float = 0.797_884_560_8 * (x + 0.044_715 * x * x * x)
                g[i] = 0.5 * x * (1 + tanhf(inner)) * u[i]
            }
        }
    }
}
