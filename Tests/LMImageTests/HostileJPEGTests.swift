import Foundation
import Testing
import LMImage

/// Malformed, truncated and hostile JPEG files, made in memory by editing Pillow-written fixtures: each is
/// refused with the specific error.
@Suite struct HostileJPEGTests {
    static func file(_ name: String) throws -> [UInt8] {
        try [UInt8](#require(Fixture.jpeg.first { $0.file == name }).imageData())
    }

    static func error(_ bytes: [UInt8], limits: ImageDecodingLimits = ImageDecodingLimits()) -> ImageDecodingError? {
        do throws(ImageDecodingError) {
            _ = try DecodedImage(data: Data(bytes), limits: limits)
            return nil
        } catch { return error }
    }

    /// The offset of the first segment with `marker` (its 0xFF byte), walking segment lengths from SOI.
    static func segment(_ marker: UInt8, in bytes: [UInt8]) throws -> Int {
        var p = 2
        while p + 4 <= bytes.count, bytes[p] == 0xFF {
            if bytes[p + 1] == marker { return p }
            try #require(bytes[p + 1] != 0xDA, "no segment \(marker) before the scan")
            p += 2 + (Int(bytes[p + 2]) << 8 | Int(bytes[p + 3]))
        }
        throw TestFailure.noSegment(marker)
    }

    enum TestFailure: Error { case noSegment(UInt8) }

    @Test(arguments: ["baseline-420-17x13.jpg", "progressive-422-17x13.jpg", "baseline-420-restart1-64x48.jpg"])
    func aFileCutAtAnyByteIsATruncationError(_ name: String) throws {
        let file = try Self.file(name)
        for cut in 0..<file.count {
            let error = Self.error(Array(file.prefix(cut)))
            if cut < 2 {
                #expect(error == .unrecognizedFormat(prefix: Array(file.prefix(cut))), "cut at \(cut)")
            } else if case .truncated = error {
            } else if case .tooLittleData = error {  // cut early enough that the rest cannot hold the blocks
            } else {
                Issue.record("cut at \(cut): \(String(describing: error))")
            }
        }
    }

    @Test(arguments: [(65535, 65535), (8193, 8193)])
    func aHugeDeclaredSizeIsRefusedBeforeAllocating(width: Int, height: Int) throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        let sof = try Self.segment(0xC0, in: file)
        file[sof + 5] = UInt8(height >> 8)
        file[sof + 6] = UInt8(height & 255)
        file[sof + 7] = UInt8(width >> 8)
        file[sof + 8] = UInt8(width & 255)
        #expect(Self.error(file) == .tooManyPixels(width: width, height: height, limit: 64 << 20))
    }

