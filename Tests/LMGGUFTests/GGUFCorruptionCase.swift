import LMGGUF
import TestSupport
import Testing

/// A corrupt file and the exact error the reader must throw for it.
struct GGUFCorruptionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: GGUFError

    init(_ name: String, _ expected: GGUFError, _ make: (inout GGUFBuilder) -> Void) {
        var b = GGUFBuilder()
        make(&b)
        self.name = name
        self.bytes = b.build()
        self.expected = expected
    }

    var testDescription: String { name }
}

/// Offsets in the small files these cases build. The header is magic, version, tensor count and
/// key-value count: 4 + 4 + 8 + 8 bytes.
enum Layout {
    static let header = 24
    /// The first entry's type id when its key is one byte long: key length (8) and key (1) in.
    static let firstTypeID = header + 8 + 1
    /// The first entry's value when its key is one byte long.
    static let firstValue = firstTypeID + 4
}

extension GGUFBuilder.Tensor {
    /// A tensor info with no data, for files rejected before any data is read.
    static func info(_ name: String, dims: [UInt64], typeID: UInt32) -> Self {
        Self(name: name, dims: dims, typeID: typeID, data: [])
    }
}

/// Little-endian bytes of an integer, for writing raw fields.
func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { GGUFBuilder.le(value) }
