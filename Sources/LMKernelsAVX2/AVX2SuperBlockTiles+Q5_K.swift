#if arch(x86_64)
import LMKernelsCore

/// Q5_K (layout in ``Q5_K``): Q4_K's tile with each chunk's fifth bits beside its nibbles. Tile
/// block, 1,440 bytes (the file's 8 × 176 = 1,408 plus the six-bit scales and mins unpacked to
/// bytes): 4 chunks of 352 bytes, then the 8 rows' f16 `d` and f16 `dmin`. Chunk `c`: the 8 nibble
/// vectors of Q4_K's chunk (lane `r` of vector `v`: row `r`'s `qs[32c + 4v ..< +4]`, low nibbles
/// group `2c`, high nibbles group `2c + 1`); then 2 vectors of fifth bits, byte `k` of lane `r` in
/// vector `h` holding at bit `j` the fifth bit of weight `4(4h + j) + k` of group `2c` and at bit
/// `4 + j` that of group `2c + 1`; then 16 bytes of scales `(sc[2c], sc[2c+1])` per row, then the
/// same for the mins.
extension Q5_KAVX2: AVX2SuperBlockTileFormat {
    typealias RowDot = AVX2SuperBlockDot<Q5_KAVX2>
    static var activationFormat: ActivationFormat { .q8_K }
    static var weightsPerBlock: Int { 256 }
    static var chunkBytes: Int { 352 }
    static var fifthBitsAt: Int { 256 }
    static var scalesAt: Int { 320 }
    static var minsAt: Int { 336 }
    static var dAt: Int { 1408 }
    static var dminAt: Int { 1424 }
    static var tileBlockBytes: Int { 1440 }

    @inline(__always)
    static func packBlock(_ src: UnsafeRawPointer, row r: Int, into dst: UnsafeMutableRawPointer) {
        for c in 0..<4 {
            for v in 0..<8 {
                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q5_K.qsOffset + 32 * c + 4 * v, as: UInt32.self),
                               toByteOffset: chunkBytes * c + 32 * v + 4 * r, as: UInt32.self)
            }
            for h in 0..<2 {
                var bits: UInt32 = 0
                for k in 0..<4 {
                    var byte: UInt8 = 0
                    for j in 0..<4 {
                        // qh[i] holds bit g for weight i of group g.
                        let qh = src.load(fromByteOffset: Q5_K.qhOffset + 4 * (4 * h + j) + k, as: UInt8.self)
                        byte |= ((qh >> UInt8(2 * c)) & 1) << UInt8(j) | ((qh >> UInt8(2 * c + 1)) & 1) << UInt8(4 + j)
                    }
                    bits |= UInt32(byte) << UInt32(8 * k)
                }
                dst.storeBytes(of: bits, toByteOffset: chunkBytes * c + fifthBitsAt + 32 * h + 4 * r, as: UInt32.self)
            }
        }
        let s = KScales(src + Q5_K.scalesOffset)
        for g in 0..<8 {
            let at = chunkBytes * (g >> 1) + 2 * r + (g & 1)
            dst.storeBytes(of: UInt8(s.scale(g)), toByteOffset: scalesAt + at, as: UInt8.self)
            dst.storeBytes(of: UInt8(s.min(g)), toByteOffset: minsAt + at, as: UInt8.self)
        }
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q5_K.dOffset, as: UInt16.self), toByteOffset: dAt + 2 * r, as: UInt16.self)
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q5_K.dminOffset, as: UInt16.self), toByteOffset: dminAt + 2 * r, as: UInt16.self)
    }

    /// The five-bit weights of chunk `c`, vector `v` of tile block `p`: `low` of group `2c`, `high`
    /// of group `2c + 1`.
    @inline(__always)
    static func tileWeights(_ p: UnsafeRawPointer, _ c: Int, _ v: Int) -> (low: SIMD32<UInt8>, high: SIMD32<UInt8>) {
        (tileWeights(p, c, v, high: false), tileWeights(p, c, v, high: true))
    }

    @inline(__always)
    static func fold(_ acc: inout SIMD8<Float>, _ offsets: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) {
        let a = UnsafeRawPointer(x.bytes + 256 * b)
        var sum = SIMD8<Int32>(), minSum = SIMD8<Int32>()
        for c in 0..<4 {
            let s = scalePairs(Q4_KAVX2.widen(p, chunkBytes * c + scalesAt))
            for half in 0..<2 {
                // 4 products of at most 31·128 per pair: 8 per Int16 lane stay under 2^15.
                var low = SIMD16<Int16>(), high = SIMD16<Int16>()
                for v in 4 * half..<4 * half + 4 {
                    let w = tileWeights(p, c, v)
                    low = AVX2.add16(low, AVX2.maddubs(w.low, unsafeBitCast(AVX2.broadcast4(a, 64 * c + 4 * v), to: SIMD32<Int8>.self)))
                    high = AVX2.add16(high, AVX2.maddubs(w.high, unsafeBitCast(AVX2.broadcast4(a, 64 * c + 32 + 4 * v), to: SIMD32<Int8>.self)))
                }
                sum &+= AVX2.madd(low, s.low) &+ AVX2.madd(high, s.high)
            }
            minSum &+= AVX2.madd(Q4_KAVX2.widen(p, chunkBytes * c + minsAt), sumPair(x.groupSums + 8 * b + 2 * c))
        }
        let da = SIMD8<Float>(repeating: x.scales[b])
        acc = acc.addingProduct(AVX2.float(sum), F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self)) * da)
        offsets = offsets.addingProduct(AVX2.float(minSum), -F16CHalves.floats(p.loadUnaligned(fromByteOffset: dminAt, as: SIMD8<UInt16>.self)) * da)
    }
}

