#if arch(x86_64)
import Builtin
import LMKernelsCore

/// Half-precision widening with F16C (`vcvtph2ps`, one instruction for 8 lanes, exact for every
/// half including infinities and NaNs).
enum F16CHalves: HalfConversion {
    @inline(__always)
    static func floats(_ h: SIMD8<UInt16>) -> SIMD8<Float> {
        var r = SIMD8<Float>()
        r._storage._value = Builtin.fpext_Vec8xFPIEEE16_Vec8xFPIEEE32(Builtin.bitcast_Vec8xInt16_Vec8xFPIEEE16(h._storage._value))
        return r
    }
}
#endif
