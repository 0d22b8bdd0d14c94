#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rope.scaling.type`, as llama.cpp names the variants (`llama_rope_scaling_type`).
public enum RoPEScalingType: String, Sendable, CaseIterable {
    /// Never scaled, whatever `rope.scaling.factor` says.
    case none
    /// Positions divided by `rope.scaling.factor` (also what an absent type means).
    case linear
    /// YaRN (Peng et al. 2023): interpolate the low frequencies, extrapolate the high ones, and
    /// scale the rotated vectors by `1 + 0.1 ln(factor)`.
    case yarn
    /// LongRoPE (Phi-3): per-dimension factors from `rope_factors_short`/`rope_factors_long`.
    case longrope
}

/// How one kind of layer rotates queries and keys: the arguments llama.cpp passes to ggml's
/// `rope_ext` (`freq_base`, `freq_scale`, `ext_factor`, `attn_factor`, `n_ctx_orig`, `beta_fast`,
/// `beta_slow`), resolved from the metadata as `llama_context` does.
public struct RoPEParameters: Sendable, Equatable {
    /// Frequency base θ: pair `i` turns by `pos · base^(-2i/dimensions)` before scaling.
    public let base: Float
    /// Dimensions rotated per head (`rope.dimension_count`), even.
    public let dimensions: Int
    /// Multiplies every angle: `1 / rope.scaling.factor` when scaled, else 1.
    public let frequencyScale: Float
    /// YaRN's mix between interpolated and extrapolated angles (1 for YaRN, else 0).
    public let extrapolation: Float
    /// Multiplies the rotated vectors (`attn_factor`: `rope.scaling.attn_factor`, and YaRN's
    /// correction, cancelled here and re-applied per angle as ggml does).
    public let magnitude: Float
    /// The context the model was trained for before scaling (`rope.scaling.original_context_length`).
    public let originalContext: Int
    /// YaRN's ramp ends, in rotations over the original context (llama.cpp's defaults 32 and 1).
    public let betaFast: Float
    public let betaSlow: Float

    public init(base: Float, dimensions: Int, frequencyScale: Float = 1, extrapolation: Float = 0,
                magnitude: Float = 1, originalContext: Int, betaFast: Float = 32, betaSlow: Float = 1) {
        self.base = base
        self.dimensions = dimensions
        self.frequencyScale = frequencyScale
        self.extrapolation = extrapolation
        self.magnitude = magnitude
        self.originalContext = originalContext
        self.betaFast = betaFast
        self.betaSlow = betaSlow
    }

    /// The same with another base (local layers), or without YaRN and scaling.
    func with(base: Float? = nil, frequencyScale: Float? = nil, yarn: Bool = true) -> RoPEParameters {
        RoPEParameters(base: base ?? self.base, dimensions: dimensions, frequencyScale: frequencyScale ?? self.frequencyScale,
                       extrapolation: yarn ? extrapolation : 0, magnitude: yarn ? magnitude : 1,
                       originalContext: originalContext, betaFast: betaFast, betaSlow: betaSlow)
    }

    /// Pairs below `low` are extrapolated, above `high` interpolated, between them mixed
    /// (ggml's `ggml_rope_yarn_corr_dims`).
    var correctionRange: (low: Float, high: Float) {
        func dimension(_ rotations: Float) -> Float {
            Float(dimensions) * logf(Float(originalContext) / (rotations * 2 * Float.pi)) / (2 * logf(base))
        }
        let start = floorf(dimension(betaFast)), end = ceilf(dimension(betaSlow))
        return (max(0, start), min(Float(dimensions - 1), end))
    }

    /// `attn_factor` as `llama_context` derives it: for YaRN `mscale(factor) / (1 + 0.1 ln factor)`
    /// (ggml multiplies the second factor back per angle), times `rope.scaling.attn_factor`.
    static func magnitude(scaling: RoPEScalingType, frequencyScale: Float, attnFactor: Float) -> Float {
        var m: Float = 1
        if scaling == .yarn {
            let factor = 1 / frequencyScale
            m = factor <= 1 ? 1 : 0.1 * logf(factor) + 1
            m *= 1 / (1 + 0.1 * logf(factor))
        }
        return m * attnFactor
    }
}
