import LMGGUF
import LMKernelsCore

/// Preallocated activations for one matmul input, quantized into the format its weights pair
/// with. Allocated once for at most `[maxTokens, maxCols]` and reused: quantizing allocates nothing.
///
/// Storage is structure-of-arrays (not ggml's interleaved blocks) and the 8-bit quants are kept
/// sign-extended to Int16, so kernels feed them straight into 16-bit multiplies for every weight
/// row without re-widening them; the values equal ggml's `quantize_row_q8_*`. Within each block
/// of 32 the quants are stored in even/odd order (quants 0, 2, ..., 30, then 1, 3, ..., 31):
/// every GGUF weight format keeps weight `i` in byte `i` (or a nibble or bits of it), so a weight
/// row read as 16-bit lanes splits into even and odd weights with shifts alone, no byte unpacking.
/// For token `t` of the current contents (`cols` values per token):
/// - `quants`  `[nTokens, cols]` Int16 holding Int8 values, even/odd order per 32,
/// - `scales`  `[nTokens, cols / blockSize]` Float (f16-rounded for Q8_0/Q8_1),
/// - `sums`    `[nTokens, cols / 32]` Float, Q8_1's `s = d * Σq` (f16-rounded),
/// - `bsums`   `[nTokens, cols / 16]` Int16, Q8_K's sums of 16 quants,
/// - `groupSums` `[nTokens, cols / 32]` Int16, sums of 32 quants: Q8_0's per block, Q8_K's per
///   group (pairs of `bsums`),
/// - `floats`  `[nTokens, cols]` Float, only for `.f32`,
/// - `bytes`   `[nTokens, cols]` Int8 in natural order, Q8_0/Q8_1/Q8_K only, for the kernels that
///   multiply bytes directly (AVX2's `vpmaddubsw`).
///
/// `@unchecked Sendable`: the buffers are written by one thread in `quantize` and only read while
/// a matmul shares them across the pool; callers must not quantize during a matmul.
public final class QuantizedActivations: @unchecked Sendable {
    public let maxTokens: Int
    public let maxCols: Int
    /// Format of the current contents.
    public private(set) var format: ActivationFormat = .f32
    /// Tokens in the current contents.
    public private(set) var nTokens: Int = 0
    /// Values per token in the current contents.
    public private(set) var cols: Int = 0

    let quants: UnsafeMutablePointer<Int16>
    let scales: UnsafeMutablePointer<Float>
    let sums: UnsafeMutablePointer<Float>
    let bsums: UnsafeMutablePointer<Int16>
    let groupSums: UnsafeMutablePointer<Int16>
    let floats: UnsafeMutablePointer<Float>
    let bytes: UnsafeMutablePointer<Int8>

    /// - Precondition: `maxTokens > 0`, `maxCols > 0`.
    public init(maxTokens: Int, maxCols: Int) {
        precondition(maxTokens > 0 && maxCols > 0, "QuantizedActivations needs a positive capacity")
        self.maxTokens = maxTokens
        self.maxCols = maxCols
        let n = maxTokens * maxCols
        quants = .allocate(capacity: n + 64)
        scales = .allocate(capacity: n / 16 + 64)
        sums = .allocate(capacity: n / 16 + 64)
        bsums = .allocate(capacity: n / 16 + 64)
        groupSums = .allocate(capacity: n / 32 + 64)
        floats = .allocate(capacity: n + 64)
        bytes = .allocate(capacity: n + 64)
    }

    deinit {
        quants.deallocate()
        scales.deallocate()
        sums.deallocate()
        bsums.deallocate()
        groupSums.deallocate()
        floats.deallocate()
        bytes.deallocate()
    }

    /// Quantizes `x` (`[nTokens, cols]` Floats, row-major) into `format`, replacing the contents.
    ///
    /// - Precondition: `nTokens <= maxTokens`, `cols <= maxCols`, and `cols` a multiple of
    ///   `format.blockSize` (weights' `cols` always are). Violations are programmer errors and trap.
    public func quantize(_ x: UnsafePointer<Float>, nTokens: Int, cols: Int, format: ActivationFormat) {
        quantize(x, nTokens: nTokens, cols: cols, format: format, pool: nil)
    }

