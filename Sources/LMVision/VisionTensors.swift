import LMGGUF
import LMKernels
import LMKernelsCore

/// Reads an `mmproj` file's tensors by llama.cpp's names (`tools/mtmd/clip-impl.h`, `TN_*`), checking
/// each shape against the hyperparameters. GGUF lists dimensions innermost-first; every shape here
/// and in ``VisionLoadError`` is outermost-first.
struct VisionTensors {
    let file: GGUFFile

    func info(_ name: String) throws(VisionLoadError) -> GGUFTensorInfo {
        guard let t = file.tensor(named: name) else { throw .missingTensor(name) }
        return t
    }

    func has(_ name: String) -> Bool { file.tensor(named: name) != nil }

    /// A `[rows, cols]` matrix viewed in the mapped file, repacked for the active kernels.
    func matrix(_ name: String, rows: Int, cols: Int) throws(VisionLoadError) -> WeightMatrix {
        let t = try info(name)
        guard t.dims == [cols, rows], cols % t.type.blockSize == 0 else {
            throw .badShape(tensor: name, expected: [rows, cols], found: t.dims.reversed())
        }
        let w = WeightMatrix(type: t.type, data: file.data(for: t), rows: rows, cols: cols)
        return KernelSet.active.prepare(w)
    }

    /// A tensor of shape `shape` (outermost-first) dequantized to Float, row-major.
    func floats(_ name: String, shape: [Int]) throws(VisionLoadError) -> [Float] {
        let t = try info(name)
        let count = shape.reduce(1, *)
        guard t.dims == shape.reversed(), count % t.type.blockSize == 0 else {
            throw .badShape(tensor: name, expected: shape, found: t.dims.reversed())
        }
        var out = [Float](repeating: 0, count: count)
        out.withUnsafeMutableBufferPointer { dequantizeRow(type: t.type, file.data(for: t), into: $0.baseAddress!, count: count) }
        return out
    }

    func optionalFloats(_ name: String, shape: [Int]) throws(VisionLoadError) -> [Float]? {
        has(name) ? try floats(name, shape: shape) : nil
    }

    /// A linear map `y = W x + b`: weight `[rows, cols]`, bias `[rows]` when the file has one.
    func linear(_ prefix: String, rows: Int, cols: Int) throws(VisionLoadError) -> VisionLinear {
        VisionLinear(weight: try matrix(prefix + ".weight", rows: rows, cols: cols),
                     bias: try optionalFloats(prefix + ".bias", shape: [rows]))
    }

    /// A LayerNorm's weight and bias `[n]`.
    func layerNorm(_ prefix: String, n: Int, eps: Float) throws(VisionLoadError) -> LayerNorm {
        LayerNorm(weight: try floats(prefix + ".weight", shape: [n]), bias: try optionalFloats(prefix + ".bias", shape: [n]), eps: eps)
    }
}
