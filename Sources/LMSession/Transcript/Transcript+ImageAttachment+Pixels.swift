import Foundation
import LMImage

#if !canImport(ImageIO)
/// Apple's name for how an image is turned (ImageIO's `CGImagePropertyOrientation`, which Apple 27's
/// `Attachment(_:orientation:)` takes): the EXIF orientation values 1-8 with Apple's case names, so
/// `orientation: .right` reads as on Apple's platforms. Defined where ImageIO does not exist.
public typealias CGImagePropertyOrientation = ImageOrientation
#endif

extension Transcript.ImageAttachment {
    /// How raw pixels are laid out: 8 bits a sample, `[height, width, channels]`, top row first.
    public enum PixelFormat: Sendable, Equatable {
        /// Red, green, blue (3 bytes a pixel).
        case rgb
        /// Red, green, blue, alpha (4 bytes a pixel); a local model drops alpha as llama.cpp does.
        case rgba

        var channels: Int { self == .rgb ? 3 : 4 }
    }

    /// An image from raw 8-bit pixels (ours: Linux has no `CGImage` or `CVPixelBuffer`), kept as a
    /// (lossless) PNG file so every model reads exactly these pixels.
    /// - Parameters:
    ///   - pixels: `[height, width, format.channels]` bytes, top row first.
    ///   - width, height: in pixels, each at least 1, at most 64 megapixels in all.
    /// - Throws: ``LoadError/invalidPixels(_:)`` when a side is 0, the image is over 64 megapixels, or
    ///   `pixels.count` is not `width * height * format.channels`.
    public init(pixels: [UInt8], width: Int, height: Int, format: PixelFormat = .rgb,
                orientation: ImageOrientation = .up) throws(LoadError) {
        do { try ImageDecodingLimits().check(width: width, height: height) } catch { throw .invalidPixels(error.description) }
        guard pixels.count == width * height * format.channels else {
            throw .invalidPixels("\(pixels.count) bytes for \(width)x\(height) \(format) pixels (\(width * height * format.channels) expected)")
        }
        let png = PNGEncoder.encode(width: width, height: height, channels: format.channels, pixels: pixels)
        self.init(url: nil, data: Data(png), contentType: "image/png", orientation: orientation)
    }

    /// The encoded image as shown: the bytes and type as they are for `.up`; otherwise the image decoded, turned by
    /// ``orientation`` and written as a PNG file (for models that take image files, which carry no orientation),
    /// made once for the requests that follow (``UprightFileCache``). Nil when the bytes are not read yet; the bytes
    /// as they are when they do not decode (``loaded()``, which the session runs first, throws for those).
    var uprightFile: (data: Data, contentType: String)? {
        guard let data, let contentType else { return nil }
        guard orientation != .up, let file = UprightFileCache.file(for: data, orientation: orientation) else { return (data, contentType) }
        return (file, "image/png")
    }
}
