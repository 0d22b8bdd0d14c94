import LMImage

/// One image ready for ``VisionEncoder/encode(_:)``: `[imageSize, imageSize, 3]` values
/// `(byte / 255 - mean) / std` per channel.
public struct VisionTile: Sendable, Equatable {
    public var pixels: [Float]
}

/// Turns a decoded image into the encoder's tiles, as llama.cpp's `mtmd` preprocessors do
/// (`tools/mtmd/mtmd-image.cpp`, release b11312), in the order `mtmd` encodes them:
///
/// - Gemma 3 (`mtmd_image_preprocessor_fixed_size`): one tile; the image is scaled by
///   `min(size / width, size / height)` (sides rounded up) with the bilinear filter and centred on black.
/// - Idefics3 (`mtmd_image_preprocessor_idefics3`, the `preproc_image_size` path): the longer side is scaled
///   to `longestEdge` (the other side truncated, then made even), the result scaled up to whole tiles of
///   `imageSize`, cut into tiles row by row, followed by the whole refined image scaled to one tile (the
///   overview); every resize is Lanczos. Files without `clip.vision.preproc_image_size` (older conversions,
///   which llama.cpp slices by a pixel budget instead) are refused by ``tiles(for:)``.
///
/// Resizing is Pillow's (``ResampleFilter``). Orientation is not applied (as `mtmd`, which ignores EXIF).
public struct ImagePreprocessor: Sendable {
    public let hyperparameters: VisionHyperparameters

    public init(_ hyperparameters: VisionHyperparameters) { self.hyperparameters = hyperparameters }

    /// The tiles of `image`, in `mtmd`'s encoding order.
    /// - Throws: ``VisionInputError`` for an empty image, or an Idefics3 file without a longest edge.
    public func tiles(for image: DecodedImage) throws(VisionInputError) -> [VisionTile] {
        guard image.width > 0, image.height > 0 else { throw .emptyImage }
        let size = hyperparameters.imageSize
        switch hyperparameters.projector {
        case .gemma3:
            return [normalised(letterboxed(image, size: size), side: size)]
        case .idefics3:
            let (w, h) = (image.width, image.height)
            let (rw, rh) = try refinedSize(width: w, height: h)
            let gx = (rw + size - 1) / size, gy = (rh + size - 1) / size
            let resized = resize(image.pixels, w, h, rw, rh, .lanczos)
            let refined = resize(resized, rw, rh, gx * size, gy * size, .lanczos)
            var tiles: [VisionTile] = []
            for ty in 0..<gy {
                for tx in 0..<gx {
                    var tile = [UInt8](repeating: 0, count: size * size * 3)
                    for y in 0..<size {
                        let src = ((ty * size + y) * gx * size + tx * size) * 3
                        for i in 0..<(size * 3) { tile[y * size * 3 + i] = refined[src + i] }
                    }
                    tiles.append(normalised(tile, side: size))
                }
            }
            tiles.append(normalised(resize(refined, gx * size, gy * size, size, size, .lanczos), side: size))
            return tiles
        }
    }

    /// Where `mtmd` puts the tiles of a `width` × `height` image: a grid of `columns` × `rows` slices
    /// (row by row) followed by an overview (Idefics3), or one tile and no grid (Gemma 3, `columns` and
    /// `rows` 0). What a prompt's image markers need, without decoding or encoding the pixels.
    /// - Throws: as ``tiles(for:)``.
    public func layout(width: Int, height: Int) throws(VisionInputError) -> TileLayout {
        guard width > 0, height > 0 else { throw .emptyImage }
        switch hyperparameters.projector {
        case .gemma3:
            return TileLayout(columns: 0, rows: 0, tokensPerTile: hyperparameters.tokensPerImage)
        case .idefics3:
            let size = hyperparameters.imageSize
            let (rw, rh) = try refinedSize(width: width, height: height)
            return TileLayout(columns: (rw + size - 1) / size, rows: (rh + size - 1) / size, tokensPerTile: hyperparameters.tokensPerImage)
        }
    }

    /// Idefics3: the size the longer side is scaled to `longestEdge` at (the other side truncated, then made even).
    func refinedSize(width w: Int, height h: Int) throws(VisionInputError) -> (Int, Int) {
        guard let edge = hyperparameters.longestEdge else { throw .unsupportedSlicing("clip.vision.preproc_image_size is absent") }
        let aspect = Double(w) / Double(h)
        var rw: Int, rh: Int
        if w >= h {
            rw = edge; rh = Int(Double(edge) / aspect); rh += rh % 2
        } else {
            rh = edge; rw = Int(Double(edge) * aspect); rw += rw % 2
        }
        guard rw > 0, rh > 0 else { throw .unsupportedSlicing("the image \(w)x\(h) is too narrow to scale to \(edge) pixels") }
        return (rw, rh)
    }

    func resize(_ p: [UInt8], _ w: Int, _ h: Int, _ ow: Int, _ oh: Int, _ f: ResampleFilter) -> [UInt8] {
        ImageResampler.resize(p, width: w, height: h, to: ow, oh, filter: f)
    }

    /// `mtmd`'s resize with `PAD_CEIL` padding: the scale and the rounded-up sides in Float, as it computes them.
    func letterboxed(_ image: DecodedImage, size: Int) -> [UInt8] {
        if image.width == size && image.height == size { return image.pixels }
        let scale = min(Float(size) / Float(image.width), Float(size) / Float(image.height))
        let nw = min(Int((Float(image.width) * scale).rounded(.up)), size)
        let nh = min(Int((Float(image.height) * scale).rounded(.up)), size)
        let scaled = resize(image.pixels, image.width, image.height, nw, nh, .bilinear)
        var out = [UInt8](repeating: 0, count: size * size * 3)
        let ox = (size - nw) / 2, oy = (size - nh) / 2
        for y in 0..<nh {
            for i in 0..<(nw * 3) { out[((oy + y) * size + ox) * 3 + i] = scaled[y * nw * 3 + i] }
        }
        return out
    }

    func normalised(_ bytes: [UInt8], side: Int) -> VisionTile {
        let mean = hyperparameters.imageMean, std = hyperparameters.imageStd
        var out = [Float](repeating: 0, count: bytes.count)
        for i in 0..<bytes.count {
            let c = i % 3
            out[i] = (Float(bytes[i]) / 255 - mean[c]) / std[c]
        }
        return VisionTile(pixels: out)
    }
}

/// How `mtmd` lays out one image's tiles (``ImagePreprocessor/layout(width:height:)``).
public struct TileLayout: Sendable, Equatable {
    /// Slices per row and rows of slices; both 0 when the image is one tile without slices (Gemma 3).
    public var columns: Int, rows: Int
    /// Embeddings per encoded tile (``VisionHyperparameters/tokensPerImage``).
    public var tokensPerTile: Int

    /// Tiles encoded: the slices and the overview, or the one tile.
    public var tileCount: Int { columns * rows + 1 }
    /// Embeddings of the whole image.
    public var tokenCount: Int { tileCount * tokensPerTile }
}

/// Why an image could not be prepared for the encoder.
public enum VisionInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image has no pixels.
    case emptyImage
    /// The projector's tiling rule for this file or image is not implemented (`reason` says which).
    case unsupportedSlicing(String)

    public var description: String {
        switch self {
        case .emptyImage: "the image has no pixels"
        case let .unsupportedSlicing(r): "image slicing not supported: \(r)"
        }
    }
}
