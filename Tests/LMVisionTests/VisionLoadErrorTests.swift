import LMGGUF
import LMVision
import Testing

/// Broken mmproj files give typed errors naming what is wrong: each case edits one name in a fixture's bytes
/// (same length, so the file stays well formed).
@Suite struct VisionLoadErrorTests {
    static let cases: [(projector: String, edits: [(String, String)], error: VisionLoadError)] = [
        ("idefics3", [("idefics3", "idefics9")], .unsupportedProjector("idefics9")),
        ("gemma3", [("general.architecture", "general.architectury")], .notVisionEncoder(architecture: nil)),
        ("gemma3", [("clip.vision.image_size", "clip.vision.image_sizf")], .missingKey("clip.vision.image_size")),
        ("idefics3", [("mm.model.fc.weight", "mm.model.fx.weight")], .missingTensor("mm.model.fc.weight")),
        ("gemma3", [("v.blk.1.ffn_down.weight", "v.blk.1.ffn_dowx.weight")], .missingTensor("v.blk.1.ffn_down.weight")),
        ("gemma3", [("mm.soft_emb_norm.weight", "mm.soft_emb_norx.weight")], .missingTensor("mm.soft_emb_norm.weight")),
        // A longest edge of 32576 pixels where the fixture has 64 (the uint32 value's bytes 40 00 become 40 7f).
        ("idefics3", [("clip.vision.preproc_image_size\u{04}\u{00}\u{00}\u{00}@\u{00}", "clip.vision.preproc_image_size\u{04}\u{00}\u{00}\u{00}@\u{7f}")],
         .invalidKey("clip.vision.preproc_image_size", reason: "32576 is above 512 pixels")),
        // attn_q and ffn_up of block 0 swap names: attn_q then has ffn_up's shape.
        ("gemma3", [("v.blk.0.attn_q.weight", "v.blk.0.ffn_zz.weight"), ("v.blk.0.ffn_up.weight", "v.blk.0.attn_q.weight"),
                    ("v.blk.0.ffn_zz.weight", "v.blk.0.ffn_up.weight")],
         .badShape(tensor: "v.blk.0.attn_q.weight", expected: [32, 32], found: [64, 32])),
    ]

    @Test("a broken file is refused with an error saying what is wrong", arguments: cases)
    func refused(_ c: (projector: String, edits: [(String, String)], error: VisionLoadError)) throws {
        var bytes = try Fixtures.mmprojBytes(c.projector)
        for (old, new) in c.edits { bytes = Fixtures.replacing(old, with: new, in: bytes) }
        #expect(throws: c.error) { try VisionEncoder(file: GGUFFile(bytes: MappedBytes(copying: bytes))) }
    }
}
