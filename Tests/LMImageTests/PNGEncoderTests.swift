import Foundation
import Testing
import LMImage

/// The PNG writer behind raw-pixel attachments: its files decode to the pixels written (CRC-32 and Adler-32
/// checked by the decoder), in one or several stored DEFLATE blocks, RGBA with its alpha dropped on reading.
@Suite struct PNGEncoderTests {
    static func pixels(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) } }

    @Test(arguments: [(1, 1), (3, 2), (200, 110), (1, 30000)])
    func rgbPixelsRoundTrip(width: Int, height: Int) throws {
        let pixels = Self.pixels(width * height * 3)
        let file = PNGEncoder.encode(width: width, height: height, channels: 3, pixels: pixels)
        let image = try DecodedImage(data: Data(file))
        #expect(image.width == width && image.height == height && image.pixels == pixels)
    }

    @Test func rgbaPixelsDecodeToTheirRGB() throws {
        let rgba = Self.pixels(7 * 5 * 4)
        let file = PNGEncoder.encode(width: 7, height: 5, channels: 4, pixels: rgba)
        #expect(file[25] == 6)  // IHDR colour type: RGBA
        let image = try DecodedImage(data: Data(file))
        let rgb = stride(from: 0, to: rgba.count, by: 4).flatMap { rgba[$0..<($0 + 3)] }
        #expect(image.pixels == rgb)
    }

    @Test func aFlippedByteFailsTheDecodersChecksums() {
        var file = PNGEncoder.encode(width: 4, height: 4, channels: 3, pixels: Self.pixels(48))
        file[file.count - 20] ^= 0x40  // inside the IDAT data, before IDAT's CRC and IEND
        #expect(throws: ImageDecodingError.self) { try DecodedImage(data: Data(file)) }
    }
}
