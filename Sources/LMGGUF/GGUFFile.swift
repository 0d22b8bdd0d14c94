/// A parsed GGUF file (GGUF v2/v3 spec, as read by ggml's `gguf.cpp`): metadata, tensor infos, and
/// the memory-mapped tensor data.
///
/// Parsing validates everything before any tensor is used: magic, version, every length and count
/// against the bytes left, shapes and size overflow, duplicate keys and tensor names, tensor types,
/// alignment, and that every tensor's data lies inside the file at an aligned offset. No input
/// makes the reader allocate more than the file's own size in metadata.
public final class GGUFFile: Sendable {
    public let version: UInt32
    /// Metadata keys in file order.
    public let keys: [String]
    public let metadata: [String: GGUFValue]
    /// Tensor infos in file order.
    public let tensors: [GGUFTensorInfo]
    public let alignment: Int
    /// Offset of the data section from the start of the file, in bytes.
    public let dataSectionOffset: Int
    public let bytes: MappedBytes
    private let tensorIndex: [String: Int]

    static let maxArrayNesting = 8
    static let maxDims = 4

    /// Maps and parses the file at `path`.
    /// - Throws: ``GGUFError`` naming what is wrong and where.
    public convenience init(path: String) throws(GGUFError) {
        try self.init(bytes: MappedBytes(mapping: path))
    }

    /// Parses GGUF bytes already in memory or mapped.
    /// - Throws: ``GGUFError`` naming what is wrong and where.
    public init(bytes: MappedBytes) throws(GGUFError) {
        self.bytes = bytes
        var r = ByteReader(base: bytes.base, count: bytes.count)
        let magic = try r.read(UInt32.self, "magic")
        guard magic == 0x4655_4747 else { throw .badMagic(found: magic) }
        version = try r.read(UInt32.self, "version")
        guard version == 2 || version == 3 else { throw .unsupportedVersion(version) }

        let tensorCountOffset = r.offset
        let tensorCount = try r.read(UInt64.self, "tensor count")
        let kvCountOffset = r.offset
        let kvCount = try r.read(UInt64.self, "metadata count")
        // Each key-value needs at least 8 (key length) + 4 (type) bytes; each tensor info at least
        // 8 + 4 + 4 + 8. Checking up front bounds every later allocation by the file size.
        guard kvCount <= UInt64(r.remaining / 12) else {
            throw .countTooLarge(what: "metadata key-value count", count: kvCount, offset: kvCountOffset)
        }
        guard tensorCount <= UInt64(r.remaining / 24) else {
            throw .countTooLarge(what: "tensor count", count: tensorCount, offset: tensorCountOffset)
        }

        var keys: [String] = []
        var metadata: [String: GGUFValue] = [:]
        for i in 0..<Int(kvCount) {
            let keyOffset = r.offset
            let key = try r.readString("key of metadata entry \(i)")
            guard metadata[key] == nil else { throw .duplicateKey(key, offset: keyOffset) }
            let typeOffset = r.offset
            let typeID = try r.read(UInt32.self, "type of key \(quoted(key))")
            metadata[key] = try Self.readValue(&r, typeID: typeID, typeOffset: typeOffset, key: key, depth: 0)
            keys.append(key)
        }
        self.keys = keys
        self.metadata = metadata

        var alignment = 32
        if let a = metadata["general.alignment"] {
            guard case let .uint32(v) = a else { throw .invalidAlignment("must be a uint32") }
            guard v != 0, v & (v - 1) == 0 else { throw .invalidAlignment("\(v) is not a power of two") }
            alignment = Int(v)
        }
        self.alignment = alignment

        var infos: [GGUFTensorInfo] = []
        var rawOffsets: [(UInt64, Int)] = []
        var index: [String: Int] = [:]
        for i in 0..<Int(tensorCount) {
            let infoOffset = r.offset
            let name = try r.readString("name of tensor \(i)")
            guard index[name] == nil else { throw .duplicateTensor(name, offset: infoOffset) }
            let nDims = try r.read(UInt32.self, "dimension count of tensor \(quoted(name))")
            guard nDims >= 1, nDims <= UInt32(Self.maxDims) else {
                throw .invalidShape(tensor: name, dims: [UInt64(nDims)], offset: infoOffset)
            }
            var rawDims: [UInt64] = []
            for d in 0..<Int(nDims) { rawDims.append(try r.read(UInt64.self, "dimension \(d) of tensor \(quoted(name))")) }
            let typeOffset = r.offset
            let typeID = try r.read(UInt32.self, "type of tensor \(quoted(name))")
            guard let type = GGMLType(rawValue: typeID), type.isTensorType else {
                throw .unknownTensorType(tensor: name, typeID: typeID, offset: typeOffset)
            }
            let dataOffset = try r.read(UInt64.self, "data offset of tensor \(quoted(name))")
            var elements = 1
            var dims: [Int] = []
            for raw in rawDims {
                guard let d = Int(exactly: raw), d >= 0 else { throw .invalidShape(tensor: name, dims: rawDims, offset: infoOffset) }
                let (e, overflow) = elements.multipliedReportingOverflow(by: d)
                guard !overflow else { throw .invalidShape(tensor: name, dims: rawDims, offset: infoOffset) }
                elements = e
                dims.append(d)
            }
            guard dims[0] % type.blockSize == 0, let byteCount = type.byteCount(elements: elements) else {
                throw .invalidShape(tensor: name, dims: rawDims, offset: infoOffset)
            }
            guard dataOffset % UInt64(alignment) == 0 else {
                throw .misalignedTensor(tensor: name, dataOffset: dataOffset, alignment: alignment)
            }
            index[name] = infos.count
            rawOffsets.append((dataOffset, byteCount))
            infos.append(GGUFTensorInfo(name: name, dims: dims, type: type, dataOffset: 0, byteCount: byteCount))
        }

        // The data section starts at the next multiple of the alignment after the tensor infos.
        let (padded, overflow) = r.offset.addingReportingOverflow(alignment - 1)
        let dataStart = overflow ? Int.max : padded / alignment * alignment
        let dataSize = max(0, bytes.count - dataStart)
        if tensorCount > 0 && dataStart > bytes.count {
            throw .truncated(what: "data section", offset: r.offset, needed: dataStart - r.offset)
        }
        for (i, (raw, byteCount)) in rawOffsets.enumerated() {
            guard raw <= UInt64(dataSize), UInt64(byteCount) <= UInt64(dataSize) - raw else {
                throw .tensorOutOfRange(tensor: infos[i].name, dataOffset: raw, byteCount: byteCount, dataSectionSize: dataSize)
            }
            let t = infos[i]
            infos[i] = GGUFTensorInfo(name: t.name, dims: t.dims, type: t.type, dataOffset: Int(raw), byteCount: byteCount)
        }
        self.tensors = infos
        self.tensorIndex = index
        self.dataSectionOffset = dataStart
    }

