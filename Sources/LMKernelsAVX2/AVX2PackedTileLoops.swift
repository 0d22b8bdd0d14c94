#if arch(x86_64)
import LMKernelsCore

/// A packed prefill kernel as the shared tile loops drive it: how a block of 8 weight rows is
/// repacked, and how one token's block is folded into the 8 rows' accumulator.
protocol AVX2PackedTileKernel: SendableMetatype {
    /// Weights per block (32 for the legacy formats, 256 for the K-quants).
    static var weightsPerBlock: Int { get }
    /// Bytes of one packed block of 8 rows.
    static var packedBlockBytes: Int { get }
    /// Repacks rows `r0..<r0+8` of `w` into `packed` (`blocks × packedBlockBytes` bytes).
    static func pack(_ w: WeightMatrix, rows r0: Int, blocks: Int, into packed: UnsafeMutableRawPointer)
    /// Folds token row `xt`'s block `b` against packed block `p` into `acc` (lane = row).
    static func step(_ acc: inout SIMD8<Float>, _ p: UnsafeRawPointer, _ xt: ActivationRow, _ b: Int)
    /// Folds block `b` of four token rows into their accumulators (by default ``step(_:_:_:_:)``
    /// four times; a kernel overrides it to share weight loads between the tokens).
    static func step4(_ acc: inout (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), _ p: UnsafeRawPointer,
                      _ x: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), _ b: Int)
    /// Folds block `b` of two token rows into their accumulators (by default two ``step(_:_:_:_:)``s).
    static func step2(_ acc0: inout SIMD8<Float>, _ acc1: inout SIMD8<Float>, _ p: UnsafeRawPointer,
                      _ x0: ActivationRow, _ x1: ActivationRow, _ b: Int)
    /// Whether the sweep goes over a tile's blocks once per pair of tokens with ``step2``, rather
    /// than once per four with ``step4`` (for kernels whose four-token step runs out of registers).
    static var sweepsInPairs: Bool { get }
    /// Rows that do not fill a tile, by the format's row kernel.
    static func rowMatMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>)
}

extension AVX2PackedTileKernel {
    @inline(__always)
    static func step4(_ acc: inout (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>), _ p: UnsafeRawPointer,
                      _ x: (ActivationRow, ActivationRow, ActivationRow, ActivationRow), _ b: Int) {
        step(&acc.0, p, x.0, b); step(&acc.1, p, x.1, b); step(&acc.2, p, x.2, b); step(&acc.3, p, x.3, b)
    }
    @inline(__always)
    static func step2(_ acc0: inout SIMD8<Float>, _ acc1: inout SIMD8<Float>, _ p: UnsafeRawPointer,
                      _ x0: ActivationRow, _ x1: ActivationRow, _ b: Int) {
        step(&acc0, p, x0, b); step(&acc1, p, x1, b)
    }
    static var sweepsInPairs: Bool { false }
}

/// The loops every packed prefill kernel shares: tiles of 8 rows packed once per call and swept
/// over every token, 4 tokens at a time (2 for kernels that sweep in pairs).
enum AVX2PackedTileLoops<K: AVX2PackedTileKernel> {
    /// `y[t * w.rows + r] = w[r] · x[t]` for all tokens and `r` in `rows`: whole tiles of 8 rows
    /// packed, any remaining rows by the row kernel.
    static func matMul(_ w: WeightMatrix, _ x: ActivationRows, into y: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let blocks = w.cols / K.weightsPerBlock
        let tiles = rows.count / 8
        if tiles > 0 {
            let packed = UnsafeMutableRawPointer.allocate(byteCount: blocks * K.packedBlockBytes, alignment: 64)
            defer { packed.deallocate() }
            for tile in 0..<tiles {
                let r0 = rows.lowerBound + 8 * tile
                K.pack(w, rows: r0, blocks: blocks, into: packed)
                sweep(packed, blocks: blocks, x, into: y + r0, stride: w.rows)
            }
        }
        let rest = (rows.lowerBound + 8 * tiles)..<rows.upperBound
        if !rest.isEmpty { K.rowMatMul(w, x, into: y, rows: rest) }
    }

    /// Every token against the packed tile; writes `out[t * stride + 0..<8]`.
    @inline(__always)
    static func sweep(_ packed: UnsafeRawPointer, blocks: Int, _ x: ActivationRows, into out: UnsafeMutablePointer<Float>,
                      stride: Int) {
        var t = 0
        if K.sweepsInPairs {
            while t + 2 <= x.nTokens {
                let r0 = x.row(t), r1 = x.row(t + 1)
                var a0 = SIMD8<Float>(), a1 = SIMD8<Float>()
                for b in 0..<blocks { K.step2(&a0, &a1, UnsafeRawPointer(packed + b * K.packedBlockBytes), r0, r1, b) }
                UnsafeMutableRawPointer(out + t * stride).storeBytes(of: a0, as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(out + (t + 1) * stride).storeBytes(of: a1, as: SIMD8<Float>.self)
                t += 2
            }
        }
        while t + 4 <= x.nTokens {
            let rows = (x.row(t), x.row(t + 1), x.row(t + 2), x.row(t + 3))
            var acc = (SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>())
            for b in 0..<blocks { K.step4(&acc, UnsafeRawPointer(packed + b * K.packedBlockBytes), rows, b) }
            UnsafeMutableRawPointer(out + t * stride).storeBytes(of: acc.0, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + (t + 1) * stride).storeBytes(of: acc.1, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + (t + 2) * stride).storeBytes(of: acc.2, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(out + (t + 3) * stride).storeBytes(of: acc.3, as: SIMD8<Float>.self)
            t += 4
        }
        while t < x.nTokens {
            let xt = x.row(t)
            var acc = SIMD8<Float>()
            for b in 0..<blocks { K.step(&acc, packed + b * K.packedBlockBytes, xt, b) }
            UnsafeMutableRawPointer(out + t * stride).storeBytes(of: acc, as: SIMD8<Float>.self)
            t += 1
        }
    }
}
#endif
