import LMGGUF
import LMKernels
import LMKernelsCore

/// The map from the ViT's patches `[nPatches, nEmbd]` to text-model embeddings `[tokensPerImage, nEmbdText]`,
/// per ``ProjectorType`` (llama.cpp `tools/mtmd/models/siglip.cpp`).
struct Projector: Sendable {
    enum Kind: Sendable {
        /// Pixel shuffle by `scaleFactor`, then `fc` `[nEmbdText, nEmbd · scaleFactor²]`.
        case idefics3(fc: VisionLinear)
        /// Average pool over `scaleFactor²` patches, RMSNorm with `softEmbNorm` `[nEmbd]`, then `projection`
        /// `[nEmbdText, nEmbd]` (the file stores it transposed, `[nEmbd, nEmbdText]`; transposed to F32 at load).
        case gemma3(softEmbNorm: [Float], projection: VisionLinear, storage: OwnedFloats)
    }
    let kind: Kind
    let nEmbdText: Int

    init(_ t: VisionTensors, _ hp: VisionHyperparameters) throws(VisionLoadError) {
        let n = hp.nEmbd, s = hp.scaleFactor
        switch hp.projector {
        case .idefics3:
            let name = "mm.model.fc.weight"
            let info = try t.info(name)
            guard info.dims.count == 2, info.dims[0] == n * s * s else {
                throw .badShape(tensor: name, expected: [info.dims.count == 2 ? info.dims[1] : 0, n * s * s], found: info.dims.reversed())
            }
            nEmbdText = info.dims[1]
            kind = .idefics3(fc: VisionLinear(weight: try t.matrix(name, rows: nEmbdText, cols: n * s * s), bias: nil))
        case .gemma3:
            let name = "mm.input_projection.weight"
            let info = try t.info(name)
            guard info.dims.count == 2, info.dims[1] == n else {
                throw .badShape(tensor: name, expected: [n, info.dims.first ?? 0], found: info.dims.reversed())
            }
            let nText = info.dims[0]
            let stored = try t.floats(name, shape: [n, nText])
            let owned = OwnedFloats(count: n * nText)
            for i in 0..<n { for o in 0..<nText { owned.pointer[o * n + i] = stored[i * nText + o] } }
            nEmbdText = nText
            kind = .gemma3(softEmbNorm: try t.floats("mm.soft_emb_norm.weight", shape: [n]),
                           projection: VisionLinear(weight: WeightMatrix(type: .f32, data: owned.pointer, rows: nText, cols: n), bias: nil),
                           storage: owned)
        }
    }

    /// Projects `x` `[nPatches, nEmbd]` (a square grid of patches, row-major) into `[tokensPerImage, nEmbdText]`.
    func callAsFunction(_ x: [Float], _ hp: VisionHyperparameters, scratch: QuantizedActivations, pool: ThreadPool) -> [Float] {
        let n = hp.nEmbd, s = hp.scaleFactor, side = hp.patchesPerSide, out = side / s, tokens = out * out
        var merged = [Float](repeating: 0, count: tokens * n * s * s)
        var y = [Float](repeating: 0, count: tokens * nEmbdText)
        switch kind {
        case let .idefics3(fc):
            // Token (by, bx) stacks patches (by·s + j, bx·s + i) in the order j, then i (ggml's reshapes in
            // `build_patch_merge_permute`; Idefics3's `pixel_shuffle`).
            for by in 0..<out { for bx in 0..<out {
                var o = (by * out + bx) * n * s * s
                for j in 0..<s { for i in 0..<s {
                    let p = ((by * s + j) * side + bx * s + i) * n
                    for e in 0..<n { merged[o + e] = x[p + e] }
                    o += n
                }}
            }}
            merged.withUnsafeBufferPointer { m in
                y.withUnsafeMutableBufferPointer { fc(m.baseAddress!, nTokens: tokens, into: $0.baseAddress!, scratch: scratch, pool: pool) }
            }
        case let .gemma3(norm, projection, _):
            // ggml_pool_2d AVG over s × s patches, stride s, no padding.
            let inv = 1 / Float(s * s)
            for by in 0..<out { for bx in 0..<out {
                let o = (by * out + bx) * n
                for j in 0..<s { for i in 0..<s {
                    let p = ((by * s + j) * side + bx * s + i) * n
                    for e in 0..<n { merged[o + e] += x[p + e] }
                }}
                for e in 0..<n { merged[o + e] *= inv }
            }}
            merged.withUnsafeMutableBufferPointer { m in
                rmsNorm(m.baseAddress!, rows: tokens, weight: norm, eps: hp.layerNormEps)
                y.withUnsafeMutableBufferPointer { projection(m.baseAddress!, nTokens: tokens, into: $0.baseAddress!, scratch: scratch, pool: pool) }
            }
        }
        return y
    }
}

/// A Float buffer owned for a ``WeightMatrix`` to point at (a matrix the file stores transposed).
/// `@unchecked Sendable`: written once at load, read-only afterwards.
final class OwnedFloats: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Float>
    init(count: Int) {
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: 0, count: count)
    }
    deinit { pointer.deallocate() }
}