    /// The tensor named `name`, if present.
    public func tensor(named name: String) -> GGUFTensorInfo? {
        tensorIndex[name].map { tensors[$0] }
    }

    /// Pointer to a tensor's first byte inside the mapping; valid while this file lives.
    public func data(for tensor: GGUFTensorInfo) -> UnsafeRawPointer {
        bytes.base + dataSectionOffset + tensor.dataOffset
    }

    // MARK: Metadata accessors

    public subscript(key: String) -> GGUFValue? { metadata[key] }

    /// Architecture from `general.architecture` (e.g. `llama`, `gemma3`).
    public var architecture: String? { metadata["general.architecture"]?.string }

    private static func readValue(_ r: inout ByteReader, typeID: UInt32, typeOffset: Int, key: String, depth: Int) throws(GGUFError) -> GGUFValue {
        let what = "value of key \(quoted(key))"
        switch typeID {
        case 0: return .uint8(try r.read(UInt8.self, what))
        case 1: return .int8(try r.read(Int8.self, what))
        case 2: return .uint16(try r.read(UInt16.self, what))
        case 3: return .int16(try r.read(Int16.self, what))
        case 4: return .uint32(try r.read(UInt32.self, what))
        case 5: return .int32(try r.read(Int32.self, what))
        case 6: return .float32(try r.readFloat(what))
        case 7: return .bool(try r.read(UInt8.self, what) != 0)
        case 8: return .string(try r.readString(what))
        case 9: return .array(try readArray(&r, key: key, depth: depth))
        case 10: return .uint64(try r.read(UInt64.self, what))
        case 11: return .int64(try r.read(Int64.self, what))
        case 12: return .float64(try r.readDouble(what))
        default: throw .unknownValueType(key: key, typeID: typeID, offset: typeOffset)
        }
    }

    /// Minimum encoded size of one element of each value type, used to bound array counts.
    private static func minElementSize(_ typeID: UInt32) -> Int? {
        switch typeID {
        case 0, 1, 7: 1
        case 2, 3: 2
        case 4, 5, 6: 4
        case 8, 10, 11, 12: 8
        case 9: 12
        default: nil
        }
    }

    private static func readArray(_ r: inout ByteReader, key: String, depth: Int) throws(GGUFError) -> GGUFArray {
        let start = r.offset
        guard depth < maxArrayNesting else { throw .nestingTooDeep(key: key, offset: start) }
        let typeID = try r.read(UInt32.self, "array type of key \(quoted(key))")
        guard let minSize = minElementSize(typeID) else { throw .unknownValueType(key: key, typeID: typeID, offset: start) }
        let countOffset = r.offset
        let count = try r.read(UInt64.self, "array length of key \(quoted(key))")
        guard count <= UInt64(r.remaining / minSize) else {
            throw .countTooLarge(what: "array of key \(quoted(key))", count: count, offset: countOffset)
        }
        let n = Int(count)
        let what = "array element of key \(quoted(key))"
        func fixed<T: FixedWidthInteger>(_: T.Type) throws(GGUFError) -> [T] {
            let p = try r.bytes(n * MemoryLayout<T>.size, what)
            return (0..<n).map { T(littleEndian: p.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)) }
        }
        switch typeID {
        case 0: return .uint8(try fixed(UInt8.self))
        case 1: return .int8(try fixed(Int8.self))
        case 2: return .uint16(try fixed(UInt16.self))
        case 3: return .int16(try fixed(Int16.self))
        case 4: return .uint32(try fixed(UInt32.self))
        case 5: return .int32(try fixed(Int32.self))
        case 6: return .float32(try fixed(UInt32.self).map { Float(bitPattern: $0) })
        case 7: return .bool(try fixed(UInt8.self).map { $0 != 0 })
        case 10: return .uint64(try fixed(UInt64.self))
        case 11: return .int64(try fixed(Int64.self))
        case 12: return .float64(try fixed(UInt64.self).map { Double(bitPattern: $0) })
        case 8:
            var out: [String] = []
            out.reserveCapacity(n)
            for _ in 0..<n { out.append(try r.readString(what)) }
            return .string(out)
        default: // 9: nested array
            var out: [GGUFArray] = []
            for _ in 0..<n { out.append(try readArray(&r, key: key, depth: depth + 1)) }
            return .array(out)
        }
    }
}
