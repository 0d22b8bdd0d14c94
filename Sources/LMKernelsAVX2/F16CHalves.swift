#if arch(x86_64)
import Builtin
import LMKernelsCore

/// Half-precision conversions with F16C (`vcvtph2ps`, `vcvtps2ph`: one instruction for 8 lanes;
/// widening is exact for every half including infinities and NaNs).
enum F16CHalves: HalfConversion {
    @inline(__always)
    static func floats(_ h: SIMD8<UInt16>) -> SIMD8<Float> {
        var r = SIMD8<Float>()
        r._storage._value = Builtin.fpext_Vec8xFPIEEE16_Vec8xFPIEEE32(Builtin.bitcast_Vec8xInt16_Vec8xFPIEEE16(h._storage._value))
        return r
    }

    /// `vcvtps2ph` with round-to-nearest-even (LLVM's `fptrunc`).
    @inline(__always)
    static func halves(_ f: SIMD8<Float>) -> SIMD8<UInt16> {
        var r = SIMD8<UInt16>()
        r._storage._value = Builtin.bitcast_Vec8xFPIEEE16_Vec8xInt16(Builtin.fptrunc_Vec8xFPIEEE32_Vec8xFPIEEE16(f._storage._value))
        return r
    }
}
#endif
