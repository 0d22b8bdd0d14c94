#if arch(x86_64)
import LMKernelsCore

// Decode tiles of the K-quants (``AVX2DecodeTiles``): 8 rows' super-blocks interleaved so that a
// 32-bit lane holds one row, as the legacy formats' tiles, with the sub-scales laid out as Int16
// pairs per lane once loaded, so one `vpmaddwd` scales 8 rows at once. A super-block of 8 rows
// then costs its byte multiply-adds and a few scale steps, where the row kernel also unpacks each
// row's 12 bytes of six-bit scales and sums each row horizontally. Integer sums are exact, so
// values equal ``AVX2SuperBlockDot``'s up to Float summation order.

/// A K-quant with decode tiles whose prefill packs from them.
protocol AVX2SuperBlockTileFormat: AVX2PackedSuperBlockFormat, AVX2DecodeTileFormat {
    /// Tile `tile` (`blocks` tile blocks) in the prefill layout of ``AVX2PackedSuperBlocks``.
    static func unpack(_ tile: UnsafeRawPointer, blocks: Int, into packed: UnsafeMutableRawPointer)
}

/// The sub-scale pairs of 8 rows as Int16 lanes, from 16 bytes `(s_r0, s_r1)` per row `r`
/// (zero- or sign-extended by the caller): `low` repeats each row's first, `high` its second.
@inline(__always)
func scalePairs(_ s: SIMD16<Int16>) -> (low: SIMD16<Int16>, high: SIMD16<Int16>) {
    let bytes = unsafeBitCast(s, to: SIMD32<UInt8>.self)
    let low = SIMD32<UInt8>(0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13,
                            0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13)
    let high = SIMD32<UInt8>(2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15,
                             2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15)
    return (unsafeBitCast(AVX2.shuffleBytes(bytes, low), to: SIMD16<Int16>.self),
            unsafeBitCast(AVX2.shuffleBytes(bytes, high), to: SIMD16<Int16>.self))
}

/// Two Int16 activation sums `(s[0], s[1])` in every 32-bit lane.
@inline(__always)
func sumPair(_ s: UnsafePointer<Int16>) -> SIMD16<Int16> {
    unsafeBitCast(SIMD8<UInt32>(repeating: UnsafeRawPointer(s).loadUnaligned(as: UInt32.self)), to: SIMD16<Int16>.self)
}

/// Q4_K (layout in ``Q4_K``). Tile block, 1,184 bytes (the file's 8 × 144 = 1,152 plus the six-bit
/// scales and mins unpacked to bytes), 4 chunks of 288 bytes then the 8 rows' f16 `d` and f16 `dmin`.
/// Chunk `c`: 8 vectors of 32 bytes where lane `r` of vector `v` holds row `r`'s `qs[32c + 4v ..< +4]`
/// (low nibbles: weights `4v..<4v+4` of group `2c`; high: of group `2c + 1`), then 16 bytes of scales
/// `(sc[2c], sc[2c+1])` per row, then the same for the mins. Each chunk is contiguous, so decode
/// reads the tile as one forward stream.
extension Q4_KAVX2: AVX2SuperBlockTileFormat {
    typealias RowDot = AVX2SuperBlockDot<Q4_KAVX2>
    static var activationFormat: ActivationFormat { .q8_K }
    static var weightsPerBlock: Int { 256 }
    static var chunkBytes: Int { 288 }
    static var scalesAt: Int { 256 }
    static var minsAt: Int { 272 }
    static var dAt: Int { 1152 }
    static var dminAt: Int { 1168 }
    static var tileBlockBytes: Int { 1184 }

