#if arch(x86_64)
import Builtin
import LMKernelsCore

/// The AVX2 instructions the x86-64-v3 kernels are built on, called through the compiler's
/// `Builtin` module (LLVM's x86 intrinsics). Portable Swift SIMD code never lowers to the byte
/// multiply-adds, which halve the time of an int8 dot product. This module is compiled with the
/// AVX2/FMA/F16C/BMI2 target features (Package.swift) and only called after a run-time check
/// (`LMKernels.KernelSet`): LLVM cannot select these instructions for a target without AVX2.
enum AVX2 {
    /// `vpmaddubsw`: `r[i] = a[2i]·b[2i] + a[2i+1]·b[2i+1]` of unsigned `a` and signed `b` bytes,
    /// saturated to Int16 (never reached when `a <= 128` and `|b| <= 127`).
    @inline(__always)
    static func maddubs(_ a: SIMD32<UInt8>, _ b: SIMD32<Int8>) -> SIMD16<Int16> {
        var r = SIMD16<Int16>()
        r._storage._value = Builtin.int_x86_avx2_pmadd_ub_sw(a._storage._value, b._storage._value)
        return r
    }

    /// `vpmaddwd`: `r[i] = a[2i]·b[2i] + a[2i+1]·b[2i+1]` in Int32.
    @inline(__always)
    static func madd(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD8<Int32> {
        var r = SIMD8<Int32>()
        r._storage._value = Builtin.int_x86_avx2_pmadd_wd(a._storage._value, b._storage._value)
        return r
    }

    /// `vpsignb`: `a[i]` negated where `b[i] < 0` and zeroed where `b[i] == 0`.
    @inline(__always)
    static func sign(_ a: SIMD32<Int8>, _ b: SIMD32<Int8>) -> SIMD32<Int8> {
        var r = SIMD32<Int8>()
        r._storage._value = Builtin.int_x86_avx2_psign_b(a._storage._value, b._storage._value)
        return r
    }

    // Byte-vector logic through Builtin: the stdlib's SIMD32<UInt8> operators compiled to
    // per-lane loops through the stack here (50x slower than the instruction).

    /// `vpand`.
    @inline(__always)
    static func and(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> {
        var r = SIMD32<UInt8>()
        r._storage._value = Builtin.and_Vec32xInt8(a._storage._value, b._storage._value)
        return r
    }

    /// `vpor`.
    @inline(__always)
    static func or(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> {
        var r = SIMD32<UInt8>()
        r._storage._value = Builtin.or_Vec32xInt8(a._storage._value, b._storage._value)
        return r
    }

    /// `vpaddw`: `a[i] + b[i]`, wrapping.
    @inline(__always)
    static func add16(_ a: SIMD16<Int16>, _ b: SIMD16<Int16>) -> SIMD16<Int16> {
        var r = SIMD16<Int16>()
        r._storage._value = Builtin.add_Vec16xInt16(a._storage._value, b._storage._value)
        return r
    }

    /// `vpsubb`: `a[i] - b[i]`, wrapping.
    @inline(__always)
    static func subtract(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> {
        var r = SIMD32<UInt8>()
        r._storage._value = Builtin.sub_Vec32xInt8(a._storage._value, b._storage._value)
        return r
    }

    /// `vpandn`: `~a & b`.
    @inline(__always)
    static func andNot(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> {
        var r = SIMD32<UInt8>()
        r._storage._value = Builtin.and_Vec32xInt8(
            Builtin.xor_Vec32xInt8(a._storage._value, bytes(0xff)._storage._value), b._storage._value)
        return r
    }

    /// Each byte shifted right by `n` (< 8): `vpsrlw` on 16-bit lanes, then a mask of the bits
    /// that crossed from the neighbouring byte.
    @inline(__always)
    static func shiftRight(_ a: SIMD32<UInt8>, _ n: Int) -> SIMD32<UInt8> {
        let w = unsafeBitCast(a, to: SIMD16<UInt16>.self) &>> UInt16(truncatingIfNeeded: n)
        return and(unsafeBitCast(w, to: SIMD32<UInt8>.self), bytes(UInt8(truncatingIfNeeded: 0xff >> n)))
    }

    /// Each byte shifted left by `n` (< 8): `vpsllw`, then the mask for the bits from the neighbour.
    @inline(__always)
    static func shiftLeft(_ a: SIMD32<UInt8>, _ n: Int) -> SIMD32<UInt8> {
        let w = unsafeBitCast(a, to: SIMD16<UInt16>.self) &<< UInt16(truncatingIfNeeded: n)
        return and(unsafeBitCast(w, to: SIMD32<UInt8>.self), bytes(UInt8(truncatingIfNeeded: 0xff << n)))
    }

    /// `vpmovsxbw`: 16 signed bytes sign-extended to Int16 lanes (the stdlib's generic conversion
    /// was not specialised here and ran lane by lane).
    @inline(__always)
    static func widen(_ v: SIMD16<Int8>) -> SIMD16<Int16> {
        var r = SIMD16<Int16>()
        r._storage._value = Builtin.sext_Vec16xInt8_Vec16xInt16(v._storage._value)
        return r
    }

    /// `vpmovzxbw`: 16 unsigned bytes zero-extended to Int16 lanes.
    @inline(__always)
    static func widen(_ v: SIMD16<UInt8>) -> SIMD16<Int16> {
        var r = SIMD16<Int16>()
        r._storage._value = Builtin.zext_Vec16xInt8_Vec16xInt16(v._storage._value)
        return r
    }

    /// `b` in all 32 bytes (`vpbroadcastb`).
    @inline(__always)
    static func bytes(_ b: UInt8) -> SIMD32<UInt8> {
        unsafeBitCast(SIMD8<UInt32>(repeating: UInt32(b) &* 0x0101_0101), to: SIMD32<UInt8>.self)
    }

    /// `vpshufb`: `r[i] = a[lane + b[i] & 15]` within each 128-bit lane (0 where `b[i] < 0`).
    @inline(__always)
    static func shuffleBytes(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> {
        var r = SIMD32<UInt8>()
        r._storage._value = Builtin.int_x86_avx2_pshuf_b(a._storage._value, b._storage._value)
        return r
    }

    /// `vpcmpeqb`: `0xff` where `a[i] == b[i]`, else 0.
    @inline(__always)
    static func equalMask(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> SIMD32<UInt8> {
        var r = SIMD32<UInt8>()
        r._storage._value = Builtin.sext_Vec32xInt1_Vec32xInt8(Builtin.cmp_eq_Vec32xInt8(a._storage._value, b._storage._value))
        return r
    }

    /// Byte `i` is `0xff` where bit `i` of `bits` is set, else 0 (ggml's `bytes_from_bits_32`):
    /// each byte picks the source byte holding its bit (`vpshufb`) and tests its own bit.
    @inline(__always)
    static func bytesFromBits(_ bits: UInt32) -> SIMD32<UInt8> {
        let source = unsafeBitCast(SIMD8<UInt32>(repeating: bits), to: SIMD32<UInt8>.self)
        let index = SIMD32<UInt8>(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                  2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3)
        let bit = SIMD32<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128,
                                1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
        return equalMask(and(shuffleBytes(source, index), bit), bit)
    }

    /// The 4 bytes at `p + offset` in each 32-bit lane (`vpbroadcastd`).
    @inline(__always)
    static func broadcast4(_ p: UnsafeRawPointer, _ offset: Int) -> SIMD32<UInt8> {
        unsafeBitCast(SIMD8<UInt32>(repeating: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)), to: SIMD32<UInt8>.self)
    }

    /// The f16 at byte `offset` of `p` as Float (`vcvtph2ps`, F16C).
    @inline(__always)
    static func half(_ p: UnsafeRawPointer, _ offset: Int) -> Float {
        Float(Float16(bitPattern: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }

    /// `vcvtdq2ps`.
    @inline(__always)
    static func float(_ v: SIMD8<Int32>) -> SIMD8<Float> {
        var r = SIMD8<Float>()
        r._storage._value = Builtin.sitofp_Vec8xInt32_Vec8xFPIEEE32(v._storage._value)
        return r
    }

    /// `Σ a·b` over 32 unsigned × signed bytes as 8 Int32 lanes (`vpmaddubsw` then `vpmaddwd` by
    /// ones; `vpdpbusd` in the VNNI build).
    @inline(__always)
    static func dot32(_ a: SIMD32<UInt8>, _ b: SIMD32<Int8>) -> SIMD8<Int32> {
        #if LM_VNNI
        dotAdd(SIMD8(), a, b)
        #else
        madd(maddubs(a, b), SIMD16(repeating: 1))
        #endif
    }

    #if LM_VNNI
    /// `vpdpbusd` (AVX-512 VNNI with VL, EVEX on 256 bits): `acc[i] + Σ a·b` over the 4 unsigned ×
    /// signed bytes of lane `i`, in Int32 with no Int16 step (so no saturation).
    @inline(__always)
    static func dotAdd(_ acc: SIMD8<Int32>, _ a: SIMD32<UInt8>, _ b: SIMD32<Int8>) -> SIMD8<Int32> {
        var r = SIMD8<Int32>()
        let a32 = unsafeBitCast(a, to: SIMD8<Int32>.self), b32 = unsafeBitCast(b, to: SIMD8<Int32>.self)
        r._storage._value = Builtin.int_x86_avx512_vpdpbusd_256(acc._storage._value, a32._storage._value, b32._storage._value)
        return r
    }
    #endif

    /// `Σ a·b` over 32 signed × signed bytes: `|a|·(b with a's sign)`, as ggml's AVX2 `mul_sum_i8_pairs`.
    @inline(__always)
    static func signedDot32(_ a: SIMD32<Int8>, _ b: SIMD32<Int8>) -> SIMD8<Int32> {
        dot32(unsafeBitCast(sign(a, a), to: SIMD32<UInt8>.self), sign(b, a))
    }
}
#endif
