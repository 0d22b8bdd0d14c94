import Foundation

/// Resizes 8-bit RGB images as Pillow's `Image.resize` does (`src/libImaging/Resample.c`), which llama.cpp's
/// `mtmd` reproduces (`tools/mtmd/mtmd-image.cpp`, `img_tool::resize_pillow`): a separable convolution,
/// horizontal pass then vertical pass, with the filter widened by the scale when shrinking, weights
/// normalised per output pixel and rounded to 22-bit fixed point, and each pass rounded and clamped to bytes.
public enum ResampleFilter: Sendable {
    /// Triangle filter, support 1.
    case bilinear
    /// Keys cubic with `a = -0.5` (Pillow's), support 2.
    case bicubic
    /// Lanczos-3 (`sinc(x)·sinc(x/3)`), support 3.
    case lanczos

    var support: Double {
        switch self { case .bilinear: 1; case .bicubic: 2; case .lanczos: 3 }
    }

    func weight(_ x: Double) -> Double {
        switch self {
        case .bilinear:
            let a = abs(x)
            return a < 1 ? 1 - a : 0
        case .bicubic:
            let a = abs(x), c = -0.5
            if a < 1 { return ((c + 2) * a - (c + 3)) * a * a + 1 }
            if a < 2 { return (((a - 5) * a + 8) * a - 4) * c }
            return 0
        case .lanczos:
            guard x > -3, x < 3 else { return 0 }
            func sinc(_ v: Double) -> Double { v == 0 ? 1 : sin(v * Double.pi) / (v * Double.pi) }
            return sinc(x) * sinc(x / 3)
        }
    }
}

enum ImageResampler {
    static let precisionBits = 22

    /// The contributions to each output pixel along one axis: first input index, count, fixed-point weights.
    struct Coefficients {
        var start: [Int], count: [Int], weights: [Int32], kernelSize: Int
    }

    static func coefficients(inSize: Int, outSize: Int, filter: ResampleFilter) -> Coefficients {
        let scale = Double(inSize) / Double(outSize)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        let kernelSize = Int(support.rounded(.up)) * 2 + 1
        var c = Coefficients(start: [Int](repeating: 0, count: outSize), count: [Int](repeating: 0, count: outSize),
                             weights: [Int32](repeating: 0, count: outSize * kernelSize), kernelSize: kernelSize)
        var w = [Double](repeating: 0, count: kernelSize)
        let one = Double(1 << precisionBits)
        for o in 0..<outSize {
            let center = (Double(o) + 0.5) * scale
            let lo = max(0, Int(center - support + 0.5))
            let hi = min(inSize, Int(center + support + 0.5))
            var total = 0.0
            for i in 0..<(hi - lo) {
                w[i] = filter.weight((Double(i + lo) - center + 0.5) / filterScale)
                total += w[i]
            }
            for i in 0..<(hi - lo) {
                let v = total != 0 ? w[i] / total : w[i]
                // Pillow adds ±0.5 and truncates toward zero.
                c.weights[o * kernelSize + i] = Int32(v * one + (v < 0 ? -0.5 : 0.5))
            }
            c.start[o] = lo
            c.count[o] = hi - lo
        }
        return c
    }

    static func clip8(_ v: Int32) -> UInt8 { UInt8(clamping: v >> Int32(precisionBits)) }

    /// `pixels` `[height, width, 3]` resized to `[outHeight, outWidth, 3]`.
    static func resize(_ pixels: [UInt8], width: Int, height: Int, to outWidth: Int, _ outHeight: Int,
                       filter: ResampleFilter) -> [UInt8] {
        var image = pixels, w = width
        let half = Int32(1 << (precisionBits - 1))
        if outWidth != width {
            let c = coefficients(inSize: width, outSize: outWidth, filter: filter)
            var out = [UInt8](repeating: 0, count: outWidth * height * 3)
            for y in 0..<height {
                for o in 0..<outWidth {
                    var s0 = half, s1 = half, s2 = half
                    for i in 0..<c.count[o] {
                        let k = c.weights[o * c.kernelSize + i], p = (y * width + c.start[o] + i) * 3
                        s0 &+= Int32(image[p]) &* k; s1 &+= Int32(image[p + 1]) &* k; s2 &+= Int32(image[p + 2]) &* k
                    }
                    let q = (y * outWidth + o) * 3
                    out[q] = clip8(s0); out[q + 1] = clip8(s1); out[q + 2] = clip8(s2)
                }
            }
            image = out
            w = outWidth
        }
        if outHeight != height {
            let c = coefficients(inSize: height, outSize: outHeight, filter: filter)
            let rowBytes = w * 3
            var out = [UInt8](repeating: 0, count: rowBytes * outHeight)
            var acc = [Int32](repeating: 0, count: rowBytes)
            for o in 0..<outHeight {
                for i in 0..<rowBytes { acc[i] = half }
                for j in 0..<c.count[o] {
                    let k = c.weights[o * c.kernelSize + j], row = (c.start[o] + j) * rowBytes
                    for i in 0..<rowBytes { acc[i] &+= Int32(image[row + i]) &* k }
                }
                for i in 0..<rowBytes { out[o * rowBytes + i] = clip8(acc[i]) }
            }
            image = out
        }
        return image
    }
}
