import LMGGUF

/// One GGUF tensor element type: its block layout and a plain reference dequantization.
///
/// A block holds `type.blockSize` elements in `type.bytesPerBlock` bytes (1 element for the float
/// types). Each conforming type lives in a file named after the GGUF type and documents its field
/// offsets; `layoutBytes` is computed from those offsets, and ``TensorFormats`` checks it against
/// ``GGMLType/bytesPerBlock`` once per process (the role of ggml's `static_assert` on `block_*`).
/// Fast kernels are tested against these reference functions, which stay.
public protocol TensorFormat {
    /// The GGUF type this format reads.
    static var type: GGMLType { get }
    /// Bytes of one block according to this format's field offsets.
    static var layoutBytes: Int { get }
    /// Dequantizes one block at `block` into `type.blockSize` floats at `out`.
    static func dequantize(block: UnsafeRawPointer, into out: UnsafeMutablePointer<Float>)
    /// Dequantizes `count` elements (a whole number of blocks) starting at `src`.
    static func dequantizeRow(_ src: UnsafeRawPointer, into dst: UnsafeMutablePointer<Float>, count: Int)
}

extension TensorFormat {
    /// Elements per block (`type.blockSize`).
    @inline(__always) public static var blockSize: Int { type.blockSize }
    /// Bytes per block (`type.bytesPerBlock`).
    @inline(__always) public static var bytesPerBlock: Int { type.bytesPerBlock }

    public static func dequantizeRow(_ src: UnsafeRawPointer, into dst: UnsafeMutablePointer<Float>, count: Int) {
        let n = blockSize, stride = bytesPerBlock
        for b in 0..<(count / n) {
            dequantize(block: src + b * stride, into: dst + b * n)
        }
    }
}

/// The registry of every ``TensorFormat``, one per ``GGMLType`` case.
public enum TensorFormats {
    /// All formats, in ``GGMLType`` declaration order.
    public static var all: [any TensorFormat.Type] { GGMLType.allCases.map { format(for: $0) } }

    /// The format that reads `type`.
    public static func format(for type: GGMLType) -> any TensorFormat.Type {
        switch type {
        case .f32: F32.self
        case .f16: F16.self
        case .bf16: BF16.self
        case .q4_0: Q4_0.self
        case .q4_1: Q4_1.self
        case .q5_0: Q5_0.self
        case .q5_1: Q5_1.self
        case .q8_0: Q8_0.self
        case .q8_1: Q8_1.self
        case .q4_K: Q4_K.self
        case .q5_K: Q5_K.self
        case .q6_K: Q6_K.self
        case .q8_K: Q8_K.self
        }
    }

    /// Formats whose layout disagrees with ``GGMLType/bytesPerBlock`` or which claim the wrong
    /// type; empty when the tables agree.
    public static var layoutMismatches: [GGMLType] {
        GGMLType.allCases.filter { t in
            let f = format(for: t)
            return f.type != t || f.layoutBytes != t.bytesPerBlock
        }
    }

    /// Evaluated once, on first dequantization: a layout/table disagreement is a programmer error
    /// in this module, so it traps like a failed `static_assert` rather than returning garbage.
    static let layoutsChecked: Bool = {
        let bad = layoutMismatches
        precondition(bad.isEmpty, "block layouts disagree with GGMLType.bytesPerBlock: \(bad)")
        return true
    }()
}
