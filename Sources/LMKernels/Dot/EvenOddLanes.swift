import LMKernelsCore

// Weight decoders to the even/odd lane order of the activations (see QuantizedActivations):
// a 32-weight group becomes `even` (weights 0, 2, ..., 14 in lanes 0..<8 and 16, 18, ..., 30 in
// lanes 8..<16) and `odd` (weights 1, 3, ..., 15 and 17, ..., 31). GGUF formats keep weight `i`
// in byte `i` (or a nibble or bits of it), so loading the bytes as 16-bit lanes puts even
// weights in the low and odd weights in the high byte of each lane: shifts and masks split
// them, with no byte unpacking (which costs shuffles and, on SSE2, false dependencies).

/// 32 signed bytes (weight `i` in byte `i`) as even/odd Int16 lanes.
@inline(__always)
func signedBytePlanes(_ p: UnsafeRawPointer) -> (SIMD16<Int16>, SIMD16<Int16>) {
    let v = p.loadUnaligned(as: SIMD16<Int16>.self)
    return ((v &<< 8) &>> 8, v &>> 8)
}

/// The low (`high == false`) or high nibbles of 32 bytes (weight `i` in byte `i`) as even/odd
/// lanes: the K-quant layout, where one group sits in the low and the next in the high nibbles.
@inline(__always)
func nibblePlanes32(_ p: UnsafeRawPointer, high: Bool) -> (SIMD16<Int16>, SIMD16<Int16>) {
    let v = p.loadUnaligned(as: SIMD16<UInt16>.self)
    let m = SIMD16<UInt16>(repeating: 0x0f)
    let even = high ? (v &>> 4) & m : v & m
    let odd = high ? v &>> 12 : (v &>> 8) & m
    return (unsafeBitCast(even, to: SIMD16<Int16>.self), unsafeBitCast(odd, to: SIMD16<Int16>.self))
}

/// 16 bytes whose low nibble is weight `j` and high nibble weight `j + 16` (the legacy
/// Q4_0/Q4_1/Q5_0/Q5_1 layout) as even/odd lanes. The bytes are read twice as 32-bit lanes so
/// each half of the result is one shift and one mask (`vpsrlvd` on AVX2, immediate shifts on SSE2).
@inline(__always)
func nibblePairPlanes(_ p: UnsafeRawPointer) -> (SIMD16<Int16>, SIMD16<Int16>) {
    let v = p.loadUnaligned(as: SIMD4<UInt32>.self)
    let b = SIMD8<UInt32>(lowHalf: v, highHalf: v)
    let m = SIMD8<UInt32>(repeating: 0x000f_000f)
    let even = (b &>> SIMD8<UInt32>(0, 0, 0, 0, 4, 4, 4, 4)) & m
    let odd = (b &>> SIMD8<UInt32>(8, 8, 8, 8, 12, 12, 12, 12)) & m
    return (unsafeBitCast(even, to: SIMD16<Int16>.self), unsafeBitCast(odd, to: SIMD16<Int16>.self))
}

/// Bits `shift ..< shift + width` of 32 bytes (weight `i` in byte `i`) as even/odd lanes.
@inline(__always)
func bitPlanes32(_ p: UnsafeRawPointer, shift: Int, mask: UInt16) -> (SIMD16<UInt16>, SIMD16<UInt16>) {
    let v = p.loadUnaligned(as: SIMD16<UInt16>.self)
    let m = SIMD16<UInt16>(repeating: mask)
    return ((v &>> UInt16(shift)) & m, (v &>> UInt16(8 + shift)) & m)
}
