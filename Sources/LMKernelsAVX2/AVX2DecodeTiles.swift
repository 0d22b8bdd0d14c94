#if arch(x86_64)
import LMKernelsCore

/// A block format as the decode tiles see it: how one row's block goes into a tile block of 8
/// rows, and how a tile block is folded against one token's activation block (lane = row).
protocol AVX2DecodeTileFormat: SendableMetatype {
    /// The row kernel for rows outside whole tiles (same values up to Float summation order).
    associatedtype RowDot: RowKernel
    static var activationFormat: ActivationFormat { get }
    /// Weights of one block of the file (32 for the legacy formats, 256 for the K-quants).
    static var weightsPerBlock: Int { get }
    /// Bytes of one block of one row in the file.
    static var blockBytes: Int { get }
    /// Bytes of one block of 8 rows in the tile.
    static var tileBlockBytes: Int { get }
    /// Writes row `r`'s (0..<8) block `src` (the file's layout) into tile block `dst`.
    static func packBlock(_ src: UnsafeRawPointer, row r: Int, into dst: UnsafeMutableRawPointer)
    /// Folds tile block `p` against token row `x`'s block `b` into the 8 rows' `acc` (and `offsets`,
    /// for formats with an offset).
    static func fold(_ acc: inout SIMD8<Float>, _ offsets: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int)
    /// ``fold(_:_:_:_:_:)`` for four token rows, each with the same Float operations in the same
    /// order (so bit for bit), sharing the tile block's loads (by default four folds; a format
    /// overrides it where the compiler would spill registers for the shared work).
    static func fold4(_ acc: inout Accumulators4, _ offsets: inout Accumulators4, _ p: UnsafeRawPointer, _ x: ActivationRows4, _ b: Int)
}

/// Four accumulators of 8 rows, one per token.
typealias Accumulators4 = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)
/// Four token rows folded together.
typealias ActivationRows4 = (ActivationRow, ActivationRow, ActivationRow, ActivationRow)

extension AVX2DecodeTileFormat {
    @inline(__always)
    static func fold4(_ acc: inout Accumulators4, _ offsets: inout Accumulators4, _ p: UnsafeRawPointer, _ x: ActivationRows4, _ b: Int) {
        fold(&acc.0, &offsets.0, p, x.0, b); fold(&acc.1, &offsets.1, p, x.1, b)
        fold(&acc.2, &offsets.2, p, x.2, b); fold(&acc.3, &offsets.3, p, x.3, b)
    }
}

/// A 4- or 5-bit legacy format (Q4_0, Q4_1, Q5_0, Q5_1): 16 bytes of nibbles at `qsOffset` (low
/// nibble of byte `i` is weight `i`, high nibble weight `i + 16`, as in ggml's `block_q4_0`), for
/// the 5-bit formats the fifth bits as a little-endian UInt32 at `qhOffset` (bit `i` for weight
/// `i`), f16 `d` at byte 0 and, with an offset, f16 `m` at byte 2.
///
/// Tile block: 4 vectors of 32 bytes where lane `r` (4 bytes) of vector `j` holds row `r`'s nibble
/// bytes `4j..<4j+4` (weights `4j..<4j+4` low, `16+4j..<16+4j+4` high); for 5 bits then 8 UInt32,
/// row `r`'s fifth bits reordered so that byte `j` holds those of vector `j` (bits 0-3 for its low
/// nibbles, 4-7 for its high ones); then the 8 rows' f16 `d`, then their f16 `m`. As large as the
/// 8 blocks of the file.
protocol AVX2NibbleFormat: AVX2PackedFormat, AVX2DecodeTileFormat {
    static var qsOffset: Int { get }
    /// Byte offset of the fifth bits in the file's block; nil for the 4-bit formats.
    static var qhOffset: Int? { get }
}

