/// A metadata value, typed as in the GGUF v3 spec (`gguf_metadata_value_type`).
public indirect enum GGUFValue: Sendable, Equatable {
    case uint8(UInt8), int8(Int8), uint16(UInt16), int16(Int16)
    case uint32(UInt32), int32(Int32), uint64(UInt64), int64(Int64)
    case float32(Float), float64(Double)
    case bool(Bool)
    case string(String)
    case array(GGUFArray)

    /// Any integer value as `Int` (nil for non-integers and for `uint64` values above `Int.max`).
    public var int: Int? {
        switch self {
        case let .uint8(v): Int(v)
        case let .int8(v): Int(v)
        case let .uint16(v): Int(v)
        case let .int16(v): Int(v)
        case let .uint32(v): Int(v)
        case let .int32(v): Int(v)
        case let .uint64(v): Int(exactly: v)
        case let .int64(v): Int(v)
        default: nil
        }
    }

    /// Any numeric value as `Double`.
    public var double: Double? {
        switch self {
        case let .float32(v): Double(v)
        case let .float64(v): v
        default: int.map(Double.init)
        }
    }

    public var bool: Bool? { if case let .bool(v) = self { v } else { nil } }
    public var string: String? { if case let .string(v) = self { v } else { nil } }
    public var array: GGUFArray? { if case let .array(v) = self { v } else { nil } }
}

/// A homogeneous metadata array. Large arrays (a 262,144-token vocabulary) stay typed rather than
/// becoming arrays of ``GGUFValue``.
public indirect enum GGUFArray: Sendable, Equatable {
    case uint8([UInt8]), int8([Int8]), uint16([UInt16]), int16([Int16])
    case uint32([UInt32]), int32([Int32]), uint64([UInt64]), int64([Int64])
    case float32([Float]), float64([Double])
    case bool([Bool])
    case string([String])
    case array([GGUFArray])

    public var count: Int {
        switch self {
        case let .uint8(a): a.count
        case let .int8(a): a.count
        case let .uint16(a): a.count
        case let .int16(a): a.count
        case let .uint32(a): a.count
        case let .int32(a): a.count
        case let .uint64(a): a.count
        case let .int64(a): a.count
        case let .float32(a): a.count
        case let .float64(a): a.count
        case let .bool(a): a.count
        case let .string(a): a.count
        case let .array(a): a.count
        }
    }

    public var strings: [String]? { if case let .string(a) = self { a } else { nil } }

    /// Numeric elements as `Float` (nil for strings, bools and nested arrays).
    public var floats: [Float]? {
        switch self {
        case let .float32(a): a
        case let .float64(a): a.map { Float($0) }
        default: ints?.map { Float($0) }
        }
    }

    /// Integer elements as `Int` (nil for non-integer arrays or `uint64` values above `Int.max`).
    public var ints: [Int]? {
        switch self {
        case let .uint8(a): a.map { Int($0) }
        case let .int8(a): a.map { Int($0) }
        case let .uint16(a): a.map { Int($0) }
        case let .int16(a): a.map { Int($0) }
        case let .uint32(a): a.map { Int($0) }
        case let .int32(a): a.map { Int($0) }
        case let .int64(a): a.map { Int($0) }
        case let .uint64(a):
            a.allSatisfy { $0 <= UInt64(Int.max) } ? a.map { Int($0) } : nil
        case let .bool(a): a.map { $0 ? 1 : 0 }
        default: nil
        }
    }
}
