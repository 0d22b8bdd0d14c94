#if arch(x86_64)
import LMKernelsCore

/// A 4-bit legacy format (Q4_0, Q4_1) as the decode tiles see it: 16 bytes of nibbles at
/// `qsOffset` (low nibble of byte `i` is weight `i`, high nibble weight `i + 16`, as in ggml's
/// `block_q4_0`/`block_q4_1`), f16 `d` at byte 0 and, with an offset, f16 `m` at byte 2.
protocol AVX2NibbleFormat: AVX2PackedFormat {
    static var qsOffset: Int { get }
}

extension Q4_0AVX2: AVX2NibbleFormat { static var qsOffset: Int { Q4_0.qsOffset } }
extension Q4_1AVX2: AVX2NibbleFormat { static var qsOffset: Int { Q4_1.qsOffset } }

/// Decode (one token) for Q4_0 and Q4_1 on weights repacked once at load into tiles of 8 rows,
/// the layout of ggml's repacked `block_q4_0x8` in spirit: per block of 32 weights, 4 vectors of
/// 32 bytes where lane `r` (4 bytes) of vector `j` holds row `r`'s nibble bytes `4j..<4j+4`
/// (weights `4j..<4j+4` low, `16+4j..<16+4j+4` high), then the 8 rows' f16 `d`, then their f16 `m`
/// (Q4_1). A broadcast of 4 activation bytes against one vector's nibbles gives, with
/// `vpmaddubsw`, partial sums of all 8 rows at once: a block costs 8 byte multiply-adds and one
/// scale step for 8 rows, where the row kernel spends that per row plus a horizontal sum. The tile
/// block is as large as the 8 original blocks, so decode reads the same bytes.
///
/// Integer sums are exact, so values equal ``AVX2BlockDot``'s up to Float summation order.
enum AVX2DecodeTiles<F: AVX2NibbleFormat> {
    /// Bytes of one block of 8 rows: 128 of nibbles, 16 of `d`, and 16 of `m` with an offset.
    static var blockBytes: Int { 128 + 16 + (F.hasOffset ? 16 : 0) }

