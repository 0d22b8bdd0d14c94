/// One token's activations as the dot kernels read them (storage described in
/// `LMKernels.QuantizedActivations`): `quants` Int16 in even/odd order per 32, `scales` per block,
/// Q8_1's `sums`, Q8_K's `bsums` (per 16) and `groupSums` (per 32), the `floats` for F32
/// pairings, and `bytes`, the same quants as Int8 in natural order for byte-multiply kernels.
public struct ActivationRow {
    public let quants: UnsafePointer<Int16>
    public let scales: UnsafePointer<Float>
    public let sums: UnsafePointer<Float>
    public let bsums: UnsafePointer<Int16>
    public let groupSums: UnsafePointer<Int16>
    public let floats: UnsafePointer<Float>
    public let bytes: UnsafePointer<Int8>

    @inlinable
    public init(quants: UnsafePointer<Int16>, scales: UnsafePointer<Float>, sums: UnsafePointer<Float>,
                 bsums: UnsafePointer<Int16>, groupSums: UnsafePointer<Int16>, floats: UnsafePointer<Float>,
                 bytes: UnsafePointer<Int8>) {
        self.quants = quants
        self.scales = scales
        self.sums = sums
        self.bsums = bsums
        self.groupSums = groupSums
        self.floats = floats
        self.bytes = bytes
    }
}

/// A view of quantized activations `[nTokens, cols]` in one ``ActivationFormat``: what a matrix
/// kernel receives. Base pointers are those of token 0; token `t` is at `t * cols` values
/// (`t * cols / blockSize` blocks) from them.
public struct ActivationRows {
    public let format: ActivationFormat
    public let nTokens: Int
    public let cols: Int
    public let quants: UnsafePointer<Int16>
    public let scales: UnsafePointer<Float>
    public let sums: UnsafePointer<Float>
    public let bsums: UnsafePointer<Int16>
    public let groupSums: UnsafePointer<Int16>
    public let floats: UnsafePointer<Float>
    public let bytes: UnsafePointer<Int8>

    @inlinable
    public init(format: ActivationFormat, nTokens: Int, cols: Int, quants: UnsafePointer<Int16>,
                 scales: UnsafePointer<Float>, sums: UnsafePointer<Float>, bsums: UnsafePointer<Int16>,
                 groupSums: UnsafePointer<Int16>, floats: UnsafePointer<Float>, bytes: UnsafePointer<Int8>) {
        self.format = format
        self.nTokens = nTokens
        self.cols = cols
        self.quants = quants
        self.scales = scales
        self.sums = sums
        self.bsums = bsums
        self.groupSums = groupSums
        self.floats = floats
        self.bytes = bytes
    }

    /// Token `t`'s row.
    @inlinable @inline(__always)
    public func row(_ t: Int) -> ActivationRow {
        let nb = cols / format.blockSize
        return ActivationRow(quants: quants + t * cols, scales: scales + t * nb, sums: sums + t * (cols / 32),
                             bsums: bsums + t * (cols / 16), groupSums: groupSums + t * (cols / 32),
                             floats: floats + t * cols, bytes: bytes + t * cols)
    }
}