    @inline(__always)
    static func packBlock(_ src: UnsafeRawPointer, row r: Int, into dst: UnsafeMutableRawPointer) {
        for c in 0..<4 {
            for v in 0..<8 {
                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q4_K.qsOffset + 32 * c + 4 * v, as: UInt32.self),
                               toByteOffset: chunkBytes * c + 32 * v + 4 * r, as: UInt32.self)
            }
        }
        let h = KScales(src + Q4_K.scalesOffset)
        for g in 0..<8 {
            let at = chunkBytes * (g >> 1) + 2 * r + (g & 1)
            dst.storeBytes(of: UInt8(h.scale(g)), toByteOffset: scalesAt + at, as: UInt8.self)
            dst.storeBytes(of: UInt8(h.min(g)), toByteOffset: minsAt + at, as: UInt8.self)
        }
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q4_K.dOffset, as: UInt16.self), toByteOffset: dAt + 2 * r, as: UInt16.self)
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q4_K.dminOffset, as: UInt16.self), toByteOffset: dminAt + 2 * r, as: UInt16.self)
    }

    /// 16 unsigned bytes at `p + offset` as Int16 lanes (`vpmovzxbw`).
    @inline(__always)
    static func widen(_ p: UnsafeRawPointer, _ offset: Int) -> SIMD16<Int16> {
        AVX2.widen(p.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self))
    }

    @inline(__always)
    static func fold(_ acc: inout SIMD8<Float>, _ offsets: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) {
        let a = UnsafeRawPointer(x.bytes + 256 * b)
        var sum = SIMD8<Int32>(), minSum = SIMD8<Int32>()
        for c in 0..<4 {
            // 8 products of at most 15·128 per pair: 16 per Int16 lane stay under 2^15.
            var low = SIMD16<Int16>(), high = SIMD16<Int16>()
            for v in 0..<8 {
                let q = p.loadUnaligned(fromByteOffset: chunkBytes * c + 32 * v, as: SIMD32<UInt8>.self)
                low = AVX2.add16(low, AVX2.maddubs(AVX2.and(q, AVX2.bytes(0x0f)),
                                                   unsafeBitCast(AVX2.broadcast4(a, 64 * c + 4 * v), to: SIMD32<Int8>.self)))
                high = AVX2.add16(high, AVX2.maddubs(AVX2.shiftRight(q, 4),
                                                     unsafeBitCast(AVX2.broadcast4(a, 64 * c + 32 + 4 * v), to: SIMD32<Int8>.self)))
            }
            let s = scalePairs(widen(p, chunkBytes * c + scalesAt))
            sum &+= AVX2.madd(low, s.low) &+ AVX2.madd(high, s.high)
            minSum &+= AVX2.madd(widen(p, chunkBytes * c + minsAt), sumPair(x.groupSums + 8 * b + 2 * c))
        }
        let da = SIMD8<Float>(repeating: x.scales[b])
        acc = acc.addingProduct(AVX2.float(sum), F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self)) * da)
        offsets = offsets.addingProduct(AVX2.float(minSum), -F16CHalves.floats(p.loadUnaligned(fromByteOffset: dminAt, as: SIMD8<UInt16>.self)) * da)
    }
}

/// Q4_K and Q5_K tiles: chunk `c` of a tile block holds groups `2c` (low nibbles) and `2c + 1` (high
/// nibbles) in 8 vectors, then the 8 rows' sub-scale pairs at `scalesAt` and min pairs at `minsAt`.
protocol AVX2NibbleSuperBlockTile: AVX2SuperBlockTileFormat {
    static var chunkBytes: Int { get }
    static var scalesAt: Int { get }
    static var minsAt: Int { get }
    static var dAt: Int { get }
    static var dminAt: Int { get }
    /// Vectors whose byte products one Int16 sum holds: 8 for four-bit weights (16 products of at most
    /// 15·128 per lane), 4 for five-bit ones (8 of at most 31·128).
    static var vectorsPerSum: Int { get }
    /// The unsigned weights of chunk `c`, vector `v` of tile block `p`: group `2c` (`high` false) or `2c + 1`.
    static func tileWeights(_ p: UnsafeRawPointer, _ c: Int, _ v: Int, high: Bool) -> SIMD32<UInt8>
}

