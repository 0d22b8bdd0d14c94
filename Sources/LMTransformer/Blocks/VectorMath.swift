/// Small dense float routines on activations. Loops of 16 lanes vectorise well in release builds.
enum VectorMath {
    /// Σ a[i]·b[i] over `n` elements.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc = SIMD16<Float>()
        var i = 0
        while i + 16 <= n {
            let va = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD16<Float>.self)
            let vb = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD16<Float>.self)
            acc += va * vb
            i += 16
        }
        var s = acc.sum()
        while i < n { s += a[i] * b[i]; i += 1 }
        return s
    }

    /// y[i] += a · x[i] over `n` elements.
    @inline(__always)
    static func axpy(_ a: Float, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int) {
        var i = 0
        let va = SIMD16<Float>(repeating: a)
        while i + 16 <= n {
            let vx = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD16<Float>.self)
            let vy = UnsafeRawPointer(y + i).loadUnaligned(as: SIMD16<Float>.self)
            UnsafeMutableRawPointer(y + i).storeBytes(of: vy + va * vx, as: SIMD16<Float>.self)
            i += 16
        }
        while i < n { y[i] += a * x[i]; i += 1 }
    }

    /// y[i] += x[i].
    @inline(__always)
    static func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { y[i] += x[i] }
    }

    /// In-place softmax over `n` logits with max subtraction.
    static func softmax(_ x: UnsafeMutablePointer<Float>, _ n: Int) {
        var m = -Float.infinity
        for i in 0..<n { m = max(m, x[i]) }
        var sum: Float = 0
        for i in 0..<n { let e = expf(x[i] - m); x[i] = e; sum += e }
        let inv = 1 / sum
        for i in 0..<n { x[i] *= inv }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
