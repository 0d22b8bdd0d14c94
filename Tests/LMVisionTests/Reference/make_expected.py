#!/usr/bin/env python3
"""Writes the LMVision tests' fixtures: tiny random-weight mmproj GGUFs, a test image, and the embeddings
llama.cpp computes for them.

usage: python3 Tests/LMVisionTests/Reference/make_expected.py [--gguf-only]
  --gguf-only: only the two mmproj GGUFs (what Models/fetch writes; they are not committed)
  needs: numpy and gguf==0.19.0 (Models/fetch installs them under Models/.cache/fixture-packages: put that
  folder on PYTHONPATH), a C++ compiler, and llama.cpp b11312's static libraries with libmtmd
  (Scripts/llama-cpp-build; $LMSESSION_LLAMA_BUILD names the CMake build folder, default
  ~/.cache/lmsession/llama-server-b11312/build; $LMSESSION_MTMD_LIB another libmtmd.a) and its source tree
  (Scripts/llama-cpp-source).

Writes Fixtures/<projector>.mmproj.gguf, Fixtures/image.rgb (the test image, WIDTH x HEIGHT RGB bytes) and
Fixtures/<projector>.expected.f32 (llama.cpp's embeddings, float32, [nTokens, nEmbdText]) and
Fixtures/<projector>.tiles.rgb (the images mtmd's preprocessing made and encoded, as RGB bytes before
normalisation, [nTiles, imageSize, imageSize, 3]) for gemma3 and idefics3. The weights are seeded, so the files are the same on every run; the outputs are committed (a few
tens of kilobytes) so the tests need neither Python nor llama.cpp.
"""
import os, subprocess, sys
import numpy as np
import gguf

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "Fixtures"))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
WIDTH, HEIGHT = 50, 30  # not square and not the encoder's size, so resizing and padding/tiling matter

N_EMBD, N_HEAD, N_FF, N_LAYER, PATCH, IMAGE = 32, 4, 64, 2, 8, 32
N_EMBD_TEXT = 24
MEAN, STD = [0.48, 0.45, 0.40], [0.27, 0.26, 0.28]
F16, Q8_0 = gguf.GGMLQuantizationType.F16, gguf.GGMLQuantizationType.Q8_0