extension AVX2NibbleSuperBlockTile {
    /// Four tokens (batched decode) group by group: each weight vector is unpacked once for the four
    /// (four folds in turn unpack it per token), and only four Int16 sums are live. The Int32 sums
    /// are exact, so the values are the folds'.
    @inline(__always)
    static func fold4(_ acc: inout Accumulators4, _ offsets: inout Accumulators4, _ p: UnsafeRawPointer, _ x: ActivationRows4, _ b: Int) {
        let a0 = UnsafeRawPointer(x.0.bytes + 256 * b), a1 = UnsafeRawPointer(x.1.bytes + 256 * b)
        let a2 = UnsafeRawPointer(x.2.bytes + 256 * b), a3 = UnsafeRawPointer(x.3.bytes + 256 * b)
        var s0 = SIMD8<Int32>(), s1 = SIMD8<Int32>(), s2 = SIMD8<Int32>(), s3 = SIMD8<Int32>()
        @inline(__always) func vectors(_ c: Int, _ first: Int, high: Bool, scales: SIMD16<Int16>) {
            var h0 = SIMD16<Int16>(), h1 = SIMD16<Int16>(), h2 = SIMD16<Int16>(), h3 = SIMD16<Int16>()
            let at = 64 * c + (high ? 32 : 0)
            @inline(__always) func add(_ h: inout SIMD16<Int16>, _ q: SIMD32<UInt8>, _ a: UnsafeRawPointer, _ v: Int) {
                h = AVX2.add16(h, AVX2.maddubs(q, unsafeBitCast(AVX2.broadcast4(a, at + 4 * v), to: SIMD32<Int8>.self)))
            }
            for v in first..<first + vectorsPerSum {
                let q = tileWeights(p, c, v, high: high)
                add(&h0, q, a0, v); add(&h1, q, a1, v); add(&h2, q, a2, v); add(&h3, q, a3, v)
            }
            s0 &+= AVX2.madd(h0, scales); s1 &+= AVX2.madd(h1, scales)
            s2 &+= AVX2.madd(h2, scales); s3 &+= AVX2.madd(h3, scales)
        }
        for c in 0..<4 {
            let s = scalePairs(Q4_KAVX2.widen(p, chunkBytes * c + scalesAt))
            for first in stride(from: 0, to: 8, by: vectorsPerSum) {
                vectors(c, first, high: false, scales: s.low)
                vectors(c, first, high: true, scales: s.high)
            }
        }
        @inline(__always) func minSum(_ x: ActivationRow) -> SIMD8<Int32> {
            var m = SIMD8<Int32>()
            for c in 0..<4 { m &+= AVX2.madd(Q4_KAVX2.widen(p, chunkBytes * c + minsAt), sumPair(x.groupSums + 8 * b + 2 * c)) }
            return m
        }
        let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self))
        let dmin = -F16CHalves.floats(p.loadUnaligned(fromByteOffset: dminAt, as: SIMD8<UInt16>.self))
        @inline(__always) func finish(_ acc: inout SIMD8<Float>, _ offsets: inout SIMD8<Float>, _ sum: SIMD8<Int32>, _ x: ActivationRow) {
            let da = SIMD8<Float>(repeating: x.scales[b])
            acc = acc.addingProduct(AVX2.float(sum), d * da)
            offsets = offsets.addingProduct(AVX2.float(minSum(x)), dmin * da)
        }
        finish(&acc.0, &offsets.0, s0, x.0); finish(&acc.1, &offsets.1, s1, x.1)
        finish(&acc.2, &offsets.2, s2, x.2); finish(&acc.3, &offsets.3, s3, x.3)
    }
}

extension Q4_KAVX2: AVX2NibbleSuperBlockTile {
    static var vectorsPerSum: Int { 8 }

    @inline(__always)
    static func tileWeights(_ p: UnsafeRawPointer, _ c: Int, _ v: Int, high: Bool) -> SIMD32<UInt8> {
        let q = p.loadUnaligned(fromByteOffset: chunkBytes * c + 32 * v, as: SIMD32<UInt8>.self)
        return high ? AVX2.shiftRight(q, 4) : AVX2.and(q, AVX2.bytes(0x0f))
    }
}

