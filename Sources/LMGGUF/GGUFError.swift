/// Why a GGUF file was rejected. Every case names the key or tensor involved and the byte offset
/// in the file where the problem was found.
public enum GGUFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or mapped (`errno` text in `reason`).
    case cannotOpen(path: String, reason: String)
    /// The first four bytes are not `GGUF`.
    case badMagic(found: UInt32)
    /// The version is not 2 or 3.
    case unsupportedVersion(UInt32)
    /// A read of `needed` bytes at `offset` runs past the end of the file.
    case truncated(what: String, offset: Int, needed: Int)
    /// A count or length claims more elements than the remaining bytes could hold.
    case countTooLarge(what: String, count: UInt64, offset: Int)
    /// A metadata value type id that GGUF does not define.
    case unknownValueType(key: String, typeID: UInt32, offset: Int)
    /// The same metadata key appears twice.
    case duplicateKey(String, offset: Int)
    /// The same tensor name appears twice.
    case duplicateTensor(String, offset: Int)
    /// A tensor's element type id is not one LMSession reads.
    case unknownTensorType(tensor: String, typeID: UInt32, offset: Int)
    /// A tensor's shape is invalid: no or more than 4 dimensions (then `dims` holds just the
    /// count), a size that overflows `Int`, or a first dimension that is not a whole number of blocks.
    case invalidShape(tensor: String, dims: [UInt64], offset: Int)
    /// A tensor's data offset is not a multiple of the alignment.
    case misalignedTensor(tensor: String, dataOffset: UInt64, alignment: Int)
    /// A tensor's data lies (partly) beyond the end of the file.
    case tensorOutOfRange(tensor: String, dataOffset: UInt64, byteCount: Int, dataSectionSize: Int)
    /// `general.alignment` is zero, not a power of two, or not a `uint32`.
    case invalidAlignment(String)
    /// Nested arrays deeper than the reader accepts.
    case nestingTooDeep(key: String, offset: Int)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "cannot open \(path): \(reason)"
        case let .badMagic(found): "not a GGUF file: magic 0x\(String(found, radix: 16)) at offset 0"
        case let .unsupportedVersion(v): "unsupported GGUF version \(v) at offset 4 (supported: 2, 3)"
        case let .truncated(what, offset, needed): "\(what): \(needed) bytes needed at offset \(offset), beyond end of file"
        case let .countTooLarge(what, count, offset): "\(what): count \(count) at offset \(offset) exceeds the bytes left in the file (the file is cut short, or the count is corrupt)"
        case let .unknownValueType(key, typeID, offset): "key \(quoted(key)): unknown value type \(typeID) at offset \(offset)"
        case let .duplicateKey(key, offset): "duplicate key \(quoted(key)) at offset \(offset)"
        case let .duplicateTensor(name, offset): "duplicate tensor \(quoted(name)) at offset \(offset)"
        case let .unknownTensorType(name, typeID, offset): "tensor \(quoted(name)): unknown or unsupported tensor type \(typeID) at offset \(offset)"
        case let .invalidShape(name, dims, offset): "tensor \(quoted(name)): invalid shape \(dims) at offset \(offset)"
        case let .misalignedTensor(name, dataOffset, alignment): "tensor \(quoted(name)): data offset \(dataOffset) is not a multiple of the alignment \(alignment)"
        case let .tensorOutOfRange(name, dataOffset, byteCount, size): "tensor \(quoted(name)): data at offset \(dataOffset) (+\(byteCount) bytes) beyond the data section of \(size) bytes"
        case let .invalidAlignment(reason): "general.alignment: \(reason)"
        case let .nestingTooDeep(key, offset): "key \(quoted(key)): arrays nested too deeply at offset \(offset)"
        }
    }
}
