import LMGGUF
import LMKernels

/// Finds tensors by their llama.cpp names, checks their shapes against the hyperparameters, and
/// remembers which were read, so that a tensor nothing reads is reported instead of ignored.
final class TensorLookup {
    let file: GGUFFile
    private(set) var used: Set<String> = []

    init(file: GGUFFile) { self.file = file }

    func has(_ name: String) -> Bool { file.tensor(named: name) != nil }

    func info(_ name: String) throws(ModelLoadError) -> GGUFTensorInfo {
        guard let t = file.tensor(named: name) else { throw .missingTensor(name) }
        used.insert(name)
        return t
    }

    /// A `[rows, cols]` weight matrix (GGUF dims `[cols, rows]`), with the layout the active kernel
    /// set decodes fastest (``prepared(_:)``) unless `prepared` is false (a table only looked up).
    func matrix(_ name: String, rows: Int, cols: Int, prepared: Bool = true) throws(ModelLoadError) -> WeightMatrix {
        let t = try info(name)
        guard t.dims == [cols, rows] else { throw .badShape(tensor: name, expected: [rows, cols], found: t.dims.reversed()) }
        guard cols % t.type.blockSize == 0 else {
            throw .badShape(tensor: name, expected: [rows, cols / t.type.blockSize * t.type.blockSize], found: t.dims.reversed())
        }
        let w = WeightMatrix(type: t.type, data: file.data(for: t), rows: rows, cols: cols)
        return prepared ? self.prepared(w) : w
    }

    /// `w` (a matrix of this file) with the active kernel set's decode layout
    /// (``KernelSet/prepare(_:release:)``), repacked once here. The file's pages of repacked rows
    /// leave memory: only the portable kernels, rows past the last tile and embedding lookups read
    /// them again, and those load just the pages they touch.
    func prepared(_ w: WeightMatrix) -> WeightMatrix {
        // Released while packing, so the file's copy and the tiles are never both resident.
        let bytes = file.bytes
        return KernelSet.active.prepare(w) { start, count in bytes.releasePages(start, byteCount: count) }
    }

    func optionalMatrix(_ name: String, rows: Int, cols: Int) throws(ModelLoadError) -> WeightMatrix? {
        has(name) ? try matrix(name, rows: rows, cols: cols) : nil
    }

    /// A tensor of `count` elements (any shape whose product is `count` when `shape` is nil),
    /// dequantized to Float (norm weights, biases and RoPE factors are small).
    func vector(_ name: String, count: Int, shape: [Int]? = nil) throws(ModelLoadError) -> [Float] {
        let t = try info(name)
        let expected = shape ?? [count]
        guard t.dims == expected.reversed() else { throw .badShape(tensor: name, expected: expected, found: t.dims.reversed()) }
        guard count % t.type.blockSize == 0 else { throw .badShape(tensor: name, expected: expected, found: t.dims.reversed()) }
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { dequantizeRow(type: t.type, file.data(for: t), into: $0.baseAddress!, count: count) }
        return out
    }

    func optionalVector(_ name: String, count: Int, shape: [Int]? = nil) throws(ModelLoadError) -> [Float]? {
        has(name) ? try vector(name, count: count, shape: shape) : nil
    }

    /// Tensors of the file that nothing read, in file order.
    var unused: [String] { file.tensors.map(\.name).filter { !used.contains($0) } }
}

extension WeightMatrix {
    /// Rows `range` of the matrix, viewed in place (stacked projections such as `attn_qkv`), with
    /// the tiles of those rows when the range starts on a tile.
    func slice(rows range: Range<Int>) -> WeightMatrix {
        var s = WeightMatrix(type: type, data: row(range.lowerBound), rows: range.count, cols: cols)
        s.tiles = tiles?.slice(rows: range)
        return s
    }
}
