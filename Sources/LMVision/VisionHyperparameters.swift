import LMGGUF

/// The hyperparameters of an `mmproj` GGUF's vision encoder, read from its `clip.*` keys as llama.cpp's
/// `clip_model_loader::load_hparams` (`tools/mtmd/clip.cpp`, release b11312) reads them.
public struct VisionHyperparameters: Sendable, Equatable {
    public var projector: ProjectorType
    /// Side of the square image the encoder takes, in pixels (`clip.vision.image_size`).
    public var imageSize: Int
    /// Side of one patch, in pixels (`clip.vision.patch_size`).
    public var patchSize: Int
    /// Width of the ViT (`clip.vision.embedding_length`).
    public var nEmbd: Int
    /// Hidden width of the ViT's feed-forward (`clip.vision.feed_forward_length`).
    public var nFF: Int
    public var nLayer: Int
    public var nHead: Int
    public var layerNormEps: Float
    /// Per-channel mean and standard deviation pixels are normalised with, R G B (`clip.vision.image_mean`,
    /// `clip.vision.image_std`), for pixels scaled to 0...1.
    public var imageMean: [Float]
    public var imageStd: [Float]
    /// Patches merged per side by the projector (`clip.vision.projector.scale_factor`; llama.cpp's default
    /// is 4 for Gemma 3 and 1, i.e. none, for Idefics3, where real files always set it).
    public var scaleFactor: Int
    /// Idefics3's longest edge before tiling (`clip.vision.preproc_image_size`), or nil when absent.
    public var longestEdge: Int?
    public var activation: VisionActivation

    /// The largest `image_size` and `preproc_image_size` accepted, in pixels.
    public static let maxImageSize = 8192

    /// Patches per side of one encoded image.
    public var patchesPerSide: Int { imageSize / patchSize }
    public var nPatches: Int { patchesPerSide * patchesPerSide }
    public var headDim: Int { nEmbd / nHead }
    /// Tokens one encoded image (a tile) becomes after the projector.
    public var tokensPerImage: Int { nPatches / (scaleFactor * scaleFactor) }

    /// Reads and checks the keys.
    /// - Throws: ``VisionLoadError``: `.notVisionEncoder` for a file of another kind, `.unsupportedProjector`,
    ///   `.missingKey` for an absent or mistyped key, `.invalidKey` for values that cannot work together
    ///   (patch size not dividing the image size, heads not dividing the width, a scale factor not dividing
    ///   the patches per side, mean/std without 3 entries or with a std of 0, an image size or longest edge above
    ///   ``maxImageSize``, a longest edge above 16 tiles).
    public init(file: GGUFFile) throws(VisionLoadError) {
        let arch = file.architecture
        guard arch == "clip", file["clip.has_vision_encoder"]?.bool ?? true else { throw .notVisionEncoder(architecture: arch) }
        guard let name = file["clip.vision.projector_type"]?.string ?? file["clip.projector_type"]?.string else {
            throw .missingKey("clip.projector_type")
        }
        guard let projector = ProjectorType(rawValue: name) else { throw .unsupportedProjector(name) }
        self.projector = projector

        func int(_ key: String) throws(VisionLoadError) -> Int {
            guard let v = file[key]?.int else { throw .missingKey(key) }
            guard v > 0, v < 1 << 20 else { throw .invalidKey(key, reason: "\(v) is not a positive size") }
            return v
        }
        func floats(_ key: String) throws(VisionLoadError) -> [Float] {
            guard let v = file[key]?.array?.floats else { throw .missingKey(key) }
            guard v.count >= 3, v.allSatisfy(\.isFinite) else { throw .invalidKey(key, reason: "needs 3 finite values, found \(v)") }
            return Array(v.prefix(3))
        }
        imageSize = try int("clip.vision.image_size")
        patchSize = try int("clip.vision.patch_size")
        nEmbd = try int("clip.vision.embedding_length")
        nFF = try int("clip.vision.feed_forward_length")
        nLayer = try int("clip.vision.block_count")
        nHead = try int("clip.vision.attention.head_count")
        let epsKey = "clip.vision.attention.layer_norm_epsilon"
        guard let eps = file[epsKey]?.double else { throw .missingKey(epsKey) }
        guard eps >= 0, eps.isFinite else { throw .invalidKey(epsKey, reason: "\(eps) is not a small non-negative number") }
        layerNormEps = Float(eps)
        imageMean = try floats("clip.vision.image_mean")
        imageStd = try floats("clip.vision.image_std")
        if imageStd.contains(0) { throw .invalidKey("clip.vision.image_std", reason: "a standard deviation of 0") }

        let scaleKey = "clip.vision.projector.scale_factor"
        scaleFactor = file[scaleKey] == nil ? (projector == .gemma3 ? 4 : 1) : try int(scaleKey)
        longestEdge = file["clip.vision.preproc_image_size"] == nil ? nil : try int("clip.vision.preproc_image_size")

        let gelu = file["clip.use_gelu"]?.bool ?? false, silu = file["clip.use_silu"]?.bool ?? false
        guard !(gelu && silu) else { throw .invalidKey("clip.use_silu", reason: "both clip.use_gelu and clip.use_silu are set") }
        activation = gelu ? .gelu : silu ? .silu : .geluQuick

        guard imageSize % patchSize == 0 else {
            throw .invalidKey("clip.vision.patch_size", reason: "\(patchSize) does not divide the image size \(imageSize)")
        }
        guard nEmbd % nHead == 0 else {
            throw .invalidKey("clip.vision.attention.head_count", reason: "\(nHead) heads do not divide the width \(nEmbd)")
        }
        // Bounds on sizes no tensor pins down, so a small hostile file cannot ask for unbounded tiles or pixels
        // (real files: 224-896 pixels a side, a longest edge of at most 4 tiles).
        guard imageSize <= Self.maxImageSize else {
            throw .invalidKey("clip.vision.image_size", reason: "\(imageSize) is above \(Self.maxImageSize) pixels")
        }
        if let edge = longestEdge, edge > min(Self.maxImageSize, 16 * imageSize) {
            throw .invalidKey("clip.vision.preproc_image_size", reason: "\(edge) is above \(min(Self.maxImageSize, 16 * imageSize)) pixels")
        }
        guard patchesPerSide % scaleFactor == 0, patchesPerSide * patchesPerSide <= 1 << 16 else {
            throw .invalidKey(scaleKey, reason: "\(scaleFactor) does not divide the \(patchesPerSide) patches per side")
        }
    }
}
