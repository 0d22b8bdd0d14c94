/// Bounds the decoders apply before allocating.
public struct ImageDecodingLimits: Sendable, Equatable {
    /// The most pixels (width times height) an image may declare. Default 64 megapixels (64 * 2^20, a
    /// 8192x8192 image). Memory follows the declared size: the RGB output is 3 bytes a pixel; a PNG adds its
    /// inflated data (up to 8 bytes a pixel for 16-bit RGBA); a JPEG holds 2 bytes a sample of coefficients
    /// (allocated at its SOF segment), then 2 bytes a sample of planes and the output, at most 15 bytes a pixel
    /// for 4:4:4 (about 1 GB at the default limit).
    public var maxPixelCount: Int

    public init(maxPixelCount: Int = 64 << 20) {
        self.maxPixelCount = maxPixelCount
    }

    /// Checks a declared size: both sides non-zero and the product within ``maxPixelCount`` (computed
    /// without overflow).
    package func check(width: Int, height: Int) throws(ImageDecodingError) {
        guard width > 0, height > 0 else { throw .zeroSize(width: width, height: height) }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= maxPixelCount else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixelCount)
        }
    }
}