/// Q6_K (layout in ``Q6_K``). Tile block, 1,680 bytes (the file's 8 × 210): 8 groups of 208 bytes,
/// then the 8 rows' f16 `d`. Group `g` (32 weights): 4 vectors of 32 bytes where lane `r` of vector
/// `j` holds row `r`'s low four bits of weights `32g + 4j ..< +4` (low nibbles) and
/// `32g + 16 + 4j ..< +4` (high nibbles); then 2 vectors of high two bits, byte `i` of lane `r`
/// holding those of weights `32g + 4j + i` (first vector) or `32g + 16 + 4j + i` (second) at bits
/// `2j, 2j+1`; then 16 bytes of Int8 sub-scales `(sc[2g], sc[2g+1])` per row. Each group is
/// contiguous, so decode reads the tile as one forward stream.
extension Q6_KAVX2: AVX2SuperBlockTileFormat {
    typealias RowDot = AVX2SuperBlockDot<Q6_KAVX2>
    static var activationFormat: ActivationFormat { .q8_K }
    static var weightsPerBlock: Int { 256 }
    static var groupBytes: Int { 208 }
    static var highBitsAt: Int { 128 }
    static var scalesAt: Int { 192 }
    static var dAt: Int { 1664 }
    static var tileBlockBytes: Int { 1680 }

