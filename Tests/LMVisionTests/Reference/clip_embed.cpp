// clip_embed: the image embeddings llama.cpp's mtmd computes for one image, as raw little-endian float32.
//
// usage: clip_embed MMPROJ.gguf gemma3|idefics3 WIDTH HEIGHT RGB_FILE OUT_FILE [TILES_FILE]
//   RGB_FILE holds WIDTH*HEIGHT*3 bytes (rows top to bottom, R G B). OUT_FILE gets the embeddings of every
//   encoded image in mtmd's order (Idefics3: the tiles row by row, then the overview), [nTokens, nEmbdText].
//   TILES_FILE, when given, gets those images as the encoder reads them (normalised, [height, width, 3] each).
//
// Built against libmtmd of llama.cpp b11312 by Tests/LMVisionTests/Reference/make_expected.py. It calls
// mtmd's own preprocessor (the class mtmd.cpp picks for the projector) and clip_image_encode, with flash
// attention off (the F32 softmax path; flash attention would round K and V to F16).
#include "clip_harness.h"

#include <cstdlib>
#include <memory>
#include <string>

int main(int argc, char ** argv) {
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: clip_embed MMPROJ gemma3|idefics3 WIDTH HEIGHT RGB_FILE OUT_FILE [TILES_FILE]\n");
        return 2;
    }
    const std::string kind = argv[2];
    const int width = atoi(argv[3]), height = atoi(argv[4]);
    clip_image_u8 img;
    if (!read_rgb(argv[5], width, height, img)) return 1;
    clip_ctx * ctx = load_mmproj(argv[1], CLIP_FLASH_ATTN_TYPE_DISABLED, false);
    if (!ctx) return 1;

    std::unique_ptr<mtmd_image_preprocessor> pre;
    if (kind == "gemma3") {
        pre = std::make_unique<mtmd_image_preprocessor_fixed_size>(ctx);
    } else if (kind == "idefics3") {
        pre = std::make_unique<mtmd_image_preprocessor_idefics3>(ctx);
    } else {
        fprintf(stderr, "unknown projector %s\n", kind.c_str());
        return 2;
    }
    mtmd_image_preproc_out out = pre->preprocess(img);
    std::vector<clip_image_f32 *> order = encoding_order(out);

    if (argc == 8) {
        FILE * t = fopen(argv[7], "wb");
        if (!t) { fprintf(stderr, "cannot write %s\n", argv[7]); return 1; }
        for (clip_image_f32 * e : order) fwrite(e->get_ro_buf().data(), sizeof(float), e->get_ro_buf().size(), t);
        fclose(t);
    }

    FILE * f = fopen(argv[6], "wb");
    if (!f) { fprintf(stderr, "cannot write %s\n", argv[6]); return 1; }
    std::vector<float> embd;
    for (clip_image_f32 * e : order) {
        if (!encode(ctx, 1, e, embd)) return 1;
        fwrite(embd.data(), sizeof(float), embd.size(), f);
        fprintf(stderr, "image %dx%d -> %zu floats\n", e->nx(), e->ny(), embd.size());
    }
    fclose(f);
    clip_free(ctx);
    return 0;
}
