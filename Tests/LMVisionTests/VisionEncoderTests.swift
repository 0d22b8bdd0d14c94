import Foundation
import LMGGUF
import LMImage
import LMVision
import Testing

/// The encoder and projector against llama.cpp's `mtmd` (b11312) on tiny random-weight mmproj files: the same
/// 50x30 image through each projector's preprocessing, ViT and projector (Reference/make_expected.py).
@Suite struct VisionEncoderTests {
    /// Per projector: tokens llama.cpp produced, and the largest difference allowed (outputs reach about 2.3
    /// and 3.2). ggml rounds the patch pixels and the activations of every F16 product to F16 and tabulates GELU
    /// in F16, where LMKernels keeps them in Float: 5e-4 measured for Gemma 3 (F16 weights throughout).
    /// Idefics3's file has Q8_0 feed-forward weights, whose 8-bit activations turn those small differences into
    /// whole quantization steps now and then: 1.1e-2 measured (1.3e-3 with the same file in F16).
    static let cases: [(projector: String, tokens: Int, tolerance: Float)] = [
        ("gemma3", 4, 2e-3),
        ("idefics3", 20, 2.5e-2),
    ]

    @Test("the embeddings of an image match llama.cpp's", arguments: cases)
    func embeddingsMatchLlamaCpp(_ c: (projector: String, tokens: Int, tolerance: Float)) throws {
        let encoder = try VisionEncoder(file: GGUFFile(bytes: MappedBytes(copying: Fixtures.mmprojBytes(c.projector))), threads: 2)
        let expected = try Fixtures.expected(c.projector)
        #expect(expected.count == c.tokens * encoder.nEmbdText)
        let got = try encoder.embeddings(for: Fixtures.image())
        try #require(got.count == expected.count)
        let maxDiff = zip(got, expected).map { abs($0 - $1) }.max() ?? .infinity
        let maxValue = expected.map(abs).max() ?? 0
        #expect(maxValue > 0.1, "the reference is not degenerate")
        #expect(maxDiff <= c.tolerance, "max |difference| \(maxDiff) over \(expected.count) values (largest |value| \(maxValue))")
    }

    /// Gemma 3: one letterboxed bilinear tile; Idefics3: a 2x2 grid of Lanczos tiles and the overview. Pillow's
    /// fixed-point resampling is deterministic, so the pixels must be llama.cpp's exactly.
    @Test("preprocessing makes llama.cpp's tiles, pixel for pixel", arguments: [("gemma3", 1), ("idefics3", 5)])
    func tilesMatchLlamaCpp(_ projector: String, count: Int) throws {
        let hp = try VisionHyperparameters(file: GGUFFile(bytes: MappedBytes(copying: Fixtures.mmprojBytes(projector))))
        let tiles = try ImagePreprocessor(hp).tiles(for: Fixtures.image())
        let expectedBytes = try Fixtures.tileBytes(projector)
        let side = hp.imageSize * hp.imageSize * 3
        try #require(tiles.count == count && expectedBytes.count == count * side)
        for (t, tile) in tiles.enumerated() {
            let expected = (0..<side).map { i in (Float(expectedBytes[t * side + i]) / 255 - hp.imageMean[i % 3]) / hp.imageStd[i % 3] }
            let wrong = zip(tile.pixels, expected).filter { abs($0 - $1) > 1e-6 }.count
            #expect(wrong == 0, "tile \(t): \(wrong) of \(side) values differ")
        }
    }

    @Test("an empty image is refused")
    func emptyImage() throws {
        let encoder = try VisionEncoder(file: GGUFFile(bytes: MappedBytes(copying: Fixtures.mmprojBytes("gemma3"))))
        #expect(throws: VisionInputError.emptyImage) { try encoder.embeddings(for: DecodedImage(width: 0, height: 0, pixels: [])) }
    }

    @Test("encoding stops at the next block once cancelled, and is whole otherwise")
    func cancellation() throws {
        let encoder = try VisionEncoder(file: GGUFFile(bytes: MappedBytes(copying: Fixtures.mmprojBytes("idefics3"))))
        let image = try Fixtures.image()
        // 5 tiles of 2 blocks: asked before each tile and each block, 15 times in all; cancelled at the 4th (tile 2).
        var asked = 0
        let cancelled = try encoder.embeddings(for: image, isCancelled: { asked += 1; return asked > 3 })
        #expect(cancelled == nil)
        #expect(asked == 4)
        var askedWhole = 0
        let whole = try encoder.embeddings(for: image, isCancelled: { askedWhole += 1; return false })
        #expect(askedWhole == 15)
        #expect(whole == (try encoder.embeddings(for: image)))
    }
}