extension AVX2NibbleFormat {
    static var weightsPerBlock: Int { 32 }
    /// Bytes of the reordered fifth bits in a tile block.
    static var fifthBitBytes: Int { qhOffset == nil ? 0 : 32 }
    static var dOffset: Int { 128 + fifthBitBytes }
    static var mOffset: Int { dOffset + 16 }
    static var tileBlockBytes: Int { mOffset + (hasOffset ? 16 : 0) }

    @inline(__always)
    static func packBlock(_ src: UnsafeRawPointer, row r: Int, into dst: UnsafeMutableRawPointer) {
        for j in 0..<4 {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: qsOffset + 4 * j, as: UInt32.self),
                           toByteOffset: 32 * j + 4 * r, as: UInt32.self)
        }
        if let qhOffset {
            let qh = UInt32(littleEndian: src.loadUnaligned(fromByteOffset: qhOffset, as: UInt32.self))
            var reordered: UInt32 = 0
            for j in 0..<4 {
                let low = (qh >> UInt32(4 * j)) & 0xf, high = (qh >> UInt32(16 + 4 * j)) & 0xf
                reordered |= (low | high << 4) << UInt32(8 * j)
            }
            dst.storeBytes(of: reordered.littleEndian, toByteOffset: 128 + 4 * r, as: UInt32.self)
        }
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 0, as: UInt16.self), toByteOffset: dOffset + 2 * r, as: UInt16.self)
        if hasOffset {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 2, as: UInt16.self), toByteOffset: mOffset + 2 * r, as: UInt16.self)
        }
    }

    /// The unsigned weights of tile block `p`'s vector `j`: chunk `j` (weights `4j..<4j+4` of each
    /// row) and chunk `4 + j` (weights `16+4j..<16+4j+4`).
    @inline(__always)
    static func chunks(_ p: UnsafeRawPointer, _ j: Int) -> (low: SIMD32<UInt8>, high: SIMD32<UInt8>) {
        let v = p.loadUnaligned(fromByteOffset: 32 * j, as: SIMD32<UInt8>.self)
        var low = AVX2.and(v, AVX2.bytes(0x0f)), high = AVX2.shiftRight(v, 4)
        if qhOffset != nil {
            // Byte j of each lane's reordered bits into all 4 bytes of the lane, then one bit per byte.
            let bits = p.loadUnaligned(fromByteOffset: 128, as: SIMD32<UInt8>.self)
            // Lane starts plus j, as one vector add (a per-byte build of the index costs 30 inserts
            // when j is not a constant).
            let laneStarts = unsafeBitCast(SIMD8<UInt32>(0, 0x0404_0404, 0x0808_0808, 0x0c0c_0c0c, 0, 0x0404_0404, 0x0808_0808, 0x0c0c_0c0c),
                                           to: SIMD32<UInt8>.self)
            let spread = AVX2.shuffleBytes(bits, unsafeBitCast(unsafeBitCast(laneStarts, to: SIMD8<UInt32>.self)
                                                                &+ SIMD8(repeating: UInt32(j) &* 0x0101_0101), to: SIMD32<UInt8>.self))
            let lowBit = unsafeBitCast(SIMD8<UInt32>(repeating: 0x0804_0201), to: SIMD32<UInt8>.self)
            let highBit = unsafeBitCast(SIMD8<UInt32>(repeating: 0x8040_2010), to: SIMD32<UInt8>.self)
            let sixteen = AVX2.bytes(0x10)
            low = AVX2.or(low, AVX2.and(AVX2.equalMask(AVX2.and(spread, lowBit), lowBit), sixteen))
            high = AVX2.or(high, AVX2.and(AVX2.equalMask(AVX2.and(spread, highBit), highBit), sixteen))
        }
        return (low, high)
    }

    @inline(__always)
    static func fold(_ acc: inout SIMD8<Float>, _ offsets: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) {
        let a = UnsafeRawPointer(x.bytes + 32 * b)
        @inline(__always) func chunk(_ j: Int) -> SIMD16<Int16> {
            let w = chunks(p, j)
            let lo = unsafeBitCast(AVX2.broadcast4(a, 4 * j), to: SIMD32<Int8>.self)
            let hi = unsafeBitCast(AVX2.broadcast4(a, 16 + 4 * j), to: SIMD32<Int8>.self)
            return AVX2.add16(AVX2.maddubs(w.low, lo), AVX2.maddubs(w.high, hi))
        }
        var sum: SIMD8<Int32>
        #if LM_VNNI
        // Low and high nibbles in two chains, so consecutive vpdpbusd do not all wait on one accumulator.
        var low = SIMD8<Int32>(), high = SIMD8<Int32>()
        @inline(__always) func add(_ j: Int) {
            let w = chunks(p, j)
            low = AVX2.dotAdd(low, w.low, unsafeBitCast(AVX2.broadcast4(a, 4 * j), to: SIMD32<Int8>.self))
            high = AVX2.dotAdd(high, w.high, unsafeBitCast(AVX2.broadcast4(a, 16 + 4 * j), to: SIMD32<Int8>.self))
        }
        add(0); add(1); add(2); add(3)
        sum = low &+ high
        #else
        let ones = SIMD16<Int16>(repeating: 1)
        if maxUnsigned < 16 {
            // 8 products of at most 15·127 per Int16 lane and chunk pair: 4 pairs stay under 2^15.
            sum = AVX2.madd(AVX2.add16(AVX2.add16(chunk(0), chunk(1)), AVX2.add16(chunk(2), chunk(3))), ones)
        } else {
            // 5 bits: 2 pairs (31·127·8 = 31,496) per Int16 sum, then widen.
            sum = AVX2.madd(AVX2.add16(chunk(0), chunk(1)), ones) &+ AVX2.madd(AVX2.add16(chunk(2), chunk(3)), ones)
        }
        #endif
        if offset != 0 { sum &-= SIMD8(repeating: offset &* Int32(x.groupSums[b])) }
        let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: dOffset, as: SIMD8<UInt16>.self))
        acc = acc.addingProduct(AVX2.float(sum), d * x.scales[b])
        if hasOffset {
            offsets = offsets.addingProduct(F16CHalves.floats(p.loadUnaligned(fromByteOffset: mOffset, as: SIMD8<UInt16>.self)),
                                            SIMD8(repeating: x.sums[b]))
        }
    }
}

