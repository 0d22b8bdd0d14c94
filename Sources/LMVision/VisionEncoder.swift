import LMGGUF
import LMImage
import LMKernels
import LMKernelsCore

/// The image encoder and projector of an `mmproj` GGUF, as llama.cpp's `mtmd` builds them
/// (`tools/mtmd/clip.cpp` `build_vit`, `models/siglip.cpp`; release b11312): a SigLIP ViT whose patches
/// become text-model embeddings.
///
/// The forward pass of one image `[imageSize, imageSize, 3]`:
/// ```
/// x = patches(image) · W_patchᵀ + b_patch + pos            // conv with stride = kernel = patchSize, as a matmul
/// for each block:  x += attn_out(attention(ln1(x)))           // full attention, pre-LN
///                  x += ffn_down(act(ffn_up(ln2(x))))
/// x = post_ln(x)
/// embeddings = projector(x)                                  // [tokensPerImage, nEmbdText]
/// ```
/// Weights stay in the mapped file in their GGUF types (F32, F16, Q8_0, ... as the file has them) and run
/// on LMKernels' matrix products, split across a ``ThreadPool``.
public final class VisionEncoder: Sendable {
    public let hyperparameters: VisionHyperparameters
    /// Width of the text model's embeddings the projector produces.
    public let nEmbdText: Int
    let file: GGUFFile                   // keeps the mapping the weight matrices point into alive
    let patchEmbedding: VisionLinear     // [nEmbd, 3 * patchSize²], columns channel-major then row then column
    let positionEmbedding: [Float]       // [nPatches, nEmbd]
    let preNorm: LayerNorm?
    let blocks: [VisionBlock]
    let postNorm: LayerNorm?
    let projector: Projector
    let pool: ThreadPool

    /// Loads `path`.
    /// - Parameter threads: threads of the matrix products (at least 1).
    /// - Throws: ``VisionLoadError`` for a file that is not a supported `mmproj` GGUF (see its cases).
    public convenience init(path: String, threads: Int = 1) throws(VisionLoadError) {
        let file: GGUFFile
        do { file = try GGUFFile(path: path) } catch { throw .file(error) }
        try self.init(file: file, threads: threads)
    }

    /// Loads an already parsed file. - Throws: as ``init(path:threads:)``.
    public init(file: GGUFFile, threads: Int = 1) throws(VisionLoadError) {
        let hp = try VisionHyperparameters(file: file)
        let t = VisionTensors(file: file)
        let p = hp.patchSize, n = hp.nEmbd
        let patch = try t.info("v.patch_embd.weight")
        guard patch.dims == [p, p, 3, n] else {
            throw .badShape(tensor: patch.name, expected: [n, 3, p, p], found: patch.dims.reversed())
        }
        patchEmbedding = VisionLinear(
            weight: KernelSet.active.prepare(WeightMatrix(type: patch.type, data: file.data(for: patch), rows: n, cols: 3 * p * p)),
            bias: try t.optionalFloats("v.patch_embd.bias", shape: [n]))
        positionEmbedding = try t.floats("v.position_embd.weight", shape: [hp.nPatches, n])
        preNorm = t.has("v.pre_ln.weight") ? try t.layerNorm("v.pre_ln", n: n, eps: hp.layerNormEps) : nil
        var blocks: [VisionBlock] = []
        for i in 0..<hp.nLayer { blocks.append(try VisionBlock(t, layer: i, hp)) }
        self.blocks = blocks
        postNorm = t.has("v.post_ln.weight") ? try t.layerNorm("v.post_ln", n: n, eps: hp.layerNormEps) : nil
        projector = try Projector(t, hp)
        nEmbdText = projector.nEmbdText
        hyperparameters = hp
        self.file = file
        pool = ThreadPool(threads: max(1, threads))
    }

