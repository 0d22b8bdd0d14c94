import Foundation
import Testing
import LMImage

/// Malformed, truncated and hostile PNG files, built in memory: each is refused with the specific error.
@Suite struct HostilePNGTests {
    /// A 4x2 8-bit grey image, rows unfiltered.
    static let raw: [UInt8] = [0, 10, 20, 30, 40, 0, 50, 60, 70, 80]
    static let idatOffset = 8 + 25

    static func decode(_ bytes: [UInt8], limits: ImageDecodingLimits = ImageDecodingLimits()) -> Result<DecodedImage, ImageDecodingError> {
        Result { () throws(ImageDecodingError) in try DecodedImage(data: Data(bytes), limits: limits) }
    }

    static func error(_ bytes: [UInt8]) -> ImageDecodingError? {
        if case .failure(let e) = decode(bytes) { return e }
        return nil
    }

    static func greyPNG(idat: [UInt8], width: Int = 4, height: Int = 2) -> [UInt8] {
        TestImages.png(TestImages.ihdr(width: width, height: height), [TestImages.chunk("IDAT", idat)])
    }

    @Test func aBuiltImageDecodesSoTheOtherCasesFailForTheirOwnReason() throws {
        let image = try Self.decode(Self.greyPNG(idat: TestImages.zlibStored(Self.raw))).get()
        #expect(image.width == 4 && image.height == 2)
        #expect(image.pixels == [10, 20, 30, 40, 50, 60, 70, 80].flatMap { [$0, $0, $0] })
    }

    @Test func theChecksumsMatchPublishedValues() {
        // Every PNG ends with IEND's CRC ae 42 60 82; RFC 1950's Adler-32 of "Wikipedia" is 0x11E60398.
        let iend = Array("IEND".utf8), wikipedia = Array("Wikipedia".utf8)
        #expect(CRC32.checksum(iend, 0..<4) == 0xAE42_6082)
        #expect(Adler32.checksum(wikipedia, count: wikipedia.count) == 0x11E6_0398)
    }

