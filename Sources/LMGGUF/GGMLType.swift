/// Tensor element types as numbered in ggml (`enum ggml_type`, GGUF v3 spec).
///
/// Only the types LMSession can read are cases; any other id in a file is rejected by the reader
/// with ``GGUFError/unknownTensorType(tensor:typeID:offset:)``.
public enum GGMLType: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    case f32 = 0
    case f16 = 1
    case q4_0 = 2
    case q4_1 = 3
    case q5_0 = 6
    case q5_1 = 7
    case q8_0 = 8
    case q8_1 = 9
    case q4_K = 12
    case q5_K = 13
    case q6_K = 14
    case q8_K = 15
    case bf16 = 30

    /// Whether tensors in a file may have this type. Q8_1 and Q8_K are ggml's activation formats
    /// (what weights are dotted against), never stored: the reader rejects them as tensor types.
    public var isTensorType: Bool { self != .q8_1 && self != .q8_K }

    /// Elements per block: 1 for float types, 32 for the legacy quants, 256 for K-quants (QK_K).
    public var blockSize: Int {
        switch self {
        case .f32, .f16, .bf16: 1
        case .q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .q8_1: 32
        case .q4_K, .q5_K, .q6_K, .q8_K: 256
        }
    }

    /// Bytes per block, as the `static_assert`s on ggml's `block_*` structs.
    public var bytesPerBlock: Int {
        switch self {
        case .f32: 4
        case .f16, .bf16: 2
        case .q4_0: 18      // f16 d + 16 bytes of nibbles
        case .q4_1: 20      // f16 d, f16 m + 16 bytes
        case .q5_0: 22      // f16 d + 4 bytes high bits + 16 bytes
        case .q5_1: 24      // f16 d, f16 m + 4 + 16
        case .q8_0: 34      // f16 d + 32 int8
        case .q8_1: 36      // f16 d, f16 s + 32 int8
        case .q4_K: 144     // f16 d, f16 dmin, 12 bytes scales, 128 bytes nibbles
        case .q5_K: 176     // q4_K + 32 bytes high bits
        case .q6_K: 210     // 128 low nibbles, 64 high bits, 16 int8 scales, f16 d
        case .q8_K: 292     // f32 d, 256 int8, 16 int16 bsums
        }
    }

    /// The name ggml prints (`ggml_type_name`).
    public var description: String {
        switch self {
        case .f32: "F32"
        case .f16: "F16"
        case .bf16: "BF16"
        case .q4_0: "Q4_0"
        case .q4_1: "Q4_1"
        case .q5_0: "Q5_0"
        case .q5_1: "Q5_1"
        case .q8_0: "Q8_0"
        case .q8_1: "Q8_1"
        case .q4_K: "Q4_K"
        case .q5_K: "Q5_K"
        case .q6_K: "Q6_K"
        case .q8_K: "Q8_K"
        }
    }

    /// Bytes needed for `elementCount` elements, or `nil` when the count is not a whole number of
    /// blocks or the size overflows `Int`.
    public func byteCount(elements elementCount: Int) -> Int? {
        guard elementCount >= 0, elementCount % blockSize == 0 else { return nil }
        let (bytes, overflow) = (elementCount / blockSize).multipliedReportingOverflow(by: bytesPerBlock)
        return overflow ? nil : bytes
    }
}
