/// Reads the orientation tag (0x0112) from an APP1 `Exif` segment: a TIFF header (byte order `II` or `MM`,
/// 42, the offset of IFD0) and IFD0's 12-byte entries (TIFF 6.0, section 2; EXIF 2.3, section 4.6.4).
package enum EXIFOrientation {
    /// The orientation in the APP1 data `bytes[start..<end]`, or nil when the segment is not EXIF, has no
    /// orientation tag, holds a value outside 1...8, or is malformed (metadata never fails a decode, as in
    /// libjpeg and Pillow).
    package static func read(_ bytes: [UInt8], start: Int, end: Int) -> ImageOrientation? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard end - start >= 14, Array(bytes[start..<start + 6]) == header else { return nil }
        let tiff = start + 6
        let littleEndian: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ p: Int) -> Int? {
            guard p >= tiff, p + 2 <= end else { return nil }
            return littleEndian ? Int(bytes[p]) | Int(bytes[p + 1]) << 8 : Int(bytes[p]) << 8 | Int(bytes[p + 1])
        }
        func u32(_ p: Int) -> Int? {
            guard let a = u16(p), let b = u16(p + 2) else { return nil }
            return littleEndian ? a | b << 16 : a << 16 | b
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), ifd < end - tiff, let count = u16(tiff + ifd) else { return nil }
        for i in 0..<count {
            let entry = tiff + ifd + 2 + 12 * i
            guard let tag = u16(entry), let type = u16(entry + 2) else { return nil }
            // SHORT (3), one value, held in the first two bytes of the value field.
            if tag == 0x0112, type == 3, let value = u16(entry + 8) {
                return value <= 8 ? ImageOrientation(rawValue: UInt8(value)) : nil
            }
        }
        return nil
    }
}
