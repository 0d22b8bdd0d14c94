/// How activations are presented to a weight type's dot kernel: ggml's `vec_dot_type` pairing
/// (Q4_0/Q5_0/Q8_0 with Q8_0, Q4_1/Q5_1 with Q8_1, K-quants with Q8_K, float weights with floats).
public enum ActivationFormat: Sendable, Equatable, CustomStringConvertible {
    /// The Float activations as given.
    case f32
    /// Per block of 32: scale `d = max|x| / 127` (rounded to f16, as ggml stores it) and 32 Int8
    /// `q = round(x / d)`; as ggml's `block_q8_0`.
    case q8_0
    /// Q8_0 plus `s = d * Σq` per block (rounded to f16); as ggml's `block_q8_1`.
    case q8_1
    /// Per block of 256: Float `d`, 256 Int8 and 16 Int16 sums of 16 quants; as ggml's `block_q8_K`.
    case q8_K

    /// Values per scale block (1 for `.f32`).
    public var blockSize: Int {
        switch self {
        case .f32: 1
        case .q8_0, .q8_1: 32
        case .q8_K: 256
        }
    }

    public var description: String {
        switch self {
        case .f32: "F32"
        case .q8_0: "Q8_0"
        case .q8_1: "Q8_1"
        case .q8_K: "Q8_K"
        }
    }
}