    /// As ``quantize(_:nTokens:cols:format:)``, splitting the tokens across `pool` when there are
    /// enough of them to pay for a dispatch (prefill batches).
    public func quantize(_ x: UnsafePointer<Float>, nTokens: Int, cols: Int, format: ActivationFormat,
                         pool: ThreadPool?) {
        precondition(nTokens >= 0 && nTokens <= maxTokens, "nTokens \(nTokens) exceeds capacity \(maxTokens)")
        precondition(cols > 0 && cols <= maxCols, "cols \(cols) exceeds capacity \(maxCols)")
        precondition(cols % format.blockSize == 0, "cols \(cols) is not a multiple of \(format) blocks")
        self.format = format
        self.nTokens = nTokens
        self.cols = cols
        if let pool, pool.threadCount > 1, nTokens >= 16 {
            pool.parallelFor(0..<nTokens) { tokens in quantizeTokens(x, tokens, cols: cols, format: format) }
        } else {
            quantizeTokens(x, 0..<nTokens, cols: cols, format: format)
        }
    }

    /// Quantizes tokens `tokens` of `x`; each token writes only its own rows of the buffers.
    private func quantizeTokens(_ x: UnsafePointer<Float>, _ tokens: Range<Int>, cols: Int, format: ActivationFormat) {
        for t in tokens {
            let src = x + t * cols
            switch format {
            case .f32:
                (floats + t * cols).update(from: src, count: cols)
            case .q8_0:
                let nb = cols / 32
                for b in 0..<nb {
                    ActivationQuantizer.q8_0Block(src + b * 32, quants: quants + t * cols + b * 32,
                                                  bytes: bytes + t * cols + b * 32, scale: scales + t * nb + b,
                                                  sum: groupSums + t * nb + b)
                }
            case .q8_1:
                let nb = cols / 32
                for b in 0..<nb {
                    ActivationQuantizer.q8_1Block(src + b * 32, quants: quants + t * cols + b * 32,
                                                  bytes: bytes + t * cols + b * 32, scale: scales + t * nb + b, sum: sums + t * nb + b)
                }
            case .q8_K:
                let nb = cols / 256
                for b in 0..<nb {
                    ActivationQuantizer.q8_KBlock(src + b * 256, quants: quants + t * cols + b * 256,
                                                  bytes: bytes + t * cols + b * 256, scale: scales + t * nb + b,
                                                  bsums: bsums + t * (cols / 16) + b * 16, groupSums: groupSums + t * (cols / 32) + b * 8)
                }
            }
        }
    }

    /// Quantizes `x` (`[nTokens, cols]`) into the format weights of `type` pair with
    /// (`activationFormat(for: type)`). - Precondition: as ``quantize(_:nTokens:cols:format:)``.
    public func quantize(_ x: UnsafePointer<Float>, nTokens: Int, cols: Int, for type: GGMLType) {
        quantize(x, nTokens: nTokens, cols: cols, format: activationFormat(for: type))
    }

    /// The current contents as the matrix kernels read them.
    var rows: ActivationRows {
        ActivationRows(format: format, nTokens: nTokens, cols: cols, quants: quants, scales: scales, sums: sums,
                       bsums: bsums, groupSums: groupSums, floats: floats, bytes: bytes)
    }

    // Read access for tests and callers that inspect the quantization (token `t`, index `i`).

    /// Quant `i` of token `t`. - Precondition: `t < nTokens`, `i < cols`, format not `.f32`.
    public func quant(token t: Int, _ i: Int) -> Int8 {
        let j = i & 31
        return Int8(truncatingIfNeeded: quants[t * cols + (i - j) + (j & 1) * 16 + j >> 1])
    }
    /// Scale of block `b` of token `t` (Float; Q8_0/Q8_1 values are f16-representable).
    public func scale(token t: Int, block b: Int) -> Float { scales[t * (cols / format.blockSize) + b] }
    /// Q8_1's `s` of block `b` of token `t`.
    public func blockSum(token t: Int, block b: Int) -> Float { sums[t * (cols / 32) + b] }
    /// Q8_K's sum of quants `16j..<16j+16` of token `t`.
    public func bsum(token t: Int, _ j: Int) -> Int16 { bsums[t * (cols / 16) + j] }
    /// Value `i` of token `t` as the kernels see it: `d * q` for quantized formats.
    public func dequantized(token t: Int, _ i: Int) -> Float {
        format == .f32 ? floats[t * cols + i] : scale(token: t, block: i / format.blockSize) * Float(quant(token: t, i))
    }
}
