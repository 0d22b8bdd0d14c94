/// Brings a subsampled component plane to full resolution as libjpeg-turbo does by default ("fancy"
/// upsampling, `jdsample.c`): a triangle filter for 2:1 horizontal (4:2:2), 2:1 vertical (4:4:0) and 2:1 both
/// ways (4:2:0), weighting the nearer sample 3 and the farther 1 with libjpeg's alternating rounding biases;
/// edges repeat the component's last real sample (its `downsampled_width` and `downsampled_height`).
/// Other integral ratios, and planes 2 samples wide or less, replicate samples (libjpeg's `int_upsample`).
enum JPEGUpsample {
    /// A component's decoded samples: `width` by `height` real samples in rows `stride` bytes apart.
    struct Plane {
        var samples: [UInt8]
        var stride: Int
        var width: Int
        var height: Int
    }

    /// `plane` at `hScale` x `vScale` times its size, cropped to `outWidth` x `outHeight`.
    static func upsample(_ plane: Plane, hScale: Int, vScale: Int, outWidth: Int, outHeight: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: outWidth * outHeight)
        let s = plane.samples, stride = plane.stride
        let w = plane.width, lastRow = plane.height - 1
        // One upsampled row of `w * hScale` samples, horizontal pass only, reused for every row.
        var row = [Int](repeating: 0, count: w * hScale + 2)
        for y in 0..<outHeight {
            let inRow = min(y / vScale, lastRow)
            let base = inRow * stride
            if vScale == 2 && hScale <= 2 && (hScale == 1 || w > 2) {
                // Vertical triangle: the nearer row weighs 3, the row beyond (above for the upper output
                // row, below for the lower) 1, the edge rows repeating themselves.
                let upper = y % 2 == 0
                let other = (upper ? max(inRow - 1, 0) : min(inRow + 1, lastRow)) * stride
                if hScale == 1 {
                    let bias = upper ? 1 : 2
                    for x in 0..<outWidth {
                        out[y * outWidth + x] = UInt8((Int(s[base + x]) * 3 + Int(s[other + x]) + bias) >> 2)
                    }
                } else {
                    // h2v2: column sums, then the horizontal triangle on the sums (/16).
                    func colsum(_ x: Int) -> Int { Int(s[base + x]) * 3 + Int(s[other + x]) }
                    var this = colsum(0), next = colsum(1), last = this
                    row[0] = (this * 4 + 8) >> 4
                    row[1] = (this * 3 + next + 7) >> 4
                    for x in 1..<(w - 1) {
                        last = this
                        this = next
                        next = colsum(x + 1)
                        row[2 * x] = (this * 3 + last + 8) >> 4
                        row[2 * x + 1] = (this * 3 + next + 7) >> 4
                    }
                    last = this
                    this = next
                    row[2 * (w - 1)] = (this * 3 + last + 8) >> 4
                    row[2 * (w - 1) + 1] = (this * 4 + 7) >> 4
                    for x in 0..<outWidth { out[y * outWidth + x] = UInt8(row[x]) }
                }
                continue
            }
            if hScale == 2 && vScale == 1 && w > 2 {
                // h2v1: the nearer sample weighs 3, its other neighbour 1; rounding alternates 1 and 2.
                row[0] = Int(s[base])
                row[1] = (Int(s[base]) * 3 + Int(s[base + 1]) + 2) >> 2
                for x in 1..<(w - 1) {
                    let v = Int(s[base + x]) * 3
                    row[2 * x] = (v + Int(s[base + x - 1]) + 1) >> 2
                    row[2 * x + 1] = (v + Int(s[base + x + 1]) + 2) >> 2
                }
                let v = Int(s[base + w - 1])
                row[2 * (w - 1)] = (v * 3 + Int(s[base + w - 2]) + 1) >> 2
                row[2 * (w - 1) + 1] = v
                for x in 0..<outWidth { out[y * outWidth + x] = UInt8(row[x]) }
                continue
            }
            // Full size, or replication for other ratios.
            for x in 0..<outWidth { out[y * outWidth + x] = s[base + min(x / hScale, w - 1)] }
        }
        return out
    }
}