extension Q4_0AVX2: AVX2NibbleFormat {
    typealias RowDot = AVX2BlockDot<Q4_0AVX2>
    static var qsOffset: Int { Q4_0.qsOffset }
    static var qhOffset: Int? { nil }
}
extension Q4_1AVX2: AVX2NibbleFormat {
    typealias RowDot = AVX2BlockDot<Q4_1AVX2>
    static var qsOffset: Int { Q4_1.qsOffset }
    static var qhOffset: Int? { nil }
}
extension Q5_0AVX2: AVX2NibbleFormat {
    typealias RowDot = AVX2BlockDot<Q5_0AVX2>
    static var qsOffset: Int { Q5_0.qsOffset }
    static var qhOffset: Int? { Q5_0.qhOffset }
}
extension Q5_1AVX2: AVX2NibbleFormat {
    typealias RowDot = AVX2BlockDot<Q5_1AVX2>
    static var qsOffset: Int { Q5_1.qsOffset }
    static var qhOffset: Int? { Q5_1.qhOffset }
}

/// Q8_0 (ggml's `block_q8_0`). Tile block: 8 vectors of 32 bytes where lane `r` of vector `k` holds
/// row `r`'s weights `4k..<4k+4`, then the 8 rows' f16 `d`: as large as the 8 blocks of the file.
/// Signed by signed bytes as ggml's AVX2 `mul_sum_i8_pairs` (`|w|` against `a` with `w`'s signs).
extension Q8_0AVX2: AVX2DecodeTileFormat {
    typealias RowDot = AVX2BlockDot<Q8_0AVX2>
    static var weightsPerBlock: Int { 32 }
    static var tileBlockBytes: Int { 256 + 16 }

