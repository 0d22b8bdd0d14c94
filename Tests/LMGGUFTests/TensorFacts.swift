import LMGGUF

/// The fields of a ``GGUFTensorInfo``, which tests cannot construct, for comparing with `==`.
struct TensorFacts: Equatable, Sendable, CustomStringConvertible {
    let name: String
    let dims: [Int]
    let type: GGMLType
    let dataOffset: Int
    let byteCount: Int

    init(name: String, dims: [Int], type: GGMLType, dataOffset: Int, byteCount: Int) {
        (self.name, self.dims, self.type, self.dataOffset, self.byteCount) = (name, dims, type, dataOffset, byteCount)
    }

    init(_ info: GGUFTensorInfo) {
        self.init(name: info.name, dims: info.dims, type: info.type, dataOffset: info.dataOffset, byteCount: info.byteCount)
    }

    var description: String { "\(name) \(type) \(dims) at \(dataOffset), \(byteCount) bytes" }
}
