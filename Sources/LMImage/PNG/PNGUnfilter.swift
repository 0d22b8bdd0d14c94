/// Reverses PNG's per-row filters (PNG specification, section 7.3 and 9) in place.
enum PNGUnfilter {
    /// Unfilters the `rows` rows of one pass stored at `data[start...]`, each a filter-type byte followed by
    /// `rowBytes` bytes; `stride` is the distance to the byte a filter predicts from (bytes per pixel,
    /// at least 1). The row above the first is zero.
    /// - Throws: `.corruptImageData` for a filter type above 4 (`fileOffset` is where the image data starts).
    static func unfilter(
        _ data: inout [UInt8], start: Int, rows: Int, rowBytes: Int, stride: Int, fileOffset: Int
    ) throws(ImageDecodingError) {
        for row in 0..<rows {
            let typeIndex = start + row * (rowBytes + 1)
            let cur = typeIndex + 1
            let prev = cur - (rowBytes + 1)  // meaningful only when row > 0
            let hasPrev = row > 0
            switch data[typeIndex] {
            case 0:
                break
            case 1:
                for i in stride..<max(stride, rowBytes) { data[cur + i] &+= data[cur + i - stride] }
            case 2:
                if hasPrev { for i in 0..<rowBytes { data[cur + i] &+= data[prev + i] } }
            case 3:
                for i in 0..<rowBytes {
                    let left = i >= stride ? Int(data[cur + i - stride]) : 0
                    let up = hasPrev ? Int(data[prev + i]) : 0
                    data[cur + i] &+= UInt8((left + up) >> 1)
                }
            case 4:
                for i in 0..<rowBytes {
                    let a = i >= stride ? Int(data[cur + i - stride]) : 0
                    let b = hasPrev ? Int(data[prev + i]) : 0
                    let c = hasPrev && i >= stride ? Int(data[prev + i - stride]) : 0
                    data[cur + i] &+= UInt8(paeth(a, b, c))
                }
            default:
                throw .corruptImageData(detail: "PNG filter type \(data[typeIndex]) in row \(row)", offset: fileOffset)
            }
        }
    }

    @inline(__always)
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
