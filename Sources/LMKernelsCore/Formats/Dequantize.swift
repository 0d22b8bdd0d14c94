import LMGGUF

/// Dequantizes `count` elements of `type` (a whole number of blocks) from `src` into `dst`: the
/// single dispatch point from a GGUF type to its reference ``TensorFormat``.
///
/// - Parameters:
///   - src: `count / type.blockSize * type.bytesPerBlock` bytes of blocks (any alignment).
///   - dst: `[count]` floats.
/// - Precondition: `count` is a non-negative multiple of `type.blockSize`.
public func dequantizeRow(type: GGMLType, _ src: UnsafeRawPointer, into dst: UnsafeMutablePointer<Float>, count: Int) {
    precondition(TensorFormats.layoutsChecked)
    precondition(count >= 0 && count % type.blockSize == 0, "\(type) rows are whole blocks of \(type.blockSize)")
    switch type {
    case .f32: F32.dequantizeRow(src, into: dst, count: count)
    case .f16: F16.dequantizeRow(src, into: dst, count: count)
    case .bf16: BF16.dequantizeRow(src, into: dst, count: count)
    case .q4_0: Q4_0.dequantizeRow(src, into: dst, count: count)
    case .q4_1: Q4_1.dequantizeRow(src, into: dst, count: count)
    case .q5_0: Q5_0.dequantizeRow(src, into: dst, count: count)
    case .q5_1: Q5_1.dequantizeRow(src, into: dst, count: count)
    case .q8_0: Q8_0.dequantizeRow(src, into: dst, count: count)
    case .q8_1: Q8_1.dequantizeRow(src, into: dst, count: count)
    case .q4_K: Q4_K.dequantizeRow(src, into: dst, count: count)
    case .q5_K: Q5_K.dequantizeRow(src, into: dst, count: count)
    case .q6_K: Q6_K.dequantizeRow(src, into: dst, count: count)
    case .q8_K: Q8_K.dequantizeRow(src, into: dst, count: count)
    }
}

extension WeightMatrix {
    /// Dequantizes row `r` into `[cols]` floats at `out`.
    /// - Precondition: `0 <= r < rows`.
    public func dequantizeRow(_ r: Int, into out: UnsafeMutablePointer<Float>) {
        precondition(r >= 0 && r < rows, "row \(r) outside 0..<\(rows)")
        LMKernelsCore.dequantizeRow(type: type, row(r), into: out, count: cols)
    }
}
