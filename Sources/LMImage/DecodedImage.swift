import Foundation

/// An image as 8-bit RGB pixels, `pixels` laid out `[height, width, 3]` (row-major, top row first, R G B).
///
/// Decoded as llama.cpp's `mtmd` helper decodes an image file (`stbi_load_from_memory(..., 3)`): alpha and
/// transparency (PNG tRNS) are dropped, not composited; grey is repeated into R, G and B; 16-bit samples
/// keep their high byte (stb_image's 16-to-8 conversion, and Pillow's for 16-bit RGB and RGBA PNGs); a JPEG's
/// EXIF orientation is read into ``orientation`` but not applied (stb_image ignores it; see
/// ``applyingOrientation(_:)``).
public struct DecodedImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// RGB bytes, `[height, width, 3]`; `pixels.count == width * height * 3`.
    public var pixels: [UInt8]
    /// The EXIF orientation tag of a JPEG (APP1 `Exif`), or `nil` when the file has none (always `nil` for PNG).
    public var orientation: ImageOrientation?

    /// An image from RGB bytes laid out `[height, width, 3]`.
    /// - Precondition: `pixels.count == width * height * 3` (a programmer error, so it traps).
    public init(width: Int, height: Int, pixels: [UInt8], orientation: ImageOrientation? = nil) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3, "pixels must be [height, width, 3]")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.orientation = orientation
    }

    /// Decodes a PNG or JPEG file, chosen by its first bytes.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - limits: the largest image accepted (default 64 megapixels), checked before anything is allocated.
    /// - Throws: ``ImageDecodingError``: `.unrecognizedFormat` for other data, and the PNG and JPEG decoders'
    ///   errors for malformed, truncated, oversized or unsupported files.
    public init(data: Data, limits: ImageDecodingLimits = ImageDecodingLimits()) throws(ImageDecodingError) {
        let bytes = [UInt8](data)
        if PNGDecoder.hasSignature(bytes) {
            self = try PNGDecoder.decode(bytes, limits: limits)
        } else if JPEGDecoder.hasSignature(bytes) {
            self = try JPEGDecoder.decode(bytes, limits: limits)
        } else {
            throw .unrecognizedFormat(prefix: Array(bytes.prefix(8)))
        }
    }

    /// Reads (``ImageFile/read(_:)``: a regular file of at most 256 MiB) and decodes an image file.
    /// - Throws: ``ImageFileError`` when the file cannot be read, ``ImageDecodingError`` as ``init(data:limits:)``
    ///   (two types, hence this initialiser's plain `throws`).
    public init(contentsOf url: URL, limits: ImageDecodingLimits = ImageDecodingLimits()) throws {
        try self.init(data: ImageFile.read(url), limits: limits)
    }
}
