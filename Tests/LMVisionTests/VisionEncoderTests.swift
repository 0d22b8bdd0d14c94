import Foundation
import LMGGUF
import LMImage
import LMVision
import Testing

/// The encoder and projector against llama.cpp's `mtmd` (b11312) on tiny random-weight mmproj files: the same
/// 50x30 image through each projector's preprocessing, ViT and projector (Reference/make_expected.py).
@Suite struct VisionEncoderTests {
    /// Per projector: tokens llama.cpp produced, and the largest difference allowed. ggml rounds the patch
    /// pixels and every F16 product's activations to F16 and tabulates GELU in F16; LMKernels keeps F16
    /// products' activations in Float, so values of about 1 differ by a few 1e-3.
    static let cases: [(projector: String, tokens: Int, tolerance: Float)] = [
        ("gemma3", 4, 2e-2),
        ("idefics3", 20, 2e-2),
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

    @Test("Idefics3 cuts the image into a 2x2 grid of tiles and appends the overview")
    func idefics3Tiles() throws {
        let file = try GGUFFile(bytes: MappedBytes(copying: Fixtures.mmprojBytes("idefics3")))
        let hp = try VisionHyperparameters(file: file)
        let tiles = try ImagePreprocessor(hp).tiles(for: Fixtures.image())
        #expect(tiles.count == 5)
        #expect(hp.tokensPerImage == 4)
    }

    @Test("an empty image is refused")
    func emptyImage() throws {
        let encoder = try VisionEncoder(file: GGUFFile(bytes: MappedBytes(copying: Fixtures.mmprojBytes("gemma3"))))
        #expect(throws: VisionInputError.emptyImage) { try encoder.embeddings(for: DecodedImage(width: 0, height: 0, pixels: [])) }
    }
}
