/// Turns unfiltered PNG rows into 8-bit RGB, as stb_image does for 3 requested channels.
enum PNGPixels {
    /// Writes the pixels of one pass (`pass.height` rows at `data[start...]`, each a filter byte and
    /// `rowBytes` bytes) into `pixels` (`[height, width, 3]`) at the pass's positions.
    /// - Throws: `.corruptImageData` for a palette index past the palette.
    static func write(
        pass: PNGHeader.Pass, header: PNGHeader, palette: [UInt8], data: [UInt8], start: Int, rowBytes: Int,
        into pixels: inout [UInt8], fileOffset: Int
    ) throws(ImageDecodingError) {
        let depth = header.bitDepth
        let channels = header.colorType.channels
        // Bytes per sample (16-bit samples keep their first, high byte) and per pixel, for depths 8 and 16.
        let sampleBytes = depth / 8
        let pixelBytes = sampleBytes * channels
        // Grey below 8 bits scales to 0...255 (1 -> 255, 2 -> 85, 4 -> 17 per step), as PNG section 13.12 says.
        let greyScale = depth < 8 ? 255 / ((1 << depth) - 1) : 1
        let paletteCount = palette.count / 3
        for row in 0..<pass.height {
            let src = start + row * (rowBytes + 1) + 1
            let y = pass.yStart + row * pass.yStep
            for col in 0..<pass.width {
                let x = pass.xStart + col * pass.xStep
                let dst = (y * header.width + x) * 3
                let r: UInt8, g: UInt8, b: UInt8
                if depth < 8 {
                    let bit = col * depth
                    let value = Int(data[src + (bit >> 3)] >> UInt8(8 - depth - (bit & 7))) & ((1 << depth) - 1)
                    if header.colorType == .palette {
                        guard value < paletteCount else {
                            throw .corruptImageData(detail: "palette index \(value) past the \(paletteCount)-entry palette", offset: fileOffset)
                        }
                        (r, g, b) = (palette[3 * value], palette[3 * value + 1], palette[3 * value + 2])
                    } else {
                        let v = UInt8(value * greyScale)
                        (r, g, b) = (v, v, v)
                    }
                } else {
                    let p = src + col * pixelBytes
                    switch header.colorType {
                    case .grey, .greyAlpha:
                        (r, g, b) = (data[p], data[p], data[p])
                    case .rgb, .rgba:
                        (r, g, b) = (data[p], data[p + sampleBytes], data[p + 2 * sampleBytes])
                    case .palette:
                        let value = Int(data[p])
                        guard value < paletteCount else {
                            throw .corruptImageData(detail: "palette index \(value) past the \(paletteCount)-entry palette", offset: fileOffset)
                        }
                        (r, g, b) = (palette[3 * value], palette[3 * value + 1], palette[3 * value + 2])
                    }
                }
                pixels[dst] = r
                pixels[dst + 1] = g
                pixels[dst + 2] = b
            }
        }
    }
}
