/// The activation of a gated feed-forward, `g = act(g) * u`: SwiGLU (Shazeer 2020) with SiLU for
/// llama-style models, GeGLU with tanh-approximated GELU for Gemma.
///
/// Both are computed through one vector exponential: `silu(x) = x / (1 + e^-x)`, and
/// `gelu_tanh(x) = 0.5·x·(1 + tanh(u)) = x / (1 + e^(-2u))` with `u = √(2/π)·(x + 0.044715·x³)`
/// (the same identity, `tanh(u) = 2σ(2u) - 1`), so no per-element libm call runs.
public enum Gating: Sendable {
    case silu, geluTanh

    /// `g[i] = act(g[i]) * u[i]` for `i` in `rows`.
    @inlinable @inline(__always)
    public func apply(_ g: UnsafeMutablePointer<Float>, _ u: UnsafePointer<Float>, _ rows: Range<Int>) {
        var i = rows.lowerBound
        while i + 8 <= rows.upperBound {
            let x = UnsafeRawPointer(g + i).loadUnaligned(as: SIMD8<Float>.self)
            let up = UnsafeRawPointer(u + i).loadUnaligned(as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(g + i).storeBytes(of: activate(x) * up, as: SIMD8<Float>.self)
            i += 8
        }
        if i < rows.upperBound {
            var x = SIMD8<Float>(), up = SIMD8<Float>()
            for j in i..<rows.upperBound { x[j - i] = g[j]; up[j - i] = u[j] }
            let y = activate(x) * up
            for j in i..<rows.upperBound { g[j] = y[j - i] }
        }
    }

    /// `act(x)` lane by lane.
    @inlinable @inline(__always)
    public func activate(_ x: SIMD8<Float>) -> SIMD8<Float> {
        switch self {
        case .silu:
            return x / (1 + vectorExp(-x))
        case .geluTanh:
            let u = 0.797_884_560_8 * (x + 0.044_715 * x * x * x)
            return x / (1 + vectorExp(-2 * u))
        }
    }
}