extension Q5_KAVX2: AVX2NibbleSuperBlockTile {
    static var vectorsPerSum: Int { 4 }

    /// One group of ``tileWeights(_:_:_:)``.
    @inline(__always)
    static func tileWeights(_ p: UnsafeRawPointer, _ c: Int, _ v: Int, high: Bool) -> SIMD32<UInt8> {
        let q = p.loadUnaligned(fromByteOffset: chunkBytes * c + 32 * v, as: SIMD32<UInt8>.self)
        let bits = p.loadUnaligned(fromByteOffset: chunkBytes * c + fifthBitsAt + 32 * (v >> 2), as: SIMD32<UInt8>.self)
        let j = v & 3
        // Bit j to bit 4 for group 2c, bit 4 + j to bit 4 for group 2c + 1.
        return high ? AVX2.or(AVX2.shiftRight(q, 4), AVX2.and(AVX2.shiftRight(bits, j), AVX2.bytes(0x10)))
                    : AVX2.or(AVX2.and(q, AVX2.bytes(0x0f)), AVX2.and(AVX2.shiftLeft(bits, 4 - j), AVX2.bytes(0x10)))
    }
}

extension Q5_KAVX2 {
    /// Tile `tile` in the prefill layout of ``AVX2PackedSuperBlocks`` (Q4_K's, with five-bit weights).
    @inline(__always)
    static func unpack(_ tile: UnsafeRawPointer, blocks: Int, into packed: UnsafeMutableRawPointer) {
        typealias P = AVX2PackedSuperBlocks<Q5_KAVX2>
        for b in 0..<blocks {
            let p = tile + b * tileBlockBytes, dst = packed + b * P.packedBlockBytes
            for c in 0..<4 {
                for v in 0..<8 {
                    let w = tileWeights(p, c, v)
                    dst.storeBytes(of: w.low, toByteOffset: 32 * (8 * (2 * c) + v), as: SIMD32<UInt8>.self)
                    dst.storeBytes(of: w.high, toByteOffset: 32 * (8 * (2 * c + 1) + v), as: SIMD32<UInt8>.self)
                }
                let s = scalePairs(Q4_KAVX2.widen(p, chunkBytes * c + scalesAt))
                for k in 0..<2 {
                    dst.storeBytes(of: s.low, toByteOffset: P.scalesAt + 32 * (4 * c + k), as: SIMD16<Int16>.self)
                    dst.storeBytes(of: s.high, toByteOffset: P.scalesAt + 32 * (4 * c + 2 + k), as: SIMD16<Int16>.self)
                }
                dst.storeBytes(of: Q4_KAVX2.widen(p, chunkBytes * c + minsAt), toByteOffset: P.offsetsAt + 32 * c, as: SIMD16<Int16>.self)
            }
            dst.storeBytes(of: F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self)),
                           toByteOffset: P.dAt, as: SIMD8<Float>.self)
            dst.storeBytes(of: -F16CHalves.floats(p.loadUnaligned(fromByteOffset: dminAt, as: SIMD8<UInt16>.self)),
                           toByteOffset: P.offsetScaleAt, as: SIMD8<Float>.self)
        }
    }
}
#endif
