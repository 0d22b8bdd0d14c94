import LMGGUF

/// A 2-D weight tensor viewed in place inside the memory-mapped GGUF: shape `[rows, cols]`
/// (outermost first; GGUF stores it as `dims == [cols, rows]`). Row `r` starts at
/// `data + r * rowBytes` and holds `cols / type.blockSize` blocks.
///
/// `@unchecked Sendable`: the pointer refers to read-only mapped memory kept alive by the model
/// (and `tiles`, when set, to a read-only copy it owns).
public struct WeightMatrix: @unchecked Sendable {
    public let type: GGMLType
    public let data: UnsafeRawPointer
    public let rows: Int
    public let cols: Int
    /// Bytes per row: `cols / type.blockSize * type.bytesPerBlock`.
    public let rowBytes: Int
    /// The same rows repacked for the active kernel set's decode kernel, when it has one for this
    /// type (`KernelSet.prepare`); nil for the file's layout alone.
    public var tiles: WeightTiles?

    public init(type: GGMLType, data: UnsafeRawPointer, rows: Int, cols: Int) {
        precondition(cols % type.blockSize == 0, "row length must be whole blocks")
        self.type = type
        self.data = data
        self.rows = rows
        self.cols = cols
        self.rowBytes = cols / type.blockSize * type.bytesPerBlock
    }

    /// Pointer to the first block of row `r`.
    @inlinable @inline(__always)
    public func row(_ r: Int) -> UnsafeRawPointer { data + r * rowBytes }
}
