import Testing
import LMImage

/// The EXIF reader on APP1 payloads built in code (TIFF 6.0 layout), both byte orders.
@Suite struct EXIFOrientationTests {
    /// "Exif\0\0", a TIFF header and IFD0 with `entries` (tag, type, value) 12 bytes each.
    static func app1(bigEndian: Bool, entries: [(Int, Int, Int)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 255), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8) + u16(entries.count)
        for (tag, type, value) in entries { tiff += u16(tag) + u16(type) + u32(1) + u16(value) + [0, 0] }
        return Array("Exif".utf8) + [0, 0] + tiff + u32(0)
    }

    @Test(arguments: [false, true])
    func theOrientationTagIsReadInEitherByteOrder(bigEndian: Bool) {
        let data = Self.app1(bigEndian: bigEndian, entries: [(0x010F, 2, 0), (0x0112, 3, 6)])
        #expect(EXIFOrientation.read(data, start: 0, end: data.count) == .right)
    }

    @Test func aMissingOrOutOfRangeTagOrTruncatedSegmentGivesNil() {
        let none = Self.app1(bigEndian: false, entries: [(0x010F, 2, 0)])
        #expect(EXIFOrientation.read(none, start: 0, end: none.count) == nil)
        let nine = Self.app1(bigEndian: false, entries: [(0x0112, 3, 9)])
        #expect(EXIFOrientation.read(nine, start: 0, end: nine.count) == nil)
        let full = Self.app1(bigEndian: true, entries: [(0x0112, 3, 8)])
        #expect(EXIFOrientation.read(full, start: 0, end: full.count) == .left)
        // The value ends 26 bytes in ("Exif\0\0" 6, TIFF header 8, entry count 2, tag/type/count 8, value 2).
        for cut in 0..<26 {
            #expect(EXIFOrientation.read(full, start: 0, end: cut) == nil, "cut at \(cut)")
        }
        #expect(EXIFOrientation.read(full, start: 0, end: 26) == .left)
    }
}
