import LMGGUF
import LMKernelsCore

/// Matrix products of quantized weights with activations: `y = W x` for weights `W`
/// `[rows, cols]` (a ``WeightMatrix`` in any GGUF type LMSession reads) and activations
/// prepared by ``QuantizedActivations`` in `activationFormat(for: w.type)`.
///
/// Results follow ggml's pairing of weight and activation formats (Q4_1·Q8_1, Q4_K·Q8_K, ...),
/// so they match llama.cpp's CPU results up to Float summation order.
public enum MatMul {
    /// `y[r] = Σ_c w[r, c] * x[token, c]` for `r` in `rows` (decode: one token).
    ///
    /// - Parameters:
    ///   - y: the full output vector `[w.rows]`; only `y[rows]` is written.
    ///   - kernels: the kernel set (default: the process's ``KernelSet/active``); another
    ///     supported set is for comparing results.
    /// - Precondition: `x.format == activationFormat(for: w.type)`, `x.cols == w.cols`,
    ///   `token < x.nTokens`, `rows` within `0..<w.rows` (programmer errors; they trap).
    public static func matVec(_ w: WeightMatrix, _ x: QuantizedActivations, token: Int = 0,
                              into y: UnsafeMutablePointer<Float>, rows: Range<Int>, kernels: KernelSet = .active) {
        let kernel = DotKernels.kernel(for: w.type, in: kernels)
        check(w, x, kernel, rows)
        precondition(token >= 0 && token < x.nTokens, "token \(token) out of 0..<\(x.nTokens)")
        kernel.matVec(w, x.rows, token, y, rows)
    }

    /// `y[t, r] = Σ_c w[r, c] * x[t, c]` for all `x.nTokens` tokens and `r` in `rows`
    /// (prefill), tiled so each weight row is decoded once per four tokens.
    ///
    /// - Parameters:
    ///   - y: the full output `[x.nTokens, w.rows]`; only columns `rows` are written.
    /// - Precondition: as ``matVec(_:_:token:into:rows:kernels:)``.
    public static func matMul(_ w: WeightMatrix, _ x: QuantizedActivations,
                              into y: UnsafeMutablePointer<Float>, rows: Range<Int>, kernels: KernelSet = .active) {
        let kernel = DotKernels.kernel(for: w.type, in: kernels)
        check(w, x, kernel, rows)
        kernel.matMul(w, x.rows, y, rows)
    }

    /// `y = x Wᵀ`: quantizes `x` `[nTokens, w.cols]` into `scratch`, then splits the rows of `w`
    /// across `pool`. `y` is `[nTokens, w.rows]`.
    ///
    /// - Parameters:
    ///   - independentRows: compute each token's row exactly as a one-token product would (see
    ///     ``multiply(_:quantized:into:pool:kernels:independentRows:)``).
    /// - Precondition: `scratch` holds at least `[nTokens, w.cols]`.
    public static func multiply(_ w: WeightMatrix, x: UnsafePointer<Float>, nTokens: Int,
                                into y: UnsafeMutablePointer<Float>, scratch: QuantizedActivations,
                                pool: ThreadPool, kernels: KernelSet = .active, independentRows: Bool = false) {
        scratch.quantize(x, nTokens: nTokens, cols: w.cols, format: activationFormat(for: w.type), pool: pool)
        multiply(w, quantized: scratch, into: y, pool: pool, kernels: kernels, independentRows: independentRows)
    }

    /// `y = x Wᵀ` for activations already quantized in `activationFormat(for: w.type)` (lets
    /// projections that share an input and a type, such as Q, K and V, quantize it once).
    /// `y` is `[x.nTokens, w.rows]`.
    ///
    /// - Parameters:
    ///   - independentRows: when true, every token's row of `y` is bit for bit what a one-token
    ///     product of that row computes (``matVec(_:_:token:into:rows:kernels:)``, same thread
    ///     split), whatever `x.nTokens`: a batched decode step over many sequences then matches each
    ///     sequence decoding alone. The prefill tiles (8+ tokens) sum in another Float order. Each
    ///     stretch of 32 weight rows is still read once for all tokens, while it sits in cache.
    public static func multiply(_ w: WeightMatrix, quantized x: QuantizedActivations,
                                into y: UnsafeMutablePointer<Float>, pool: ThreadPool, kernels: KernelSet = .active,
                                independentRows: Bool = false) {
        let kernel = DotKernels.kernel(for: w.type, in: kernels)
        check(w, x, kernel, 0..<w.rows)
        // Chunks of whole 16-row tiles keep the matMul tiles intact and threads' outputs apart.
        guard x.nTokens > 0 else { return }
        pool.parallelFor(0..<w.rows, alignment: 16, job: Rows(kernel: kernel, w: w, x: x, y: y, independentRows: independentRows))
    }

    /// Rows of one product, as a pool job (decode: one token; prefill: tiles of tokens; a batched
    /// decode step: one-token products per token, see `independentRows`).
    struct Rows: ParallelRangeJob {
        let kernel: DotKernel, w: WeightMatrix, x: QuantizedActivations, y: UnsafeMutablePointer<Float>
        var independentRows = false

        /// Runs the rows of `w` that fall in `rows` of a concatenated row space where `w`
        /// occupies `offset..<end` (`offset` 0 and `end` `w.rows` for a single product).
        @inline(__always)
        func run(_ rows: Range<Int>, offset: Int, end: Int) {
            let lo = max(rows.lowerBound, offset), hi = min(rows.upperBound, end)
            guard lo < hi else { return }
            if x.nTokens == 1 {
                kernel.matVec(w, x.rows, 0, y, (lo - offset)..<(hi - offset))
            } else if independentRows {
                kernel.matVecs(w, x.rows, y, (lo - offset)..<(hi - offset))
            } else {
                kernel.matMul(w, x.rows, y, (lo - offset)..<(hi - offset))
            }
        }

        func run(_ rows: Range<Int>) { run(rows, offset: 0, end: w.rows) }
    }

    /// `y[r] = Σ_c w[r, c] * x[c]` for `r` in `rows`, all in Float: for small F32 weights
    /// `[rowCount, cols]` used with unquantized activations `[cols]`.
    public static func matVecF32(_ w: UnsafePointer<Float>, cols: Int, x: UnsafePointer<Float>,
                                 into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let row = UnsafeRawPointer(w)
        for r in rows { y[r] = FloatDot<F32Format>.dot(row + 4 * r * cols, x, cols: cols) }
    }

    static func check(_ w: WeightMatrix, _ x: QuantizedActivations, _ kernel: DotKernel,
                              _ rows: Range<Int>) {
        precondition(x.format == kernel.activationFormat,
                     "\(w.type) weights need \(kernel.activationFormat) activations, got \(x.format)")
        precondition(x.cols == w.cols, "activations have \(x.cols) columns, weights \(w.cols)")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= w.rows, "rows \(rows) out of 0..<\(w.rows)")
    }
}
