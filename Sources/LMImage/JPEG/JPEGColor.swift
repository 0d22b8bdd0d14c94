/// YCbCr to RGB as libjpeg's `jdcolor.c` converts (JFIF / ITU-R BT.601 full range): 16-bit fixed-point
/// tables, R = Y + 1.402 (Cr - 128), G = Y - 0.34414 (Cb - 128) - 0.71414 (Cr - 128),
/// B = Y + 1.772 (Cb - 128), each rounded as libjpeg rounds and clamped to 0...255.
enum JPEGColor {
    static let scaleBits = 16
    static let oneHalf = 1 << 15
    static func fix(_ x: Double) -> Int { Int(x * 65536 + 0.5) }

    static let crToR: [Int] = (0..<256).map { (fix(1.40200) * ($0 - 128) + oneHalf) >> scaleBits }
    static let cbToB: [Int] = (0..<256).map { (fix(1.77200) * ($0 - 128) + oneHalf) >> scaleBits }
    static let crToG: [Int] = (0..<256).map { -fix(0.71414) * ($0 - 128) }
    static let cbToG: [Int] = (0..<256).map { -fix(0.34414) * ($0 - 128) + oneHalf }

    @inline(__always)
    static func clamp(_ x: Int) -> UInt8 { UInt8(max(0, min(255, x))) }

    /// Interleaves three full-size planes into RGB, converting from YCbCr unless `isRGB`.
    static func interleave(_ planes: [[UInt8]], count: Int, isRGB: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count * 3)
        let p0 = planes[0], p1 = planes[1], p2 = planes[2]
        if isRGB {
            for i in 0..<count {
                out[3 * i] = p0[i]
                out[3 * i + 1] = p1[i]
                out[3 * i + 2] = p2[i]
            }
            return out
        }
        for i in 0..<count {
            let y = Int(p0[i]), cb = Int(p1[i]), cr = Int(p2[i])
            out[3 * i] = clamp(y + crToR[cr])
            out[3 * i + 1] = clamp(y + ((cbToG[cb] + crToG[cr]) >> scaleBits))
            out[3 * i + 2] = clamp(y + cbToB[cb])
        }
        return out
    }
}