    @Test func aSmallFileDeclaringALargeImageIsRefusedBeforeAllocating() throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        let sof = try Self.segment(0xC0, in: file)
        file[sof + 5] = 0x20  // 8192 x 8192: 1M luma blocks and 2 x 256K chroma blocks need 196,608 bytes
        file[sof + 6] = 0
        file[sof + 7] = 0x20
        file[sof + 8] = 0
        let sofEnd = sof + 2 + (Int(file[sof + 2]) << 8 | Int(file[sof + 3]))
        #expect(Self.error(file) == .tooLittleData(needed: 196_608, available: file.count - sofEnd, offset: sofEnd))
    }

    @Test func theLimitIsTheCallers() throws {
        let file = try Self.file("baseline-420-17x13.jpg")
        #expect(Self.error(file, limits: ImageDecodingLimits(maxPixelCount: 220)) == .tooManyPixels(width: 17, height: 13, limit: 220))
        #expect(Self.error(file, limits: ImageDecodingLimits(maxPixelCount: 221)) == nil)
    }

    @Test func aZeroWidthIsRefusedAndAZeroHeightNeedsDNL() throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        let sof = try Self.segment(0xC0, in: file)
        var zeroWidth = file
        zeroWidth[sof + 7] = 0
        zeroWidth[sof + 8] = 0
        #expect(Self.error(zeroWidth) == .zeroSize(width: 0, height: 13))
        file[sof + 5] = 0
        file[sof + 6] = 0
        #expect(Self.error(file) == .unsupported(feature: "JPEG height defined by a DNL marker"))
    }

    @Test func aHuffmanTableWithMoreCodesThanItsLengthsHoldIsRefused() throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        let dht = try Self.segment(0xC4, in: file)
        // Counts of lengths 1...16 follow the class/index byte. Three 1-bit codes cannot exist; the total
        // is kept so the segment still parses.
        let counts = dht + 5
        try #require(file[counts + 2] >= 3)
        file[counts] += 3
        file[counts + 2] -= 3
        #expect(Self.error(file) == .invalidHuffmanTable(detail: "JPEG table has more codes than 1 bits can hold"))
    }

    @Test func aDCSymbolAboveFifteenIsRefused() throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        let dht = try Self.segment(0xC4, in: file)
        try #require(file[dht + 4] >> 4 == 0, "the first table is a DC table")
        file[dht + 4 + 17] = 16
        #expect(Self.error(file) == .invalidHuffmanTable(detail: "DC symbol 16 above 15"))
    }

    @Test(arguments: [(UInt8(0xC9), "SOF9"), (0xC3, "SOF3"), (0xCA, "SOF10"), (0xC5, "SOF5")])
    func arithmeticLosslessAndHierarchicalFramesAreUnsupported(marker: UInt8, name: String) throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        file[try Self.segment(0xC0, in: file) + 1] = marker
        #expect(Self.error(file) == .unsupported(feature: "JPEG \(name) (lossless, hierarchical or arithmetic-coded)"))
    }

    @Test func twelveBitSamplesAreUnsupported() throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        file[try Self.segment(0xC0, in: file) + 4] = 12
        #expect(Self.error(file) == .unsupported(feature: "12-bit JPEG samples"))
    }

    @Test func aWrongRestartMarkerIsRefused() throws {
        var file = try Self.file("baseline-420-restart1-64x48.jpg")
        let sos = try Self.segment(0xDA, in: file)
        let rst = try #require((sos..<file.count - 1).first { file[$0] == 0xFF && file[$0 + 1] == 0xD0 })
        file[rst + 1] = 0xD5
        #expect(Self.error(file) == .corruptImageData(detail: "expected restart marker RST0", offset: rst))
    }

    @Test func aScanNamingAnUndefinedHuffmanTableIsRefused() throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        let sos = try Self.segment(0xDA, in: file)
        file[sos + 6] = 0x33  // first component: DC table 3, AC table 3
        #expect(Self.error(file) == .missing(part: "DHT DC table 3"))
    }

    @Test func aSegmentLongerThanTheFileIsTruncated() throws {
        var file = try Self.file("baseline-420-17x13.jpg")
        let dqt = try Self.segment(0xDB, in: file)
        file[dqt + 2] = 0xFF
        file[dqt + 3] = 0xFF
        #expect(Self.error(file) == .truncated(part: "DQT segment", offset: dqt))
    }

    @Test func aFourComponentImageIsUnsupported() throws {
        var file = try Self.file("baseline-444-17x13.jpg")
        file[try Self.segment(0xC0, in: file) + 9] = 4
        #expect(Self.error(file) == .unsupported(feature: "4-component (CMYK/YCCK) JPEG"))
    }

    @Test func aScanBeforeTheFrameIsRefused() throws {
        let file = try Self.file("baseline-grey-17x13.jpg")
        let sof = try Self.segment(0xC0, in: file)
        let length = Int(file[sof + 2]) << 8 | Int(file[sof + 3])
        let withoutFrame = Array(file[..<sof] + file[(sof + 2 + length)...])
        #expect(Self.error(withoutFrame) == .missing(part: "SOF before SOS"))
    }

    /// Each scan's bytes, from its SOS marker to the marker after its entropy-coded data.
    static func scans(in bytes: [UInt8]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var p = 2
        while p + 4 <= bytes.count, bytes[p] == 0xFF, bytes[p + 1] != 0xD9 {
            let segmentEnd = p + 2 + (Int(bytes[p + 2]) << 8 | Int(bytes[p + 3]))
            guard bytes[p + 1] == 0xDA else {
                p = segmentEnd
                continue
            }
            var q = segmentEnd
            while q + 1 < bytes.count && !(bytes[q] == 0xFF && bytes[q + 1] != 0 && !(0xD0...0xD7).contains(bytes[q + 1])) { q += 1 }
            result.append(p..<q)
            p = q
        }
        return result
    }

    @Test func scansThatVisitEachCoefficientTooOftenAreRefused() throws {
        // A progressive file with its first full-band AC scan (Ss 1, Se 63, Ah 0) repeated 60 times: each
        // repeat decodes as the original did, and the total passes 16 visits a coefficient.
        let file = try Self.file("progressive-444-33x21.jpg")
        let scan = try #require(Self.scans(in: file).first { file[$0.lowerBound + 4] == 1 && file[$0.lowerBound + 7] == 1 && file[$0.lowerBound + 8] == 63 && file[$0.lowerBound + 9] >> 4 == 0 })
        let repeated = Array(file[..<scan.upperBound]) + (0..<60).flatMap { _ in file[scan] } + Array(file[scan.upperBound...])
        guard case .corruptImageData(let detail, let offset) = Self.error(repeated) else {
            Issue.record("expected corrupt image data")
            return
        }
        #expect(detail == "scans visit the coefficients more than 16 times over")
        #expect(offset > scan.upperBound)
        // Ten repeats stay within the bound and decode.
        let few = Array(file[..<scan.upperBound]) + (0..<10).flatMap { _ in file[scan] } + Array(file[scan.upperBound...])
        #expect(Self.error(few) == nil)
    }

    @Test(arguments: ["baseline-420-33x21.jpg", "progressive-420-restart2-64x48.jpg", "progressive-grey-33x21.jpg"])
    func randomlyCorruptedFilesThrowOrDecodeButNeverTrap(_ name: String) throws {
        let file = try Self.file(name)
        var rng = SplitMix64(seed: 27)
        for _ in 0..<300 {
            var bytes = file
            for _ in 0..<1 + Int(rng.next() % 4) {
                let i = 2 + Int(rng.next() % UInt64(file.count - 2))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            do throws(ImageDecodingError) {
                let image = try DecodedImage(data: Data(bytes))
                #expect(image.pixels.count == image.width * image.height * 3)
            } catch {}
        }
    }
}
