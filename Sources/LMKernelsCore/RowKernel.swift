/// A weight type's row kernels: one weight row against one or four activation rows. Generic code
/// over this protocol (``RowLoops``) is `@inlinable`, so each kernel module specialises it with
/// its own instruction set.
public protocol RowKernel: SendableMetatype {
    static var activationFormat: ActivationFormat { get }
    static func dot(_ w: UnsafeRawPointer, _ x: ActivationRow, cols: Int) -> Float
    static func dot4(_ w: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow,
                     _ x2: ActivationRow, _ x3: ActivationRow, cols: Int) -> SIMD4<Float>
}

/// One weight type's entry in a kernel table: its activation format and its matrix loops,
/// specialised for the type (and compiled for the kernel set's instruction set), so a matmul
/// dispatches on the format once rather than per block.
///
/// Each kernel module builds its entries itself, with closures written in that module around
/// ``RowLoops`` of a concrete kernel type (see `DotKernels` and `AVX2Kernels`), so the loops are
/// specialised, and compiled for its instruction set, there.
public struct DotKernel: Sendable {
    public let activationFormat: ActivationFormat
    /// `y[r] = w[r] · x[token]` for `r` in the range.
    public let matVec: @Sendable (WeightMatrix, ActivationRows, Int, UnsafeMutablePointer<Float>, Range<Int>) -> Void
    /// `y[t * w.rows + r] = w[r] · x[t]` for all tokens `t` and `r` in the range.
    public let matMul: @Sendable (WeightMatrix, ActivationRows, UnsafeMutablePointer<Float>, Range<Int>) -> Void
    /// `y[t * w.rows + r]` for all tokens `t` and `r` in the range, each token's values bit for bit
    /// those of `matVec` over the same range (a batched decode step); by default
    /// ``tokenByToken(_:)`` of `matVec`.
    public let matVecs: @Sendable (WeightMatrix, ActivationRows, UnsafeMutablePointer<Float>, Range<Int>) -> Void

    @inlinable
    public init(activationFormat: ActivationFormat,
                 matVec: @escaping @Sendable (WeightMatrix, ActivationRows, Int, UnsafeMutablePointer<Float>, Range<Int>) -> Void,
                 matMul: @escaping @Sendable (WeightMatrix, ActivationRows, UnsafeMutablePointer<Float>, Range<Int>) -> Void,
                 matVecs: (@Sendable (WeightMatrix, ActivationRows, UnsafeMutablePointer<Float>, Range<Int>) -> Void)? = nil) {
        self.activationFormat = activationFormat
        self.matVec = matVec
        self.matMul = matMul
        self.matVecs = matVecs ?? Self.tokenByToken(matVec)
    }

    /// Weight rows swept over every token at a time by ``tokenByToken(_:)``: a multiple of the 8-row
    /// decode tiles, so a stretch splits no tile the one-token product computes whole.
    public static let stretch = 32

    /// `matVec` for every token, ``stretch`` weight rows at a time, so each stretch is read once for
    /// all tokens while it sits in cache.
    @inlinable
    public static func tokenByToken(_ matVec: @escaping @Sendable (WeightMatrix, ActivationRows, Int, UnsafeMutablePointer<Float>, Range<Int>) -> Void)
        -> @Sendable (WeightMatrix, ActivationRows, UnsafeMutablePointer<Float>, Range<Int>) -> Void {
        { w, x, y, rows in
            var r = rows.lowerBound
            while r < rows.upperBound {
                let next = min(rows.upperBound, (r / stretch + 1) * stretch)
                for t in 0..<x.nTokens { matVec(w, x, t, y + t * w.rows, r..<next) }
                r = next
            }
        }
    }
}
