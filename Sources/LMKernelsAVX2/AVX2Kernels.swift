#if arch(x86_64)
import LMGGUF
import LMKernelsCore

/// The AVX2 kernel table: the weight types this module has byte-multiply kernels for. The whole
/// module is compiled for AVX2, FMA, F16C and BMI2, so even the generic row loops specialised here
/// use 256-bit registers; callers must check the CPU first (`LMKernels.KernelSet`).
package enum AVX2Kernels {
    package static let q4_0 = nibbleEntry(Q4_0AVX2.self)
    package static let q4_1 = nibbleEntry(Q4_1AVX2.self)
    package static let q5_0 = nibbleEntry(Q5_0AVX2.self)
    package static let q5_1 = nibbleEntry(Q5_1AVX2.self)
    package static let q8_0 = tiledEntry(Q8_0AVX2.self)
    package static let q4_K = superBlockTileEntry(Q4_KAVX2.self)
    package static let q5_K = superBlockTileEntry(Q5_KAVX2.self)
    package static let q6_K = superBlockTileEntry(Q6_KAVX2.self)
    /// Float weights: F16C widening, FMA, prefill blocked over rows, columns and tokens (``AVX2FloatMatMul``).
    package static let float = DotKernel(activationFormat: .f32,
                                         matVec: { w, x, t, y, rows in AVX2FloatMatMul.matVec(w, x, token: t, into: y, rows: rows) },
                                         matMul: { w, x, y, rows in AVX2FloatMatMul.matMul(w, x, into: y, rows: rows) })

    /// The table entry of row kernel `K`, with its loops specialised in this module.
    private static func entry<K: RowKernel>(_: K.Type) -> DotKernel {
        DotKernel(activationFormat: K.activationFormat,
                  matVec: { w, x, t, y, rows in RowLoops<K>.matVec(w, x, token: t, into: y, rows: rows) },
                  matMul: { w, x, y, rows in RowLoops<K>.matMul(w, x, into: y, rows: rows) })
    }

    /// The table entry of a format with decode tiles: ``tiledEntry(_:)``'s, except that prefill from
    /// 8 tokens up runs on packed tiles (`K`: ``AVX2PackedTiles`` or ``AVX2PackedSuperBlocks``, packed
    /// from the decode tiles where the matrix has them; fewer tokens do not repay the packing).
    private static func packedPrefillEntry<F: AVX2DecodeTileFormat, K: AVX2PackedTileKernel>(_: F.Type, prefill _: K.Type) -> DotKernel {
        let tiled = tiledEntry(F.self)
        return DotKernel(activationFormat: F.activationFormat, matVec: tiled.matVec,
                         matMul: { w, x, y, rows in
                             if x.nTokens >= 8 {
                                 AVX2PackedTileLoops<K>.matMul(w, x, into: y, rows: rows)
                             } else {
                                 // A few tokens: the decode tiles per token beat decoding each row per 4 tokens.
                                 tiled.matMul(w, x, y, rows)
                             }
                         },
                         matVecs: tiled.matVecs)
    }

    /// A 4- or 5-bit legacy format's entry.
    private static func nibbleEntry<F: AVX2NibbleFormat>(_: F.Type) -> DotKernel {
        packedPrefillEntry(F.self, prefill: AVX2PackedFromDecodeTiles<F>.self)
    }

    /// The table entry of a format whose decode and prefill both run on ``AVX2DecodeTiles`` when the
    /// matrix was prepared with them, else on the row kernel.
    private static func tiledEntry<F: AVX2DecodeTileFormat>(_: F.Type) -> DotKernel {
        let matVec: @Sendable (WeightMatrix, ActivationRows, Int, UnsafeMutablePointer<Float>, Range<Int>) -> Void = { w, x, t, y, rows in
            if let tiles = w.tiles {
                AVX2DecodeTiles<F>.matVec(w, tiles, x.row(t), into: y, rows: rows)
            } else {
                RowLoops<F.RowDot>.matVec(w, x, token: t, into: y, rows: rows)
            }
        }
        let byToken = DotKernel.tokenByToken(matVec)
        return DotKernel(activationFormat: F.activationFormat,
                         matVec: matVec,
                         matMul: { w, x, y, rows in
                             if let tiles = w.tiles {
                                 AVX2DecodeTiles<F>.matVecs(w, tiles, x, into: y, rows: rows)
                             } else {
                                 RowLoops<F.RowDot>.matMul(w, x, into: y, rows: rows)
                             }
                         },
                         matVecs: { w, x, y, rows in
                             if let tiles = w.tiles {
                                 AVX2DecodeTiles<F>.matVecs(w, tiles, x, into: y, rows: rows)
                             } else {
                                 byToken(w, x, y, rows)
                             }
                         })
    }

    /// `w` repacked for this set's decode kernel (``AVX2DecodeTiles``: Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q5_K, Q6_K), or nil for
    /// types whose decode reads the file's layout.
    /// `release` gets each stretch of source rows once packed (see `KernelSet.prepare`).
    package static func decodeTiles(for w: WeightMatrix, release: ((UnsafeRawPointer, Int) -> Void)? = nil) -> WeightTiles? {
        switch w.type {
        case .q4_0: AVX2DecodeTiles<Q4_0AVX2>.pack(w, release: release)
        case .q4_1: AVX2DecodeTiles<Q4_1AVX2>.pack(w, release: release)
        case .q5_0: AVX2DecodeTiles<Q5_0AVX2>.pack(w, release: release)
        case .q5_1: AVX2DecodeTiles<Q5_1AVX2>.pack(w, release: release)
        case .q8_0: AVX2DecodeTiles<Q8_0AVX2>.pack(w, release: release)
        case .q4_K: AVX2DecodeTiles<Q4_KAVX2>.pack(w, release: release)
        case .q5_K: AVX2DecodeTiles<Q5_KAVX2>.pack(w, release: release)
        case .q6_K: AVX2DecodeTiles<Q6_KAVX2>.pack(w, release: release)
        default: nil
        }
    }

    /// The entry of a K-quant with decode tiles (Q4_K, Q5_K, Q6_K).
    private static func superBlockTileEntry<F: AVX2SuperBlockTileFormat>(_: F.Type) -> DotKernel {
        packedPrefillEntry(F.self, prefill: AVX2PackedFromSuperBlockTiles<F>.self)
    }

    /// The float-vector kernels compiled with AVX2, FMA and F16C.
    package static let vector = VectorKernels(
        gate: { activation, g, u, rows in activation.apply(g, u, rows) },
        attend: { work, unit, thread in AttentionKernel<FusedMultiplyAdd, F16CHalves>.attend(work, unit: unit, thread: thread) },
        halves: { src, dst, count in HalfRows<F16CHalves>.convert(src, dst, count: count) },
        attendAll: { work, tokens, scores in FullAttentionKernel<FusedMultiplyAdd>.attend(work, tokens: tokens, scores: scores) },
        argmax: { x, count in VectorArgmax.find(x, count: count) })

    /// The AVX2 kernel for `type`, or nil where the portable kernel is used.
    package static func kernel(for type: GGMLType) -> DotKernel? {
        switch type {
        case .q4_0: q4_0
        case .q4_1: q4_1
        case .q5_0: q5_0
        case .q5_1: q5_1
        case .q8_0: q8_0
        case .q4_K: q4_K
        case .q5_K: q5_K
        case .q6_K: q6_K
        case .f32, .f16, .bf16: float
        default: nil
        }
    }
}
#endif