    @inline(__always)
    static func packBlock(_ src: UnsafeRawPointer, row r: Int, into dst: UnsafeMutableRawPointer) {
        for k in 0..<8 {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: Q8_0.qsOffset + 4 * k, as: UInt32.self),
                           toByteOffset: 32 * k + 4 * r, as: UInt32.self)
        }
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: 0, as: UInt16.self), toByteOffset: 256 + 2 * r, as: UInt16.self)
    }

    @inline(__always)
    static func fold(_ acc: inout SIMD8<Float>, _ offsets: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) {
        let a = UnsafeRawPointer(x.bytes + 32 * b)
        @inline(__always) func chunk(_ k: Int) -> SIMD8<Int32> {
            AVX2.signedDot32(p.loadUnaligned(fromByteOffset: 32 * k, as: SIMD32<Int8>.self),
                             unsafeBitCast(AVX2.broadcast4(a, 4 * k), to: SIMD32<Int8>.self))
        }
        let sum = ((chunk(0) &+ chunk(1)) &+ (chunk(2) &+ chunk(3))) &+ ((chunk(4) &+ chunk(5)) &+ (chunk(6) &+ chunk(7)))
        let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: 256, as: SIMD8<UInt16>.self))
        acc = acc.addingProduct(AVX2.float(sum), d * x.scales[b])
    }

    /// Chunk by chunk, each weight vector and its absolute value serving the four tokens (exact
    /// Int32 sums, so the same values as four ``fold(_:_:_:_:_:)``s).
    @inline(__always)
    static func fold4(_ acc: inout Accumulators4, _ offsets: inout Accumulators4, _ p: UnsafeRawPointer, _ x: ActivationRows4, _ b: Int) {
        let a0 = UnsafeRawPointer(x.0.bytes + 32 * b), a1 = UnsafeRawPointer(x.1.bytes + 32 * b)
        let a2 = UnsafeRawPointer(x.2.bytes + 32 * b), a3 = UnsafeRawPointer(x.3.bytes + 32 * b)
        var s0 = SIMD8<Int32>(), s1 = SIMD8<Int32>(), s2 = SIMD8<Int32>(), s3 = SIMD8<Int32>()
        @inline(__always) func add(_ s: inout SIMD8<Int32>, _ u: SIMD32<UInt8>, _ w: SIMD32<Int8>, _ a: UnsafeRawPointer, _ k: Int) {
            let signed = AVX2.sign(unsafeBitCast(AVX2.broadcast4(a, 4 * k), to: SIMD32<Int8>.self), w)
            #if LM_VNNI
            s = AVX2.dotAdd(s, u, signed)
            #else
            s &+= AVX2.dot32(u, signed)
            #endif
        }
        @inline(__always) func chunk(_ k: Int) {
            let w = p.loadUnaligned(fromByteOffset: 32 * k, as: SIMD32<Int8>.self)
            let u = unsafeBitCast(AVX2.sign(w, w), to: SIMD32<UInt8>.self)
            add(&s0, u, w, a0, k); add(&s1, u, w, a1, k); add(&s2, u, w, a2, k); add(&s3, u, w, a3, k)
        }
        // Written out: the compiler keeps a loop over k, whose counter costs a tenth of the block.
        chunk(0); chunk(1); chunk(2); chunk(3); chunk(4); chunk(5); chunk(6); chunk(7)
        let d = F16CHalves.floats(p.loadUnaligned(fromByteOffset: 256, as: SIMD8<UInt16>.self))
        acc.0 = acc.0.addingProduct(AVX2.float(s0), d * x.0.scales[b])
        acc.1 = acc.1.addingProduct(AVX2.float(s1), d * x.1.scales[b])
        acc.2 = acc.2.addingProduct(AVX2.float(s2), d * x.2.scales[b])
        acc.3 = acc.3.addingProduct(AVX2.float(s3), d * x.3.scales[b])
    }
}