    @inline(__always)
    static func packBlock(_ src: UnsafeRawPointer, row r: Int, into dst: UnsafeMutableRawPointer) {
        for g in 0..<8 {
            let q = weights(src, g)  // 32 six-bit values
            for j in 0..<4 {
                var nibbles: UInt32 = 0
                for i in 0..<4 {
                    nibbles |= UInt32((q[4 * j + i] & 0x0f) | (q[16 + 4 * j + i] & 0x0f) << 4) << UInt32(8 * i)
                }
                dst.storeBytes(of: nibbles, toByteOffset: groupBytes * g + 32 * j + 4 * r, as: UInt32.self)
            }
            for half in 0..<2 {
                var bits: UInt32 = 0
                for i in 0..<4 {
                    var byte: UInt8 = 0
                    for j in 0..<4 { byte |= (q[16 * half + 4 * j + i] >> 4) << UInt8(2 * j) }
                    bits |= UInt32(byte) << UInt32(8 * i)
                }
                dst.storeBytes(of: bits, toByteOffset: groupBytes * g + highBitsAt + 32 * half + 4 * r, as: UInt32.self)
            }
            for k in 0..<2 {
                dst.storeBytes(of: src.load(fromByteOffset: Q6_K.scalesOffset + 2 * g + k, as: UInt8.self),
                               toByteOffset: groupBytes * g + scalesAt + 2 * r + k, as: UInt8.self)
            }
        }
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q6_K.dOffset, as: UInt16.self), toByteOffset: dAt + 2 * r, as: UInt16.self)
    }

    /// The unsigned six-bit weights of group `g`, vector `j` of tile block `p`: `low` from the low
    /// nibbles and bits `2j, 2j+1` of the first high-bit vector, `high` from the high ones.
    @inline(__always)
    static func tileWeights(_ p: UnsafeRawPointer, _ g: Int, _ j: Int) -> (low: SIMD32<UInt8>, high: SIMD32<UInt8>) {
        (tileWeights(p, g, j, high: false), tileWeights(p, g, j, high: true))
    }

    /// One half of ``tileWeights(_:_:_:)``.
    @inline(__always)
    static func tileWeights(_ p: UnsafeRawPointer, _ g: Int, _ j: Int, high: Bool) -> SIMD32<UInt8> {
        let q = p.loadUnaligned(fromByteOffset: groupBytes * g + 32 * j, as: SIMD32<UInt8>.self)
        let h = p.loadUnaligned(fromByteOffset: groupBytes * g + highBitsAt + (high ? 32 : 0), as: SIMD32<UInt8>.self)
        // Bits 2j, 2j+1 to bits 4, 5.
        let top = AVX2.and(j < 2 ? AVX2.shiftLeft(h, 4 - 2 * j) : AVX2.shiftRight(h, 2 * j - 4), AVX2.bytes(0x30))
        return AVX2.or(high ? AVX2.shiftRight(q, 4) : AVX2.and(q, AVX2.bytes(0x0f)), top)
    }

    @inline(__always)
    static func fold(_ acc: inout SIMD8<Float>, _ offsets: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) {
        let a = UnsafeRawPointer(x.bytes + 256 * b)
        var sum = SIMD8<Int32>(), correction = SIMD8<Int32>()
        for g in 0..<8 {
            @inline(__always) func products(_ j: Int) -> (low: SIMD16<Int16>, high: SIMD16<Int16>) {
                let w = tileWeights(p, g, j)
                return (AVX2.maddubs(w.low, unsafeBitCast(AVX2.broadcast4(a, 32 * g + 4 * j), to: SIMD32<Int8>.self)),
                        AVX2.maddubs(w.high, unsafeBitCast(AVX2.broadcast4(a, 32 * g + 16 + 4 * j), to: SIMD32<Int8>.self)))
            }
            // Pairs of products of at most 63·128: two per Int16 lane stay under 2^15.
            let p0 = products(0), p1 = products(1), p2 = products(2), p3 = products(3)
            let scales = AVX2.widen(p.loadUnaligned(fromByteOffset: groupBytes * g + scalesAt, as: SIMD16<Int8>.self))
            let s = scalePairs(scales)
            sum &+= (AVX2.madd(AVX2.add16(p0.low, p1.low), s.low) &+ AVX2.madd(AVX2.add16(p2.low, p3.low), s.low))
                &+ (AVX2.madd(AVX2.add16(p0.high, p1.high), s.high) &+ AVX2.madd(AVX2.add16(p2.high, p3.high), s.high))
            correction &+= AVX2.madd(scales, sumPair(x.bsums + 16 * b + 2 * g))
        }
        // The weights' -32 offset, as the row kernel: -32·Σ sc·bsum in the integer sum.
        sum &-= correction &<< 5
        let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self))
        acc = acc.addingProduct(AVX2.float(sum), d * SIMD8(repeating: x.scales[b]))
    }

    /// Four tokens (batched decode) half by half: each vector's six-bit weights are assembled once
    /// for the four (the four folds in turn assemble them per token), and per token one Int16 pair
    /// sum is live. The Int32 sums are exact, so the values are the folds'.
    @inline(__always)
    static func fold4(_ acc: inout Accumulators4, _ offsets: inout Accumulators4, _ p: UnsafeRawPointer, _ x: ActivationRows4, _ b: Int) {
        let a0 = UnsafeRawPointer(x.0.bytes + 256 * b), a1 = UnsafeRawPointer(x.1.bytes + 256 * b)
        let a2 = UnsafeRawPointer(x.2.bytes + 256 * b), a3 = UnsafeRawPointer(x.3.bytes + 256 * b)
        var s0 = SIMD8<Int32>(), s1 = SIMD8<Int32>(), s2 = SIMD8<Int32>(), s3 = SIMD8<Int32>()
        @inline(__always) func half(_ g: Int, high: Bool, scales: SIMD16<Int16>) {
            let at = 32 * g + (high ? 16 : 0)
            // Pairs of products of at most 63·128: two per Int16 lane stay under 2^15.
            for pair in 0..<2 {
                let w0 = tileWeights(p, g, 2 * pair, high: high), w1 = tileWeights(p, g, 2 * pair + 1, high: high)
                @inline(__always) func add(_ s: inout SIMD8<Int32>, _ a: UnsafeRawPointer) {
                    let p0 = AVX2.maddubs(w0, unsafeBitCast(AVX2.broadcast4(a, at + 8 * pair), to: SIMD32<Int8>.self))
                    let p1 = AVX2.maddubs(w1, unsafeBitCast(AVX2.broadcast4(a, at + 8 * pair + 4), to: SIMD32<Int8>.self))
                    s &+= AVX2.madd(AVX2.add16(p0, p1), scales)
                }
                add(&s0, a0); add(&s1, a1); add(&s2, a2); add(&s3, a3)
            }
        }
        for g in 0..<8 {
            let s = scalePairs(AVX2.widen(p.loadUnaligned(fromByteOffset: groupBytes * g + scalesAt, as: SIMD16<Int8>.self)))
            half(g, high: false, scales: s.low)
            half(g, high: true, scales: s.high)
        }
        let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self))
        @inline(__always) func finish(_ acc: inout SIMD8<Float>, _ sum: SIMD8<Int32>, _ x: ActivationRow) {
            var correction = SIMD8<Int32>()
            for g in 0..<8 {
                let scales = AVX2.widen(p.loadUnaligned(fromByteOffset: groupBytes * g + scalesAt, as: SIMD16<Int8>.self))
                correction &+= AVX2.madd(scales, sumPair(x.bsums + 16 * b + 2 * g))
            }
            acc = acc.addingProduct(AVX2.float(sum &- correction &<< 5), d * SIMD8(repeating: x.scales[b]))
        }
        finish(&acc.0, s0, x.0); finish(&acc.1, s1, x.1); finish(&acc.2, s2, x.2); finish(&acc.3, s3, x.3)
    }
}

