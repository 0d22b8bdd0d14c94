#if arch(x86_64)
import LMKernelsCore

/// A legacy 32-weight block format as the packed prefill tiles see it: the weights as unsigned
/// bytes `u` (< 32) with `weight = (u - offset)·d + m`.
protocol AVX2PackedFormat: AVX2BlockFormat {
    /// Block `block`'s 32 weights as unsigned bytes in natural order.
    static func unsigned(_ block: UnsafeRawPointer) -> SIMD32<UInt8>
    /// Subtracted from every unsigned weight (8 for Q4_0, 16 for Q5_0, 0 for formats with `m`).
    static var offset: Int32 { get }
    /// The largest unsigned weight (how many byte products fit an Int16 sum).
    static var maxUnsigned: Int { get }
}

extension Q4_0AVX2: AVX2PackedFormat {
    @inline(__always)
    static func unsigned(_ block: UnsafeRawPointer) -> SIMD32<UInt8> {
        let v = block.loadUnaligned(fromByteOffset: Q4_0.qsOffset, as: SIMD16<UInt8>.self)
        return SIMD32(lowHalf: v & 0x0f, highHalf: v &>> 4)
    }
    static var offset: Int32 { 8 }
    static var maxUnsigned: Int { 15 }
}

extension Q4_1AVX2: AVX2PackedFormat {
    @inline(__always)
    static func unsigned(_ block: UnsafeRawPointer) -> SIMD32<UInt8> { decode(block) }
    static var offset: Int32 { 0 }
    static var maxUnsigned: Int { 15 }
}

extension Q5_0AVX2: AVX2PackedFormat {
    @inline(__always)
    static func unsigned(_ block: UnsafeRawPointer) -> SIMD32<UInt8> {
        let v = block.loadUnaligned(fromByteOffset: Q5_0.qsOffset, as: SIMD16<UInt8>.self)
        let nibbles = SIMD32(lowHalf: v & 0x0f, highHalf: v &>> 4)
        let fifth = AVX2.bytesFromBits(UInt32(littleEndian: block.loadUnaligned(fromByteOffset: Q5_0.qhOffset, as: UInt32.self)))
        return AVX2.or(nibbles, AVX2.and(fifth, AVX2.bytes(0x10)))
    }
    static var offset: Int32 { 16 }
    static var maxUnsigned: Int { 31 }
}

extension Q5_1AVX2: AVX2PackedFormat {
    @inline(__always)
    static func unsigned(_ block: UnsafeRawPointer) -> SIMD32<UInt8> { decode(block) }
    static var offset: Int32 { 0 }
    static var maxUnsigned: Int { 31 }
}

/// Prefill (many tokens) for the legacy formats as a packed GEMM: each tile of 8 weight rows is
/// repacked once per call so that each 32-bit lane of a register holds 4 consecutive weights of
/// one row (block `b`, chunk `k` = weights `4k..<4k+4` of rows 0..<8), then swept over every token.
/// A broadcast of 4 activation bytes against one chunk gives, with `vpmaddubsw`, the partial dot
/// products of all 8 rows at once, so a block costs 8 byte multiply-adds per token for 8 rows
/// (instead of one per row plus a horizontal sum), and the scales multiply 8 rows in one vector.
/// The weights stay memory-mapped; the repacked tile is scratch of `nBlocks × 320` bytes.
///
/// Integer sums are exact, so the values equal ``AVX2BlockDot``'s up to Float summation order.
enum AVX2PackedTiles<F: AVX2PackedFormat>: AVX2PackedTileKernel {
    /// Bytes of one packed block of 8 rows: 8 chunks of 32 bytes, then `d` and `m` of the 8 rows.
    static var packedBlockBytes: Int { 256 + 64 }

    static var weightsPerBlock: Int { 32 }

