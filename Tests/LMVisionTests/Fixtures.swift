import Foundation
import LMGGUF
import LMImage

/// The committed fixtures written by Reference/make_expected.py: tiny random-weight mmproj GGUFs, a 50x30
/// test image, and llama.cpp's embeddings of that image for each projector.
enum Fixtures {
    static let directory: URL? = Bundle.module.url(forResource: "Fixtures", withExtension: nil)
    static let imageWidth = 50, imageHeight = 30

    static func url(_ name: String) throws -> URL {
        guard let dir = directory else { throw CocoaError(.fileNoSuchFile) }
        return dir.appendingPathComponent(name)
    }

    static func image() throws -> DecodedImage {
        DecodedImage(width: imageWidth, height: imageHeight, pixels: [UInt8](try Data(contentsOf: url("image.rgb"))))
    }

    static func mmprojBytes(_ projector: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url("\(projector).mmproj.gguf")))
    }

    /// llama.cpp's embeddings, `[nTokens, nEmbdText]` float32 little-endian.
    static func expected(_ projector: String) throws -> [Float] {
        let data = try Data(contentsOf: url("\(projector).expected.f32"))
        return data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
    }

    /// The images llama.cpp's preprocessing encoded, as RGB bytes before normalisation, `[nTiles, side, side, 3]`.
    static func tileBytes(_ projector: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url("\(projector).tiles.rgb")))
    }

    /// `bytes` with every occurrence of `old` replaced by `new` (same length, so offsets stay valid).
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        let o = Array(old.utf8), n = Array(new.utf8)
        precondition(o.count == n.count)
        var out = bytes, i = 0
        while i + o.count <= out.count {
            if Array(out[i..<(i + o.count)]) == o {
                out.replaceSubrange(i..<(i + o.count), with: n)
                i += o.count
            } else { i += 1 }
        }
        return out
    }
}