    /// `w`'s whole groups of 8 rows repacked (nil when it has fewer than 8 rows).
    static func pack(_ w: WeightMatrix) -> WeightTiles? {
        let tiles = w.rows / 8, blocks = w.cols / 32
        guard tiles > 0 else { return nil }
        let tileBytes = blocks * blockBytes
        let storage = WeightTiles.Storage(byteCount: tiles * tileBytes)
        for t in 0..<tiles {
            let tile = storage.base + t * tileBytes
            for r in 0..<8 {
                let row = w.row(8 * t + r)
                for b in 0..<blocks {
                    let src = row + b * F.blockBytes, dst = tile + b * blockBytes
                    for j in 0..<4 {
                        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: F.qsOffset + 4 * j, as: UInt32.self),
                                       toByteOffset: 32 * j + 4 * r, as: UInt32.self)
                    }
                    dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 0, as: UInt16.self), toByteOffset: 128 + 2 * r, as: UInt16.self)
                    if F.hasOffset {
                        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 2, as: UInt16.self), toByteOffset: 144 + 2 * r, as: UInt16.self)
                    }
                }
            }
        }
        return WeightTiles(storage: storage, base: storage.base, rows: 8 * tiles, tileBytes: tileBytes)
    }

    /// `y[r] = w[r] · x` for `r` in `rows`: whole tiles from `tiles`, rows outside them by the row kernel.
    @inline(__always)
    static func matVec(_ w: WeightMatrix, _ tiles: WeightTiles, _ x: ActivationRow,
                       into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let first = min((rows.lowerBound + 7) / 8 * 8, rows.upperBound)
        let end = max(first, min(rows.upperBound, tiles.rows) / 8 * 8)
        let cols = w.cols
        for r in rows.lowerBound..<first { y[r] = AVX2BlockDot<F>.dot(w.row(r), x, cols: cols) }
        var r0 = first
        while r0 < end {
            let v = dot8(tiles.tile(r0 / 8), x, blocks: cols / 32)
            UnsafeMutableRawPointer(y + r0).storeBytes(of: v, as: SIMD8<Float>.self)
            r0 += 8
        }
        for r in end..<rows.upperBound { y[r] = AVX2BlockDot<F>.dot(w.row(r), x, cols: cols) }
    }

    /// Tile `tile` in the prefill layout of ``AVX2PackedTiles`` (unsigned bytes, chunk `k` = weights
    /// `4k..<4k+4` of the 8 rows, then `d` and `m` as Float): low nibbles of vector `j` are chunk `j`,
    /// high nibbles chunk `4 + j`.
    @inline(__always)
    static func unpack(_ tile: UnsafeRawPointer, blocks: Int, into packed: UnsafeMutableRawPointer) {
        for b in 0..<blocks {
            let p = tile + b * blockBytes, dst = packed + b * AVX2PackedTiles<F>.packedBlockBytes
            for j in 0..<4 {
                let v = p.loadUnaligned(fromByteOffset: 32 * j, as: SIMD32<UInt8>.self)
                dst.storeBytes(of: AVX2.and(v, AVX2.bytes(0x0f)), toByteOffset: 32 * j, as: SIMD32<UInt8>.self)
                dst.storeBytes(of: AVX2.shiftRight(v, 4), toByteOffset: 32 * (4 + j), as: SIMD32<UInt8>.self)
            }
            dst.storeBytes(of: F16CHalves.floats(p.loadUnaligned(fromByteOffset: 128, as: SIMD8<UInt16>.self)),
                           toByteOffset: 256, as: SIMD8<Float>.self)
            let m = F.hasOffset ? F16CHalves.floats(p.loadUnaligned(fromByteOffset: 144, as: SIMD8<UInt16>.self)) : SIMD8<Float>()
            dst.storeBytes(of: m, toByteOffset: 288, as: SIMD8<Float>.self)
        }
    }

    /// The 8 rows of `tile` against `x` (lane = row).
    @inline(__always)
    static func dot8(_ tile: UnsafeRawPointer, _ x: ActivationRow, blocks: Int) -> SIMD8<Float> {
        var acc = SIMD8<Float>(), offsets = SIMD8<Float>()
        for b in 0..<blocks {
            let p = tile + b * blockBytes
            let a = UnsafeRawPointer(x.bytes + 32 * b)
            @inline(__always) func chunk(_ j: Int) -> SIMD16<Int16> {
                let v = p.loadUnaligned(fromByteOffset: 32 * j, as: SIMD32<UInt8>.self)
                let lo = unsafeBitCast(SIMD8<UInt32>(repeating: a.loadUnaligned(fromByteOffset: 4 * j, as: UInt32.self)), to: SIMD32<Int8>.self)
                let hi = unsafeBitCast(SIMD8<UInt32>(repeating: a.loadUnaligned(fromByteOffset: 16 + 4 * j, as: UInt32.self)), to: SIMD32<Int8>.self)
                return AVX2.add16(AVX2.maddubs(AVX2.and(v, AVX2.bytes(0x0f)), lo), AVX2.maddubs(AVX2.shiftRight(v, 4), hi))
            }
            // 8 products of at most 15·127 per Int16 lane and chunk pair: 4 pairs stay under 2^15.
            var sum = AVX2.madd(AVX2.add16(AVX2.add16(chunk(0), chunk(1)), AVX2.add16(chunk(2), chunk(3))), SIMD16(repeating: 1))
            if F.offset != 0 { sum &-= SIMD8(repeating: F.offset &* Int32(x.groupSums[b])) }
            let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: 128, as: SIMD8<UInt16>.self))
            acc = acc.addingProduct(AVX2.float(sum), d * x.scales[b])
            if F.hasOffset {
                offsets = offsets.addingProduct(F16CHalves.floats(p.loadUnaligned(fromByteOffset: 144, as: SIMD8<UInt16>.self)),
                                                SIMD8(repeating: x.sums[b]))
            }
        }
        return acc + offsets
    }
}

/// Prefill for Q4_0 and Q4_1 as ``AVX2PackedTiles``, packing each tile of 8 rows from the decode
/// tiles when the matrix has them and the tile lines up with one (so prefill reads the same copy
/// as decode, and the file's pages of the tensor can leave memory), else from the file's rows.
enum AVX2PackedFromDecodeTiles<F: AVX2NibbleFormat>: AVX2PackedTileKernel {
    static var weightsPerBlock: Int { 32 }
    static var packedBlockBytes: Int { AVX2PackedTiles<F>.packedBlockBytes }

    static func pack(_ w: WeightMatrix, rows r0: Int, blocks: Int, into packed: UnsafeMutableRawPointer) {
        if let tiles = w.tiles, r0 % 8 == 0, r0 + 8 <= tiles.rows {
            AVX2DecodeTiles<F>.unpack(tiles.tile(r0 / 8), blocks: blocks, into: packed)
        } else {
            AVX2PackedTiles<F>.pack(w, rows: r0, blocks: blocks, into: packed)
        }
    }

    @inline(__always)
    static func step(_ acc: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int) {
        AVX2PackedTiles<F>.step(&acc, p, xt, b)
    }

    static func rowMatMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        AVX2PackedTiles<F>.rowMatMul(w, x, into: y, rows: rows)
    }
}
#endif