    /// Encodes one preprocessed image. Activations are allocated per call (a few per image, unlike a decode
    /// step), so calls from several tasks do not share state; they share the pool, which runs a job that finds
    /// it busy on the caller alone.
    /// - Parameter pixels: `[imageSize, imageSize, 3]` normalised values (``ImagePreprocessor``'s tiles).
    /// - Returns: `[hyperparameters.tokensPerImage, nEmbdText]` embeddings, row-major.
    /// - Precondition: `pixels.count == imageSize * imageSize * 3` (a programmer error: tiles come from the
    ///   preprocessor).
    public func encode(_ pixels: [Float]) -> [Float] {
        // Never cancelled, so never nil.
        encode(pixels, isCancelled: { false }) ?? []
    }

    /// ``encode(_:)``, asking `isCancelled` before each transformer block; nil as soon as it says so.
    public func encode(_ pixels: [Float], isCancelled: () -> Bool) -> [Float]? {
        let hp = hyperparameters
        precondition(pixels.count == hp.imageSize * hp.imageSize * 3, "a tile is [imageSize, imageSize, 3]")
        let T = hp.nPatches, n = hp.nEmbd
        let scratch = QuantizedActivations(maxTokens: T, maxCols: max(hp.nFF, n * hp.scaleFactor * hp.scaleFactor, 3 * hp.patchSize * hp.patchSize))
        var x = [Float](repeating: 0, count: T * n)
        let columns = patchColumns(pixels)
        columns.withUnsafeBufferPointer { c in
            x.withUnsafeMutableBufferPointer { patchEmbedding(c.baseAddress!, nTokens: T, into: $0.baseAddress!, scratch: scratch, pool: pool) }
        }
        for i in 0..<(T * n) { x[i] += positionEmbedding[i] }
        let finished = x.withUnsafeMutableBufferPointer { xp -> Bool in
            let x = xp.baseAddress!
            preNorm?(x, rows: T, into: x)
            var work = VisionBlock.Scratch(nTokens: T, hp)
            for block in blocks {
                if isCancelled() { return false }
                block(x, nTokens: T, work: &work, scratch: scratch, pool: pool)
            }
            postNorm?(x, rows: T, into: x)
            return true
        }
        return finished ? projector(x, hp, scratch: scratch, pool: pool) : nil
    }

    /// The image as the rows of the patch-embedding product: `[nPatches, 3 * patchSize²]`, patch
    /// `py * patchesPerSide + px`, columns ordered channel, row in the patch, column in the patch (the
    /// order of the convolution kernel `[nEmbd, 3, patchSize, patchSize]`).
    func patchColumns(_ pixels: [Float]) -> [Float] {
        let hp = hyperparameters, p = hp.patchSize, side = hp.patchesPerSide, size = hp.imageSize
        var out = [Float](repeating: 0, count: hp.nPatches * 3 * p * p)
        var o = 0
        for py in 0..<side {
            for px in 0..<side {
                for c in 0..<3 {
                    for ky in 0..<p {
                        let row = (py * p + ky) * size + px * p
                        for kx in 0..<p { out[o] = pixels[(row + kx) * 3 + c]; o += 1 }
                    }
                }
            }
        }
        return out
    }
}

extension VisionEncoder {
    /// The embeddings of `image`: its tiles (``ImagePreprocessor``) encoded one after another, in `mtmd`'s
    /// order, `[tiles · tokensPerImage, nEmbdText]` row-major.
    /// - Throws: ``VisionInputError`` as ``ImagePreprocessor/tiles(for:)``.
    public func embeddings(for image: DecodedImage) throws(VisionInputError) -> [Float] {
        // Never cancelled, so never nil.
        try embeddings(for: image, isCancelled: { false }) ?? []
    }

    /// ``embeddings(for:)``, asking `isCancelled` before each tile and each transformer block; nil as soon as it
    /// says so (a session whose request was cancelled stops encoding within one block).
    /// - Throws: as ``embeddings(for:)``.
    public func embeddings(for image: DecodedImage, isCancelled: () -> Bool) throws(VisionInputError) -> [Float]? {
        var out: [Float] = []
        for tile in try ImagePreprocessor(hyperparameters).tiles(for: image) {
            guard !isCancelled(), let rows = encode(tile.pixels, isCancelled: isCancelled) else { return nil }
            out += rows
        }
        return out
    }
}