extension Q4_KAVX2 {
    @inline(__always)
    static func unpack(_ tile: UnsafeRawPointer, blocks: Int, into packed: UnsafeMutableRawPointer) {
        typealias P = AVX2PackedSuperBlocks<Q4_KAVX2>
        for b in 0..<blocks {
            let p = tile + b * tileBlockBytes, dst = packed + b * P.packedBlockBytes
            for c in 0..<4 {
                for v in 0..<8 {
                    let q = p.loadUnaligned(fromByteOffset: chunkBytes * c + 32 * v, as: SIMD32<UInt8>.self)
                    dst.storeBytes(of: AVX2.and(q, AVX2.bytes(0x0f)), toByteOffset: 32 * (8 * (2 * c) + v), as: SIMD32<UInt8>.self)
                    dst.storeBytes(of: AVX2.shiftRight(q, 4), toByteOffset: 32 * (8 * (2 * c + 1) + v), as: SIMD32<UInt8>.self)
                }
                // Sub-blocks 4c, 4c+1 (group 2c) and 4c+2, 4c+3 (group 2c+1) as Int16 pairs per row.
                let s = scalePairs(widen(p, chunkBytes * c + scalesAt))
                dst.storeBytes(of: s.low, toByteOffset: P.scalesAt + 32 * (4 * c), as: SIMD16<Int16>.self)
                dst.storeBytes(of: s.low, toByteOffset: P.scalesAt + 32 * (4 * c + 1), as: SIMD16<Int16>.self)
                dst.storeBytes(of: s.high, toByteOffset: P.scalesAt + 32 * (4 * c + 2), as: SIMD16<Int16>.self)
                dst.storeBytes(of: s.high, toByteOffset: P.scalesAt + 32 * (4 * c + 3), as: SIMD16<Int16>.self)
                dst.storeBytes(of: widen(p, chunkBytes * c + minsAt), toByteOffset: P.offsetsAt + 32 * c, as: SIMD16<Int16>.self)
            }
            dst.storeBytes(of: F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self)),
                           toByteOffset: P.dAt, as: SIMD8<Float>.self)
            dst.storeBytes(of: -F16CHalves.floats(p.loadUnaligned(fromByteOffset: dminAt, as: SIMD8<UInt16>.self)),
                           toByteOffset: P.offsetScaleAt, as: SIMD8<Float>.self)
        }
    }
}

