import LMGGUF

/// Writes GGUF files in memory so tests can build valid files of any shape and corrupt them at
/// exact places. Layout as the GGUF v3 spec (v2 is the same): a 24-byte header (magic, version,
/// `uint64` tensor count, `uint64` key-value count), the key-values, the tensor infos, zero padding
/// to the alignment, then each tensor's data at the next aligned offset. Nothing follows the last
/// tensor's data, so every proper prefix of a file with tensors is a truncated file.
public struct GGUFBuilder: Sendable {
    public struct Tensor: Sendable {
        public var name: String
        /// Dimensions as written, innermost first.
        public var dims: [UInt64]
        public var typeID: UInt32
        public var data: [UInt8]
        /// Data offset written into the info; `nil` writes where the data really is.
        public var offset: UInt64? = nil
        /// Dimension count written into the info; `nil` writes `dims.count`.
        public var dimCount: UInt32? = nil

        public init(name: String, dims: [UInt64], typeID: UInt32, data: [UInt8], offset: UInt64? = nil, dimCount: UInt32? = nil) {
            (self.name, self.dims, self.typeID, self.data, self.offset, self.dimCount) = (name, dims, typeID, data, offset, dimCount)
        }
    }

    /// "GGUF" read as a little-endian `uint32`.
    public static let magic: UInt32 = 0x4655_4747

    public var magic = GGUFBuilder.magic
    public var version: UInt32 = 3
    /// Counts written into the header; `nil` writes the real counts.
    public var tensorCount: UInt64? = nil
    public var kvCount: UInt64? = nil
    /// Alignment used to lay out the data section. The reader only learns it from a
    /// `general.alignment` entry, which tests add themselves.
    public var alignment = 32
    /// Encoded key-value entries in file order.
    public private(set) var entries: [[UInt8]] = []
    public var tensors: [Tensor] = []

    public init() {}

    public mutating func add(_ key: String, _ value: GGUFValue) {
        let (typeID, payload) = Self.encode(value)
        add(key, typeID: typeID, payload: payload)
    }

    /// Adds an entry with any type id and payload bytes, valid or not.
    public mutating func add(_ key: String, typeID: UInt32, payload: [UInt8]) {
        entries.append(Self.string(key) + Self.le(typeID) + payload)
    }

    /// Adds raw bytes where a whole entry (key, type id, value) belongs.
    public mutating func add(rawEntry bytes: [UInt8]) {
        entries.append(bytes)
    }

    /// Adds a tensor whose data is a deterministic byte pattern of the right size.
    public mutating func addTensor(_ name: String, _ type: GGMLType, dims: [Int]) {
        let byteCount = type.byteCount(elements: dims.reduce(1, *)) ?? 0
        let data = (0..<byteCount).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ tensors.count &* 31 &+ 1) }
        tensors.append(Tensor(name: name, dims: dims.map { UInt64($0) }, typeID: type.rawValue, data: data))
    }

    /// Where each tensor's data starts, relative to the data section.
    public var dataOffsets: [Int] {
        var cursor = 0
        return tensors.map { t in
            cursor = align(cursor)
            defer { cursor += t.data.count }
            return cursor
        }
    }

    public func build() -> [UInt8] {
        var out = Self.le(magic) + Self.le(version)
        out += Self.le(tensorCount ?? UInt64(tensors.count)) + Self.le(kvCount ?? UInt64(entries.count))
        for entry in entries { out += entry }
        let offsets = dataOffsets
        for (t, at) in zip(tensors, offsets) {
            out += Self.string(t.name) + Self.le(t.dimCount ?? UInt32(t.dims.count))
            for d in t.dims { out += Self.le(d) }
            out += Self.le(t.typeID) + Self.le(t.offset ?? UInt64(at))
        }
        guard !tensors.isEmpty else { return out }
        let start = align(out.count)
        for (t, at) in zip(tensors, offsets) {
            out += [UInt8](repeating: 0, count: start + at - out.count)
            out += t.data
        }
        return out
    }

    public func parse() throws(GGUFError) -> GGUFFile {
        try GGUFFile(bytes: MappedBytes(copying: build()))
    }

    private func align(_ n: Int) -> Int { (n + alignment - 1) / alignment * alignment }

    // MARK: Encoding

    public static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A GGUF string: `uint64` byte length, then the UTF-8 bytes.
    public static func string(_ s: String) -> [UInt8] { le(UInt64(s.utf8.count)) + Array(s.utf8) }

    /// Value type id and payload, as `gguf_metadata_value_type` numbers them.
    public static func encode(_ value: GGUFValue) -> (typeID: UInt32, payload: [UInt8]) {
        switch value {
        case let .uint8(v): (0, le(v))
        case let .int8(v): (1, le(v))
        case let .uint16(v): (2, le(v))
        case let .int16(v): (3, le(v))
        case let .uint32(v): (4, le(v))
        case let .int32(v): (5, le(v))
        case let .float32(v): (6, le(v.bitPattern))
        case let .bool(v): (7, [v ? 1 : 0])
        case let .string(v): (8, string(v))
        case let .array(v): (9, encode(array: v))
        case let .uint64(v): (10, le(v))
        case let .int64(v): (11, le(v))
        case let .float64(v): (12, le(v.bitPattern))
        }
    }

    /// An array payload: element type id, `uint64` count, elements. A nested array element is
    /// itself such a payload.
    public static func encode(array: GGUFArray) -> [UInt8] {
        func body<T>(_ typeID: UInt32, _ xs: [T], _ element: (T) -> [UInt8]) -> [UInt8] {
            le(typeID) + le(UInt64(xs.count)) + xs.flatMap(element)
        }
        return switch array {
        case let .uint8(xs): body(0, xs) { le($0) }
        case let .int8(xs): body(1, xs) { le($0) }
        case let .uint16(xs): body(2, xs) { le($0) }
        case let .int16(xs): body(3, xs) { le($0) }
        case let .uint32(xs): body(4, xs) { le($0) }
        case let .int32(xs): body(5, xs) { le($0) }
        case let .float32(xs): body(6, xs) { le($0.bitPattern) }
        case let .bool(xs): body(7, xs) { [$0 ? 1 : 0] }
        case let .string(xs): body(8, xs) { string($0) }
        case let .array(xs): body(9, xs) { encode(array: $0) }
        case let .uint64(xs): body(10, xs) { le($0) }
        case let .int64(xs): body(11, xs) { le($0) }
        case let .float64(xs): body(12, xs) { le($0.bitPattern) }
        }
    }
}
