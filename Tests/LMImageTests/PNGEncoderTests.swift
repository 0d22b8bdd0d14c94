import Foundation
import Testing
import LMImage

/// The PNG writer behind raw-pixel attachments and turned images: its files decode to the pixels written (CRC-32
/// and Adler-32 checked by the decoder, the rows through every Paeth case, matches near DEFLATE's limits), RGBA with
/// its alpha dropped on reading, and they are compressed.
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

    @Test func aLargeUniformImageIsSmallAndStillExact() throws {
        // The size a tester sent as 192 MB when turned images were stored uncompressed.
        let (width, height) = (1000, 800)
        let pixels = [UInt8](repeating: 0, count: width * height * 3).enumerated().map { UInt8(($0.offset / 3 / width) % 7) }
        let file = PNGEncoder.encode(width: width, height: height, channels: 3, pixels: pixels)
        #expect(file.count < pixels.count / 50, "\(file.count) bytes for \(pixels.count) bytes of pixels")
        let image = try DecodedImage(data: Data(file))
        #expect(image.pixels == pixels)
    }

    @Test func randomBytesRoundTripThroughTheCompressor() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 59)  // 32 values: matches of every length and distance
        }
        let pixels = (0..<(97 * 89 * 3)).map { _ in next() }
        let image = try DecodedImage(data: Data(PNGEncoder.encode(width: 97, height: 89, channels: 3, pixels: pixels)))
        #expect(image.pixels == pixels)
    }

    @Test func aFlippedByteFailsTheDecodersChecksums() {
        var file = PNGEncoder.encode(width: 4, height: 4, channels: 3, pixels: Self.pixels(48))
        file[file.count - 20] ^= 0x40  // inside the IDAT data, before IDAT's CRC and IEND
        #expect(throws: ImageDecodingError.self) { try DecodedImage(data: Data(file)) }
    }
}