extension Q6_KAVX2 {
    @inline(__always)
    static func unpack(_ tile: UnsafeRawPointer, blocks: Int, into packed: UnsafeMutableRawPointer) {
        typealias P = AVX2PackedSuperBlocks<Q6_KAVX2>
        for b in 0..<blocks {
            let p = tile + b * tileBlockBytes, dst = packed + b * P.packedBlockBytes
            for g in 0..<8 {
                // Packed chunk 8g + k holds weights 32g + 4k ..< +4: k < 4 the low nibbles' vectors.
                for j in 0..<4 {
                    let w = tileWeights(p, g, j)
                    dst.storeBytes(of: w.low, toByteOffset: 32 * (8 * g + j), as: SIMD32<UInt8>.self)
                    dst.storeBytes(of: w.high, toByteOffset: 32 * (8 * g + 4 + j), as: SIMD32<UInt8>.self)
                }
                let scales = AVX2.widen(p.loadUnaligned(fromByteOffset: groupBytes * g + scalesAt, as: SIMD16<Int8>.self))
                let s = scalePairs(scales)
                dst.storeBytes(of: s.low, toByteOffset: P.scalesAt + 32 * (2 * g), as: SIMD16<Int16>.self)
                dst.storeBytes(of: s.high, toByteOffset: P.scalesAt + 32 * (2 * g + 1), as: SIMD16<Int16>.self)
                dst.storeBytes(of: scales, toByteOffset: P.offsetsAt + 32 * g, as: SIMD16<Int16>.self)
            }
            let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: dAt, as: SIMD8<UInt16>.self))
            dst.storeBytes(of: d, toByteOffset: P.dAt, as: SIMD8<Float>.self)
            dst.storeBytes(of: -32 * d, toByteOffset: P.offsetScaleAt, as: SIMD8<Float>.self)
        }
    }
}

/// Prefill for the K-quants as ``AVX2PackedSuperBlocks``, packing each tile of 8 rows from the
/// decode tiles when the matrix has them (so prefill reads the same copy as decode and the file's
/// pages of the tensor can leave memory), else from the file's rows.
enum AVX2PackedFromSuperBlockTiles<F: AVX2SuperBlockTileFormat>: AVX2PackedTileKernel {
    static var weightsPerBlock: Int { 256 }
    static var packedBlockBytes: Int { AVX2PackedSuperBlocks<F>.packedBlockBytes }

    static func pack(_ w: WeightMatrix, rows r0: Int, blocks: Int, into packed: UnsafeMutableRawPointer) {
        if let tiles = w.tiles, r0 % 8 == 0, r0 + 8 <= tiles.rows {
            F.unpack(tiles.tile(r0 / 8), blocks: blocks, into: packed)
        } else {
            AVX2PackedSuperBlocks<F>.pack(w, rows: r0, blocks: blocks, into: packed)
        }
    }

    @inline(__always)
    static func step(_ acc: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int) {
        AVX2PackedSuperBlocks<F>.step(&acc, p, xt, b)
    }

    #if LM_VNNI
    @inline(__always)
    static func step4(_ acc: inout (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), _ p: UnsafeRawPointer,
                      _ x: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), _ b: Int) {
        AVX2PackedSuperBlocks<F>.step4(&acc, p, x, b)
    }
    #else
    @inline(__always)
    static func step2(_ acc0: inout SIMD8<Float>, _ acc1: inout SIMD8<Float>, _ p: UnsafeRawPointer,
                      _ x0: ActivationRow, _ x1: ActivationRow, _ b: Int) {
        AVX2PackedSuperBlocks<F>.step2(&acc0, &acc1, p, x0, x1, b)
    }

    static var sweepsInPairs: Bool { AVX2PackedSuperBlocks<F>.sweepsInPairs }
    #endif

    static func rowMatMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        AVX2PackedSuperBlocks<F>.rowMatMul(w, x, into: y, rows: rows)
    }
}
#endif