def test_image():
    """A smooth gradient with a few hard edges (resampling filters see both)."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    r = (x * 255 // (WIDTH - 1))
    g = (y * 255 // (HEIGHT - 1))
    b = ((x // 7 + y // 5) % 2) * 200 + 30
    return np.stack([r, g, b], axis=-1).astype(np.uint8)


# The tiny shape of the test files; Scripts/bench-vision writes real shapes with the same function.
TINY = dict(n_embd=N_EMBD, n_head=N_HEAD, n_ff=N_FF, n_layer=N_LAYER, patch=PATCH, image=IMAGE, n_embd_text=N_EMBD_TEXT,
            scale_factor=2, preproc_image_size=2 * IMAGE)  # preproc: the longest edge, a 2x2 grid of tiles


def write_mmproj(path, projector, rng, shape=TINY):
    """An mmproj GGUF of `projector` (gemma3 or idefics3) with seeded random weights of `shape` (TINY's keys)."""
    n_embd, n_head, n_ff, n_layer = shape["n_embd"], shape["n_head"], shape["n_ff"], shape["n_layer"]
    patch, image, n_embd_text = shape["patch"], shape["image"], shape["n_embd_text"]
    w = gguf.GGUFWriter(path, "clip")
    w.add_string("clip.projector_type", projector)
    w.add_bool("clip.has_vision_encoder", True)
    w.add_bool("clip.use_gelu", True)
    w.add_uint32("clip.vision.image_size", image)
    w.add_uint32("clip.vision.patch_size", patch)
    w.add_uint32("clip.vision.embedding_length", n_embd)
    w.add_uint32("clip.vision.feed_forward_length", n_ff)
    w.add_uint32("clip.vision.block_count", n_layer)
    w.add_uint32("clip.vision.attention.head_count", n_head)
    w.add_uint32("clip.vision.projection_dim", n_embd_text)
    w.add_float32("clip.vision.attention.layer_norm_epsilon", 1e-6)
    w.add_array("clip.vision.image_mean", MEAN)
    w.add_array("clip.vision.image_std", STD)
    w.add_uint32("clip.vision.projector.scale_factor", shape["scale_factor"])
    if projector == "idefics3":
        w.add_uint32("clip.vision.preproc_image_size", shape["preproc_image_size"])

    def mat(rows, cols, scale=None):
        return (rng.standard_normal((rows, cols)) * (scale or cols ** -0.5)).astype(np.float32)

    def vec(n, center=0.0, scale=0.1):
        return (center + rng.standard_normal(n) * scale).astype(np.float32)

    def add_matrix(name, m, qtype):
        if qtype == Q8_0:
            w.add_tensor(name, gguf.quants.quantize(m, Q8_0), raw_dtype=Q8_0)
        else:
            w.add_tensor(name, m.astype(np.float16))

    n_patches = (image // patch) ** 2
    w.add_tensor("v.patch_embd.weight",
                 (rng.standard_normal((n_embd, 3, patch, patch)) * (3 * patch * patch) ** -0.5).astype(np.float16))
    w.add_tensor("v.patch_embd.bias", vec(n_embd))
    w.add_tensor("v.position_embd.weight", (rng.standard_normal((n_patches, n_embd)) * 0.5).astype(np.float32))
    # idefics3 stores its feed-forward matrices as Q8_0 and gemma3 as F16, so both formats are covered
    # (a shape may name one: llama.cpp's published SmolVLM mmproj files are F16 throughout).
    ffn_type = shape.get("ffn_type") or (Q8_0 if projector == "idefics3" else F16)
    for i in range(n_layer):
        p = f"v.blk.{i}"
        for t in ("attn_q", "attn_k", "attn_v", "attn_out"):
            add_matrix(f"{p}.{t}.weight", mat(n_embd, n_embd), F16)
            w.add_tensor(f"{p}.{t}.bias", vec(n_embd))
        for t in ("ln1", "ln2"):
            w.add_tensor(f"{p}.{t}.weight", vec(n_embd, 1.0))
            w.add_tensor(f"{p}.{t}.bias", vec(n_embd))
        add_matrix(f"{p}.ffn_up.weight", mat(n_ff, n_embd), ffn_type)
        w.add_tensor(f"{p}.ffn_up.bias", vec(n_ff))
        add_matrix(f"{p}.ffn_down.weight", mat(n_embd, n_ff), ffn_type)
        w.add_tensor(f"{p}.ffn_down.bias", vec(n_embd))
    w.add_tensor("v.post_ln.weight", vec(n_embd, 1.0))
    w.add_tensor("v.post_ln.bias", vec(n_embd))
    if projector == "gemma3":
        w.add_tensor("mm.soft_emb_norm.weight", vec(n_embd, 0.0, 0.5))
        # [nEmbdVision, nEmbdText] outermost-first: Gemma 3's projection is stored transposed.
        add_matrix("mm.input_projection.weight", mat(n_embd, n_embd_text, n_embd ** -0.5), F16)
    else:
        add_matrix("mm.model.fc.weight", mat(n_embd_text, n_embd * shape["scale_factor"] ** 2), F16)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def build_reference(source="clip_embed.cpp", name="clip_embed"):
    """Compiles `source` (beside this script) against libmtmd into .build/`name`; returns its path."""
    src = subprocess.run([os.path.join(ROOT, "Scripts", "llama-cpp-source")], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.strip()
    build = os.environ.get("LMSESSION_LLAMA_BUILD",
                           os.path.expanduser("~/.cache/lmsession/llama-server-b11312/build"))
    exe = os.path.join(ROOT, ".build", name)
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    # llama-server links libmtmd, so Scripts/llama-server build (or Scripts/llama-cpp-build) leaves it in the
    # build folder; $LMSESSION_MTMD_LIB names another archive of clip.cpp, mtmd-image.cpp and models/*.cpp
    # compiled from the same tree.
    mtmd = os.environ.get("LMSESSION_MTMD_LIB", os.path.join(build, "tools", "mtmd", "libmtmd.a"))
    libs = [mtmd] + [os.path.join(build, "ggml", "src", p) for p in ("libggml.a", "libggml-cpu.a", "libggml-base.a")]
    cmd = ["c++", "-std=c++17", "-O2", os.path.join(HERE, source),
           "-I", os.path.join(src, "tools", "mtmd"), "-I", os.path.join(src, "include"),
           "-I", os.path.join(src, "ggml", "include"), "-o", exe, *libs, "-fopenmp", "-lpthread", "-ldl"]
    subprocess.run(cmd, check=True)
    return exe


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    if sys.argv[1:] == ["--gguf-only"]:  # Models/fetch: the weights only (not committed)
        for i, projector in enumerate(["gemma3", "idefics3"]):
            write_mmproj(os.path.join(FIXTURES, f"{projector}.mmproj.gguf"), projector, np.random.default_rng(27 + i))
        return
    image = test_image()
    image_path = os.path.join(FIXTURES, "image.rgb")
    image.tofile(image_path)
    exe = build_reference()
    for i, projector in enumerate(["gemma3", "idefics3"]):
        gguf_path = os.path.join(FIXTURES, f"{projector}.mmproj.gguf")
        write_mmproj(gguf_path, projector, np.random.default_rng(27 + i))
        out = os.path.join(FIXTURES, f"{projector}.expected.f32")
        tiles_f32 = os.path.join(FIXTURES, f"{projector}.tiles.f32")
        subprocess.run([exe, gguf_path, projector, str(WIDTH), str(HEIGHT), image_path, out, tiles_f32], check=True)
        # The normalised tiles mtmd encoded, stored as the bytes they were normalised from (a quarter the size).
        values = np.fromfile(tiles_f32, dtype=np.float32).reshape(-1, 3)
        os.remove(tiles_f32)
        restored = (values * np.array(STD, dtype=np.float32) + np.array(MEAN, dtype=np.float32)) * 255
        tile_bytes = np.rint(restored)
        assert np.abs(restored - tile_bytes).max() < 1e-3 and tile_bytes.min() >= 0 and tile_bytes.max() <= 255
        tile_bytes.astype(np.uint8).tofile(os.path.join(FIXTURES, f"{projector}.tiles.rgb"))
        print(f"{projector}: {os.path.getsize(out) // 4 // N_EMBD_TEXT} tokens")


if __name__ == "__main__":
    sys.exit(main())
