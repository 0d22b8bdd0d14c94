import LMGGUF
import LMKernels

/// Finds tensors by their llama.cpp names and checks their shapes against the hyperparameters.
struct TensorLookup {
    let file: GGUFFile

    func info(_ name: String) throws(ModelLoadError) -> GGUFTensorInfo {
        guard let t = file.tensor(named: name) else { throw .missingTensor(name) }
        return t
    }

    /// A `[rows, cols]` weight matrix (GGUF dims `[cols, rows]`).
    func matrix(_ name: String, rows: Int, cols: Int) throws(ModelLoadError) -> WeightMatrix {
        let t = try info(name)
        guard t.dims == [cols, rows] else { throw .badShape(tensor: name, expected: [rows, cols], found: t.dims.reversed()) }
        return WeightMatrix(type: t.type, data: file.data(for: t), rows: rows, cols: cols)
    }

    func optionalMatrix(_ name: String, rows: Int, cols: Int) throws(ModelLoadError) -> WeightMatrix? {
        file.tensor(named: name) == nil ? nil : try matrix(name, rows: rows, cols: cols)
    }

    /// A 1-D tensor of `count` elements, dequantized to Float (norm weights and biases are small).
    func vector(_ name: String, count: Int) throws(ModelLoadError) -> [Float] {
        let t = try info(name)
        guard t.dims == [count] else { throw .badShape(tensor: name, expected: [count], found: t.dims.reversed()) }
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { dequantizeRow(type: t.type, file.data(for: t), into: $0.baseAddress!, count: count) }
        return out
    }

    func optionalVector(_ name: String, count: Int) throws(ModelLoadError) -> [Float]? {
        file.tensor(named: name) == nil ? nil : try vector(name, count: count)
    }
}
