/// One tensor's entry in a GGUF file.
///
/// GGUF lists dimensions innermost-first: a weight matrix with `rows` output rows of `cols`
/// elements each has `dims == [cols, rows]`. LMSession writes shapes outermost-first everywhere
/// else (`[rows, cols]`).
public struct GGUFTensorInfo: Sendable, Equatable {
    public let name: String
    /// Dimensions, innermost first (GGUF order).
    public let dims: [Int]
    public let type: GGMLType
    /// Offset of the data from the start of the data section, in bytes.
    public let dataOffset: Int
    /// Size of the data in bytes.
    public let byteCount: Int

    /// Total number of elements.
    public var elementCount: Int { dims.reduce(1, *) }
    /// Elements in one row (the innermost dimension).
    public var rowLength: Int { dims.first ?? 1 }
    /// Number of rows: the product of every dimension but the innermost.
    public var rowCount: Int { dims.dropFirst().reduce(1, *) }
}