    static func rowMatMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        RowLoops<AVX2BlockDot<F>>.matMul(w, x, into: y, rows: rows)
    }

    /// Repacks rows `r0..<r0+8` of `w`.
    @inline(__always)
    static func pack(_ w: WeightMatrix, rows r0: Int, blocks: Int, into packed: UnsafeMutableRawPointer) {
        for r in 0..<8 {
            let row = w.row(r0 + r)
            for b in 0..<blocks {
                let block = row + b * F.blockBytes
                let lanes = unsafeBitCast(F.unsigned(block), to: SIMD8<UInt32>.self)
                let dst = packed + b * packedBlockBytes
                for k in 0..<8 { dst.storeBytes(of: lanes[k], toByteOffset: 32 * k + 4 * r, as: UInt32.self) }
                dst.storeBytes(of: AVX2.half(block, 0), toByteOffset: 256 + 4 * r, as: Float.self)
                dst.storeBytes(of: F.hasOffset ? AVX2.half(block, 2) : 0, toByteOffset: 288 + 4 * r, as: Float.self)
            }
        }
    }

    /// The integer dot products of block `b` of the 8 packed rows with token row `x`'s block:
    /// per lane (row), `Σ (u - offset)·q` over the 32 weights.
    @inline(__always)
    static func blockDot(_ chunks: UnsafeRawPointer, _ x: ActivationRow, _ b: Int) -> SIMD8<Int32> {
        let a = UnsafeRawPointer(x.bytes + 32 * b)
        @inline(__always) func pair(_ k: Int) -> SIMD16<Int16> {
            let w = chunks.loadUnaligned(fromByteOffset: 32 * k, as: SIMD32<UInt8>.self)
            let q = unsafeBitCast(SIMD8<UInt32>(repeating: a.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)), to: SIMD32<Int8>.self)
            return AVX2.maddubs(w, q)
        }
        var sum: SIMD8<Int32>
        #if LM_VNNI
        // Two chains, so consecutive vpdpbusd do not all wait on one accumulator.
        var even = SIMD8<Int32>(), odd = SIMD8<Int32>()
        for k in stride(from: 0, to: 8, by: 2) {
            even = AVX2.dotAdd(even, chunks.loadUnaligned(fromByteOffset: 32 * k, as: SIMD32<UInt8>.self),
                               unsafeBitCast(AVX2.broadcast4(a, 4 * k), to: SIMD32<Int8>.self))
            odd = AVX2.dotAdd(odd, chunks.loadUnaligned(fromByteOffset: 32 * (k + 1), as: SIMD32<UInt8>.self),
                              unsafeBitCast(AVX2.broadcast4(a, 4 * (k + 1)), to: SIMD32<Int8>.self))
        }
        sum = even &+ odd
        #else
        let ones = SIMD16<Int16>(repeating: 1)
        if F.maxUnsigned < 16 {
            // 16 products of at most 15·127 per Int16 lane: 30,480 < 2^15.
            let s = AVX2.add16(AVX2.add16(AVX2.add16(pair(0), pair(1)), AVX2.add16(pair(2), pair(3))),
                               AVX2.add16(AVX2.add16(pair(4), pair(5)), AVX2.add16(pair(6), pair(7))))
            sum = AVX2.madd(s, ones)
        } else {
            // 5-bit weights: 8 products per Int16 lane at most (31,496), then widen.
            let s0 = AVX2.add16(AVX2.add16(pair(0), pair(1)), AVX2.add16(pair(2), pair(3)))
            let s1 = AVX2.add16(AVX2.add16(pair(4), pair(5)), AVX2.add16(pair(6), pair(7)))
            sum = AVX2.madd(s0, ones) &+ AVX2.madd(s1, ones)
        }
        #endif
        if F.offset != 0 { sum &-= SIMD8(repeating: F.offset &* Int32(x.groupSums[b])) }
        return sum
    }

    /// Folds token row `xt`'s block `b` against packed block `p` into `acc`.
    @inline(__always)
    static func step(_ acc: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int) {
        scale(&acc, blockDot(p, xt, b), p, xt, b)
    }

    /// Adds the 8 rows' integer dot products `sum` of token row `xt`'s block `b`, scaled, to `acc`.
    @inline(__always)
    static func scale(_ acc: inout SIMD8<Float>, _ sum: SIMD8<Int32>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int) {
        acc = acc.addingProduct(AVX2.float(sum), p.loadUnaligned(fromByteOffset: 256, as: SIMD8<Float>.self) * xt.scales[b])
        if F.hasOffset { acc = acc.addingProduct(p.loadUnaligned(fromByteOffset: 288, as: SIMD8<Float>.self), SIMD8(repeating: xt.sums[b])) }
    }

    /// Two ``step(_:_:_:_:)``s chunk by chunk: each weight vector is loaded once for both tokens and
    /// only their Int16 sums stay in registers (with four tokens, or token by token, the compiler
    /// keeps all 8 chunks in registers and spills an accumulator). Integer sums are exact, so the
    /// values are the two steps'.
    @inline(__always)
    static func step2(_ acc0: inout SIMD8<Float>, _ acc1: inout SIMD8<Float>, _ p: UnsafeRawPointer,
                      _ x0: ActivationRow, _ x1: ActivationRow, _ b: Int) {
        let a0 = UnsafeRawPointer(x0.bytes + 32 * b), a1 = UnsafeRawPointer(x1.bytes + 32 * b)
        @inline(__always) func products(_ w: SIMD32<UInt8>, _ a: UnsafeRawPointer, _ k: Int) -> SIMD16<Int16> {
            AVX2.maddubs(w, unsafeBitCast(AVX2.broadcast4(a, 4 * k), to: SIMD32<Int8>.self))
        }
        // Chunks `range` summed in Int16 (8 chunks of 4-bit weights or 4 of 5-bit stay under 2^15,
        // as in blockDot), then widened.
        @inline(__always) func sums(_ range: Range<Int>) -> (SIMD8<Int32>, SIMD8<Int32>) {
            var s0 = SIMD16<Int16>(), s1 = SIMD16<Int16>()
            for k in range {
                let w = p.loadUnaligned(fromByteOffset: 32 * k, as: SIMD32<UInt8>.self)
                s0 = AVX2.add16(s0, products(w, a0, k)); s1 = AVX2.add16(s1, products(w, a1, k))
            }
            let ones = SIMD16<Int16>(repeating: 1)
            return (AVX2.madd(s0, ones), AVX2.madd(s1, ones))
        }
        var sum = sums(0..<(F.maxUnsigned < 16 ? 8 : 4))
        if F.maxUnsigned >= 16 {
            let high = sums(4..<8)
            sum = (sum.0 &+ high.0, sum.1 &+ high.1)
        }
        if F.offset != 0 {
            sum.0 &-= SIMD8(repeating: F.offset &* Int32(x0.groupSums[b]))
            sum.1 &-= SIMD8(repeating: F.offset &* Int32(x1.groupSums[b]))
        }
        scale(&acc0, sum.0, p, x0, b); scale(&acc1, sum.1, p, x1, b)
    }

    static var sweepsInPairs: Bool {
        #if LM_VNNI
        false
        #else
        true
        #endif
    }
}
#endif
