import LMKernelsCore

/// Float weight types (F32, F16, BF16) read as 8 Floats at a time, dotted with Float activations.
protocol FloatFormat: SendableMetatype {
    static var bytesPerValue: Int { get }
    /// Values `i..<i+8` of the row at `row`.
    static func load8(_ row: UnsafeRawPointer, _ i: Int) -> SIMD8<Float>
    static func load1(_ row: UnsafeRawPointer, _ i: Int) -> Float
}

enum F32Format: FloatFormat {
    static var bytesPerValue: Int { 4 }
    @inline(__always)
    static func load8(_ row: UnsafeRawPointer, _ i: Int) -> SIMD8<Float> {
        row.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self)
    }
    @inline(__always)
    static func load1(_ row: UnsafeRawPointer, _ i: Int) -> Float {
        row.loadUnaligned(fromByteOffset: 4 * i, as: Float.self)
    }
}

/// IEEE binary16 weights.
enum F16Format: FloatFormat {
    static var bytesPerValue: Int { 2 }
    @inline(__always)
    static func load8(_ row: UnsafeRawPointer, _ i: Int) -> SIMD8<Float> {
        let h = row.loadUnaligned(fromByteOffset: 2 * i, as: SIMD8<UInt16>.self)
        var r = SIMD8<Float>()
        for j in 0..<8 { r[j] = f16Exact(h[j]) }
        return r
    }
    @inline(__always)
    static func load1(_ row: UnsafeRawPointer, _ i: Int) -> Float {
        f16Exact(row.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))
    }
}

/// bfloat16 weights: the high 16 bits of a Float.
enum BF16Format: FloatFormat {
    static var bytesPerValue: Int { 2 }
    @inline(__always)
    static func load8(_ row: UnsafeRawPointer, _ i: Int) -> SIMD8<Float> {
        let h = row.loadUnaligned(fromByteOffset: 2 * i, as: SIMD8<UInt16>.self)
        var r = SIMD8<Float>()
        for j in 0..<8 { r[j] = Float(bitPattern: UInt32(h[j]) << 16) }
        return r
    }
    @inline(__always)
    static func load1(_ row: UnsafeRawPointer, _ i: Int) -> Float {
        Float(bitPattern: UInt32(row.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)) << 16)
    }
}

enum FloatDot<F: FloatFormat> {
    @inline(__always)
    static func dot(_ w: UnsafeRawPointer, _ x: UnsafePointer<Float>, cols: Int) -> Float {
        var acc0 = SIMD8<Float>(), acc1 = SIMD8<Float>()
        var i = 0
        while i + 16 <= cols {
            acc0 += F.load8(w, i) * UnsafeRawPointer(x + i).loadUnaligned(as: SIMD8<Float>.self)
            acc1 += F.load8(w, i + 8) * UnsafeRawPointer(x + i + 8).loadUnaligned(as: SIMD8<Float>.self)
            i += 16
        }
        var total = horizontalSum(acc0 + acc1)
        while i < cols {
            total += F.load1(w, i) * x[i]
            i += 1
        }
        return total
    }
}