    @Test func aFileCutAtAnyByteIsATruncationError() throws {
        // Several IDAT chunks and Adam7, so cuts fall inside and between every kind of chunk.
        let file = try [UInt8](#require(Fixture.png.first { $0.file == "palette4-17x13-adam7.png" }).imageData())
        for cut in 0..<file.count {
            let error = Self.error(Array(file.prefix(cut)))
            if cut < 8 {
                #expect(error == .unrecognizedFormat(prefix: Array(file.prefix(cut))), "cut at \(cut)")
            } else if case .truncated = error {
            } else {
                Issue.record("cut at \(cut): \(String(describing: error))")
            }
        }
    }

    @Test(arguments: [(100_000, 100_000), (Int(Int32.max), 1), (8193, 8193), (1, 67_108_865)])
    func aHugeDeclaredSizeIsRefusedBeforeAllocating(width: Int, height: Int) {
        let file = TestImages.png(TestImages.ihdr(width: width, height: height), [])
        #expect(Self.error(file) == .tooManyPixels(width: width, height: height, limit: 64 << 20))
    }

    @Test func aSmallFileDeclaringALargeImageIsRefusedBeforeInflating() {
        // 8192 x 8192 16-bit RGBA inflates to 8192 * (1 + 8 * 8192) bytes; 1032:1 is DEFLATE's best ratio.
        let idat = TestImages.zlibStored(Self.raw)
        let file = TestImages.png(TestImages.ihdr(width: 8192, height: 8192, depth: 16, colorType: 6), [TestImages.chunk("IDAT", idat)])
        let needed: Int = 8192 * (1 + 8 * 8192) / 1032
        #expect(Self.error(file) == .tooLittleData(needed: needed, available: idat.count, offset: Self.idatOffset))
    }

    @Test func theLimitIsTheCallers() {
        let file = Self.greyPNG(idat: TestImages.zlibStored(Self.raw))
        let limit = ImageDecodingLimits(maxPixelCount: 7)
        #expect(Self.decode(file, limits: limit).error == .tooManyPixels(width: 4, height: 2, limit: 7))
    }

    @Test func aWidthAboveTwoToThe31IsInvalid() {
        let file = TestImages.png(TestImages.ihdr(width: 1 << 31, height: 1), [])
        #expect(Self.error(file) == .invalidValue(field: "IHDR width", value: 1 << 31, offset: 16))
    }

    @Test(arguments: [(0, 5), (5, 0), (0, 0)])
    func aZeroSizeIsRefused(width: Int, height: Int) {
        #expect(Self.error(Self.greyPNG(idat: [], width: width, height: height)) == .zeroSize(width: width, height: height))
    }

    @Test func aZipBombStopsAtTheFirstByteBeyondTheImage() {
        // 16x16 grey needs 16 * 17 = 272 bytes; this 65 KB fixed-Huffman stream would inflate to ~10 MB.
        var bits = TestImages.BitWriter()
        bits.write(1, bits: 1)
        bits.write(1, bits: 2)
        bits.fixedSymbol(0)
        for _ in 0..<40_000 {
            bits.fixedSymbol(285)  // length 258
            bits.code(0, length: 5)  // distance 1
        }
        bits.fixedSymbol(256)
        let file = Self.greyPNG(idat: TestImages.zlib(bits.bytes, adlerOf: []), width: 16, height: 16)
        #expect(Self.error(file) == .inflatedSizeMismatch(expected: 272, produced: 273))
    }

    @Test func tooLittleImageDataIsASizeMismatch() {
        let file = Self.greyPNG(idat: TestImages.zlibStored(Array(Self.raw.prefix(7))))
        #expect(Self.error(file) == .inflatedSizeMismatch(expected: 10, produced: 7))
    }

    static func dynamicHeader(codeLengthLengths: [Int]) -> [UInt8] {
        var bits = TestImages.BitWriter()
        bits.write(1, bits: 1)
        bits.write(2, bits: 2)
        bits.write(0, bits: 5)
        bits.write(0, bits: 5)
        bits.write(codeLengthLengths.count - 4, bits: 4)
        for length in codeLengthLengths { bits.write(length, bits: 3) }
        bits.write(0, bits: 32)
        return TestImages.zlib(bits.bytes, adlerOf: raw)
    }

    @Test func anOverSubscribedHuffmanCodeIsRefused() {
        let file = Self.greyPNG(idat: Self.dynamicHeader(codeLengthLengths: [Int](repeating: 1, count: 19)))
        #expect(Self.error(file) == .invalidHuffmanTable(detail: "over-subscribed codeLengths code"))
    }

    @Test func anIncompleteHuffmanCodeIsRefused() {
        let file = Self.greyPNG(idat: Self.dynamicHeader(codeLengthLengths: [2, 2, 2, 0]))
        #expect(Self.error(file) == .invalidHuffmanTable(detail: "incomplete codeLengths code"))
    }

    @Test func theReservedBlockTypeIsRefused() {
        var bits = TestImages.BitWriter()
        bits.write(1, bits: 1)
        bits.write(3, bits: 2)
        bits.write(0, bits: 16)
        #expect(Self.error(Self.greyPNG(idat: TestImages.zlib(bits.bytes, adlerOf: Self.raw))) == .corruptDeflateStream(detail: "reserved block type 3"))
    }

    @Test func aDistanceBeforeTheOutputStartsIsRefused() {
        var bits = TestImages.BitWriter()
        bits.write(1, bits: 1)
        bits.write(1, bits: 2)
        bits.fixedSymbol(257)
        bits.code(0, length: 5)
        bits.fixedSymbol(256)
        let error = Self.error(Self.greyPNG(idat: TestImages.zlib(bits.bytes, adlerOf: Self.raw)))
        #expect(error == .corruptDeflateStream(detail: "distance 1 before the start of the output (0 bytes)"))
    }

    @Test func aStoredBlockWithABadLengthComplementIsRefused() {
        var stream = TestImages.zlibStored(Self.raw)
        stream[5] ^= 1
        #expect(Self.error(Self.greyPNG(idat: stream)) == .corruptDeflateStream(detail: "stored block length 10 does not match its complement"))
    }

    @Test func aWrongAdlerChecksumIsRefused() {
        let computed = Adler32.checksum(Self.raw, count: Self.raw.count)
        let file = Self.greyPNG(idat: TestImages.zlibStored(Self.raw, adler: computed ^ 1))
        #expect(Self.error(file) == .adler32Mismatch(stored: computed ^ 1, computed: computed))
    }

    @Test func aCorruptedChunkFailsItsCRC() {
        var file = Self.greyPNG(idat: TestImages.zlibStored(Self.raw))
        let crcOffset = Self.idatOffset + 8 + TestImages.zlibStored(Self.raw).count
        let stored = UInt32(file[crcOffset]) << 24 | UInt32(file[crcOffset + 1]) << 16 | UInt32(file[crcOffset + 2]) << 8 | UInt32(file[crcOffset + 3])
        file[Self.idatOffset + 8 + 10] ^= 0x40
        guard case .crcMismatch(let chunk, let offset, let s, let computed) = Self.error(file) else {
            Issue.record("expected a CRC mismatch")
            return
        }
        #expect(chunk == "IDAT" && offset == Self.idatOffset && s == stored && computed != stored)
    }

    @Test func aFilterTypeAboveFourIsRefused() {
        var raw = Self.raw
        raw[5] = 5
        #expect(Self.error(Self.greyPNG(idat: TestImages.zlibStored(raw))) == .corruptImageData(detail: "PNG filter type 5 in row 1", offset: Self.idatOffset))
    }

    @Test func aPaletteIndexPastThePaletteIsRefused() {
        let file = TestImages.png(TestImages.ihdr(width: 2, height: 1, colorType: 3), [
            TestImages.chunk("PLTE", [255, 0, 0, 0, 255, 0]),
            TestImages.chunk("IDAT", TestImages.zlibStored([0, 1, 7])),
        ])
        #expect(Self.error(file) == .corruptImageData(detail: "palette index 7 past the 2-entry palette", offset: Self.idatOffset + 18))
    }

    @Test func aPaletteImageWithoutPLTEIsRefused() {
        let file = TestImages.png(TestImages.ihdr(width: 2, height: 1, colorType: 3), [TestImages.chunk("IDAT", TestImages.zlibStored([0, 0, 0]))])
        #expect(Self.error(file) == .missing(part: "PLTE"))
    }

    @Test func anImageWithoutIDATIsRefused() {
        #expect(Self.error(TestImages.png(TestImages.ihdr(width: 2, height: 1), [])) == .missing(part: "IDAT"))
    }

    @Test func aFirstChunkOtherThanIHDRIsRefused() {
        let file = PNGDecoder.signature + TestImages.chunk("IDAT", []) + TestImages.chunk("IEND", [])
        #expect(Self.error(file) == .missing(part: "IHDR (first chunk is IDAT)"))
    }

    @Test func aBitDepthTheColourTypeDoesNotAllowIsRefused() {
        let file = TestImages.png(TestImages.ihdr(width: 2, height: 1, depth: 4, colorType: 2), [])
        #expect(Self.error(file) == .invalidValue(field: "IHDR bit depth for colour type 2", value: 4, offset: 24))
    }

    @Test func anUnknownCriticalChunkIsUnsupportedAndAnUnknownAncillaryOneSkipped() throws {
        let idat = TestImages.chunk("IDAT", TestImages.zlibStored(Self.raw))
        let critical = TestImages.png(TestImages.ihdr(width: 4, height: 2), [TestImages.chunk("ABCD", [1, 2]), idat])
        #expect(Self.error(critical) == .unsupported(feature: "critical PNG chunk ABCD"))
        let ancillary = TestImages.png(TestImages.ihdr(width: 4, height: 2), [TestImages.chunk("abCD", [1, 2]), idat])
        #expect(throws: Never.self) { try Self.decode(ancillary).get() }
    }

    @Test func aChunkLongerThanTheFileIsTruncated() {
        let file = PNGDecoder.signature + TestImages.ihdr(width: 4, height: 2) + TestImages.u32(0x7FFF_FFFF) + Array("IDAT".utf8) + [1, 2, 3]
        #expect(Self.error(file) == .truncated(part: "chunk IDAT", offset: Self.idatOffset))
    }

    @Test(arguments: [[UInt8](), Array("GIF89a\u{1}\u{0}\u{1}".utf8), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x00]])
    func dataThatIsNeitherPNGNorJPEGIsUnrecognized(_ bytes: [UInt8]) {
        #expect(Self.error(bytes) == .unrecognizedFormat(prefix: Array(bytes.prefix(8))))
    }

    /// The CRCs are fixed after corrupting, so the corruption reaches inflate, unfiltering and pixel reading.
    @Test(arguments: ["rgb16-33x21-adam7.png", "palette2-33x21.png", "grey4-33x21-adam7.png", "rgb8-fixed-17x13.png"])
    func randomlyCorruptedFilesThrowOrDecodeButNeverTrap(_ name: String) throws {
        let file = try [UInt8](#require(Fixture.png.first { $0.file == name }).imageData())
        var rng = SplitMix64(seed: 27)
        for _ in 0..<300 {
            var bytes = file
            for _ in 0..<1 + Int(rng.next() % 4) {
                let i = 8 + Int(rng.next() % UInt64(file.count - 8))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            if case .success(let image) = Self.decode(TestImages.fixingCRCs(bytes)) { #expect(image.pixels.count == image.width * image.height * 3) }
        }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}

/// A small seeded generator, so the corruption tests are repeatable.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