/// Decode (one token) on weights repacked once at load into tiles of 8 rows (each tile's blocks
/// contiguous, in the format's tile layout; the idea of ggml's repacked `block_q4_0x8`). A
/// broadcast of 4 activation bytes against one tile vector gives, with `vpmaddubsw`, partial sums
/// of all 8 rows at once: a block costs its byte multiply-adds and one scale step for 8 rows,
/// where the row kernel spends that per row plus a horizontal sum. Tiles are as large as the
/// weights, so decode reads the same bytes.
///
/// Integer sums are exact, so values equal ``AVX2BlockDot``'s up to Float summation order.
enum AVX2DecodeTiles<F: AVX2DecodeTileFormat> {
    /// `w`'s whole groups of 8 rows repacked (nil when it has fewer than 8 rows). `release` gets each
    /// stretch of about 1 MiB of source rows once they are packed.
    static func pack(_ w: WeightMatrix, release: ((UnsafeRawPointer, Int) -> Void)? = nil) -> WeightTiles? {
        let tiles = w.rows / 8, blocks = w.cols / F.weightsPerBlock
        guard tiles > 0 else { return nil }
        let tileBytes = blocks * F.tileBlockBytes
        let storage = WeightTiles.Storage(byteCount: tiles * tileBytes)
        let tilesPerStretch = max(1, (1 << 20) / (8 * w.rowBytes))
        var released = 0
        for t in 0..<tiles {
            let tile = storage.base + t * tileBytes
            for r in 0..<8 {
                let row = w.row(8 * t + r)
                for b in 0..<blocks { F.packBlock(row + b * F.blockBytes, row: r, into: tile + b * F.tileBlockBytes) }
            }
            if let release, (t + 1) % tilesPerStretch == 0 || t + 1 == tiles {
                release(w.row(released), (8 * (t + 1) - released) * w.rowBytes)
                released = 8 * (t + 1)
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
        for r in rows.lowerBound..<first { y[r] = F.RowDot.dot(w.row(r), x, cols: cols) }
        var r0 = first
        while r0 < end {
            let v = dot8(tiles.tile(r0 / 8), x, blocks: cols / F.weightsPerBlock)
            UnsafeMutableRawPointer(y + r0).storeBytes(of: v, as: SIMD8<Float>.self)
            r0 += 8
        }
        for r in end..<rows.upperBound { y[r] = F.RowDot.dot(w.row(r), x, cols: cols) }
    }

    /// ``matVec(_:_:_:into:rows:)`` for every token of `x` (`y[t * w.rows + r]`), bit for bit: a tile
    /// block is folded against four tokens in a row, each with the one-token arithmetic, so its
    /// loads and nibble unpacking serve the four.
    static func matVecs(_ w: WeightMatrix, _ tiles: WeightTiles, _ x: ActivationRows,
                        into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let first = min((rows.lowerBound + 7) / 8 * 8, rows.upperBound)
        let end = max(first, min(rows.upperBound, tiles.rows) / 8 * 8)
        let cols = w.cols, blocks = cols / F.weightsPerBlock, n = x.nTokens
        for t in 0..<n {
            let xt = x.row(t), yt = y + t * w.rows
            for r in rows.lowerBound..<first { yt[r] = F.RowDot.dot(w.row(r), xt, cols: cols) }
            for r in end..<rows.upperBound { yt[r] = F.RowDot.dot(w.row(r), xt, cols: cols) }
        }
        @inline(__always) func store(_ v: SIMD8<Float>, _ t: Int, _ r0: Int) {
            UnsafeMutableRawPointer(y + t * w.rows + r0).storeBytes(of: v, as: SIMD8<Float>.self)
        }
        var r0 = first
        while r0 < end {
            let tile = tiles.tile(r0 / 8)
            var t = 0
            while t + 4 <= n {
                let v = dot8x4(tile, x.row(t), x.row(t + 1), x.row(t + 2), x.row(t + 3), blocks: blocks)
                store(v.0, t, r0); store(v.1, t + 1, r0); store(v.2, t + 2, r0); store(v.3, t + 3, r0)
                t += 4
            }
            while t < n { store(dot8(tile, x.row(t), blocks: blocks), t, r0); t += 1 }
            r0 += 8
        }
    }

    /// The 8 rows of `tile` against `x` (lane = row).
    @inline(__always)
    static func dot8(_ tile: UnsafeRawPointer, _ x: ActivationRow, blocks: Int) -> SIMD8<Float> {
        var acc = SIMD8<Float>(), offsets = SIMD8<Float>()
        for b in 0..<blocks { F.fold(&acc, &offsets, tile + b * F.tileBlockBytes, x, b) }
        return acc + offsets
    }

    /// ``dot8(_:_:blocks:)`` for four tokens, each with the same operations in the same order.
    @inline(__always)
    static func dot8x4(_ tile: UnsafeRawPointer, _ x0: ActivationRow, _ x1: ActivationRow, _ x2: ActivationRow,
                       _ x3: ActivationRow, blocks: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        var acc: Accumulators4 = (SIMD8(), SIMD8(), SIMD8(), SIMD8()), offsets = acc
        for b in 0..<blocks { F.fold4(&acc, &offsets, tile + b * F.tileBlockBytes, (x0, x1, x2, x3), b) }
        return (acc.0 + offsets.0, acc.1 + offsets.1, acc.2 + offsets.2, acc.3 + offsets.3)
    }
}

extension AVX2DecodeTiles where F: AVX2NibbleFormat {
    /// Tile `tile` in the prefill layout of ``AVX2PackedTiles`` (unsigned bytes, chunk `k` = weights
    /// `4k..<4k+4` of the 8 rows, then `d` and `m` as Float), from ``AVX2NibbleFormat/chunks(_:_:)``.
    @inline(__always)
    static func unpack(_ tile: UnsafeRawPointer, blocks: Int, into packed: UnsafeMutableRawPointer) {
        for b in 0..<blocks {
            let p = tile + b * F.tileBlockBytes, dst = packed + b * AVX2PackedTiles<F>.packedBlockBytes
            for j in 0..<4 {
                let w = F.chunks(p, j)
                dst.storeBytes(of: w.low, toByteOffset: 32 * j, as: SIMD32<UInt8>.self)
                dst.storeBytes(of: w.high, toByteOffset: 32 * (4 + j), as: SIMD32<UInt8>.self)
            }
            dst.storeBytes(of: F16CHalves.floats(p.loadUnaligned(fromByteOffset: F.dOffset, as: SIMD8<UInt16>.self)),
                           toByteOffset: 256, as: SIMD8<Float>.self)
            let m = F.hasOffset ? F16CHalves.floats(p.loadUnaligned(fromByteOffset: F.mOffset, as: SIMD8<UInt16>.self)) : SIMD8<Float>()
            dst.storeBytes(of: m, toByteOffset: 288, as: SIMD8<Float>.self)
        }
    }
}

/// Prefill for Q4_0, Q4_1, Q5_0 and Q5_1 as ``AVX2PackedTiles``, packing each tile of 8 rows from the decode
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

    @inline(__always)
    static func step2(_ acc0: inout SIMD8<Float>, _ acc1: inout SIMD8<Float>, _ p: UnsafeRawPointer,
                      _ x0: ActivationRow, _ x1: ActivationRow, _ b: Int) {
        AVX2PackedTiles<F>.step2(&acc0, &acc1, p, x0, x1, b)
    }

    static var sweepsInPairs: Bool { AVX2PackedTiles<F>.sweepsInPairs }

    static func rowMatMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        AVX2PackedTiles<F>.rowMatMul(w, x, into: y, rows: rows)
    }
}
#endif
