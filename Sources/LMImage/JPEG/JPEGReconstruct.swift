/// Turns a decoded frame's coefficients into RGB pixels: the islow IDCT of every block, fancy upsampling of
/// subsampled components, YCbCr (or RGB, or grey) to RGB.
extension JPEGDecoder {
    /// IDCT of every block, upsampling, colour conversion.
    /// Each component's coefficients are released once transformed, so they and the RGB output are not
    /// all held at once.
    static func reconstruct(_ frame: inout JPEGFrame, isRGB: Bool) -> DecodedImage {
        var workspace = [Int](repeating: 0, count: 64)
        var planes: [[UInt8]] = []
        for index in frame.components.indices {
            let component = frame.components[index]
            frame.components[index].coefficients = []
            let stride = component.paddedBlocksPerLine * 8
            var samples = [UInt8](repeating: 0, count: stride * component.paddedBlocksPerColumn * 8)
            let quant = component.quantization ?? [Int](repeating: 1, count: 64)
            for row in 0..<component.blocksPerColumn {
                for col in 0..<component.blocksPerLine {
                    JPEGIDCT.transform(
                        component.coefficients, at: (row * component.paddedBlocksPerLine + col) * 64, quant: quant,
                        workspace: &workspace, into: &samples, at: row * 8 * stride + col * 8, stride: stride)
                }
            }
            let plane = JPEGUpsample.Plane(samples: samples, stride: stride, width: component.sampleWidth, height: component.sampleHeight)
            planes.append(JPEGUpsample.upsample(
                plane, hScale: frame.hMax / component.h, vScale: frame.vMax / component.v,
                outWidth: frame.width, outHeight: frame.height))
        }
        let count = frame.width * frame.height
        let pixels: [UInt8]
        if planes.count == 3 {
            pixels = JPEGColor.interleave(planes, count: count, isRGB: isRGB)
        } else {
            var grey = [UInt8](repeating: 0, count: count * 3)
            for i in 0..<count {
                grey[3 * i] = planes[0][i]
                grey[3 * i + 1] = planes[0][i]
                grey[3 * i + 2] = planes[0][i]
            }
            pixels = grey
        }
        return DecodedImage(width: frame.width, height: frame.height, pixels: pixels)
    }
}
