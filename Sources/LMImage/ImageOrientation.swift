import Foundation

/// How a stored image is turned for display: the EXIF/TIFF orientation tag (0x0112), with the raw values and
/// case names of Apple's `CGImagePropertyOrientation` (which Apple 27's `Attachment(_:orientation:)` takes;
/// CoreGraphics does not exist on Linux).
public enum ImageOrientation: UInt8, Sendable, CaseIterable {
    /// 1: stored as displayed.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned 180 degrees.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the main diagonal (transposed).
    case leftMirrored = 5
    /// 6: displayed after turning the stored image 90 degrees clockwise.
    case right = 6
    /// 7: mirrored along the anti-diagonal (transversed).
    case rightMirrored = 7
    /// 8: displayed after turning the stored image 90 degrees counter-clockwise.
    case left = 8
}

extension DecodedImage {
    /// Decodes a PNG or JPEG file (``init(data:limits:)``) and turns it by `orientation`
    /// (``applyingOrientation(_:)``; nothing for `.up`), whatever EXIF orientation the file holds.
    /// - Throws: ``ImageDecodingError`` as ``init(data:limits:)``.
    public init(data: Data, turnedBy orientation: ImageOrientation, limits: ImageDecodingLimits = ImageDecodingLimits()) throws(ImageDecodingError) {
        let stored = try DecodedImage(data: data, limits: limits)
        self = orientation == .up ? stored : stored.applyingOrientation(orientation)
    }

    /// The image as displayed under `orientation`: the stored pixels turned and mirrored as Pillow's
    /// `ImageOps.exif_transpose` does (2 flip left-right, 3 rotate 180, 4 flip top-bottom, 5 transpose,
    /// 6 rotate 90 clockwise, 7 transverse, 8 rotate 90 counter-clockwise). Orientations 5 to 8 swap width
    /// and height. The result's ``orientation`` is `nil` (nothing left to apply).
    public func applyingOrientation(_ orientation: ImageOrientation) -> DecodedImage {
        let swaps = orientation.rawValue >= 5
        let outWidth = swaps ? height : width
        let outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: pixels.count)
        // For each output pixel (x, y), the stored pixel (sx, sy) it shows.
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                let (sx, sy): (Int, Int)
                switch orientation {
                case .up: (sx, sy) = (x, y)
                case .upMirrored: (sx, sy) = (width - 1 - x, y)
                case .down: (sx, sy) = (width - 1 - x, height - 1 - y)
                case .downMirrored: (sx, sy) = (x, height - 1 - y)
                case .leftMirrored: (sx, sy) = (y, x)
                case .right: (sx, sy) = (y, height - 1 - x)
                case .rightMirrored: (sx, sy) = (width - 1 - y, height - 1 - x)
                case .left: (sx, sy) = (width - 1 - y, x)
                }
                let src = (sy * width + sx) * 3
                let dst = (y * outWidth + x) * 3
                out[dst] = pixels[src]
                out[dst + 1] = pixels[src + 1]
                out[dst + 2] = pixels[src + 2]
            }
        }
        return DecodedImage(width: outWidth, height: outHeight, pixels: out, orientation: nil)
    }
}
