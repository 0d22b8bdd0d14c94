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
#include "clip.h"
#include "clip-impl.h"
#include "mtmd-image.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

int main(int argc, char ** argv) {
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: clip_embed MMPROJ gemma3|idefics3 WIDTH HEIGHT RGB_FILE OUT_FILE [TILES_FILE]\n");
        return 2;
    }
    const std::string kind = argv[2];
    const int width = atoi(argv[3]), height = atoi(argv[4]);
    std::vector<uint8_t> rgb((size_t) width * height * 3);
    FILE * in = fopen(argv[5], "rb");
    if (!in || fread(rgb.data(), 1, rgb.size(), in) != rgb.size()) { fprintf(stderr, "cannot read %s\n", argv[5]); return 1; }
    fclose(in);

    clip_context_params params = {};
    params.use_gpu = false;
    params.flash_attn_type = CLIP_FLASH_ATTN_TYPE_DISABLED;
    params.image_min_tokens = -1;
    params.image_max_tokens = -1;
    params.warmup = false;
    clip_init_result res = clip_init(argv[1], params);
    if (!res.ctx_v) { fprintf(stderr, "clip_init failed\n"); return 1; }

    clip_image_u8 img;
    img.set_size({width, height}, false);
    img.cpy_buf(rgb);

    std::unique_ptr<mtmd_image_preprocessor> pre;
    if (kind == "gemma3") {
        pre = std::make_unique<mtmd_image_preprocessor_fixed_size>(res.ctx_v);
    } else if (kind == "idefics3") {
        pre = std::make_unique<mtmd_image_preprocessor_idefics3>(res.ctx_v);
    } else {
        fprintf(stderr, "unknown projector %s\n", kind.c_str());
        return 2;
    }
    mtmd_image_preproc_out out = pre->preprocess(img);
    std::vector<clip_image_f32 *> order;
    for (auto & e : out.entries) order.push_back(&e);
    if (out.has_overview()) order.push_back(&out.overview);  // idefics3: overview last

    if (argc == 8) {
        FILE * t = fopen(argv[7], "wb");
        if (!t) { fprintf(stderr, "cannot write %s\n", argv[7]); return 1; }
        for (clip_image_f32 * e : order) fwrite(e->get_ro_buf().data(), sizeof(float), e->get_ro_buf().size(), t);
        fclose(t);
    }

    FILE * f = fopen(argv[6], "wb");
    if (!f) { fprintf(stderr, "cannot write %s\n", argv[6]); return 1; }
    for (clip_image_f32 * e : order) {
        // clip_image_encode writes into a vector already sized [nTokens, nEmbdText].
        std::vector<float> embd((size_t) clip_n_output_tokens(res.ctx_v, e) * clip_n_mmproj_embd(res.ctx_v));
        if (!clip_image_encode(res.ctx_v, 1, e, embd)) { fprintf(stderr, "encode failed\n"); return 1; }
        fwrite(embd.data(), sizeof(float), embd.size(), f);
        fprintf(stderr, "image %dx%d -> %zu floats\n", e->nx(), e->ny(), embd.size());
    }
    fclose(f);
    clip_free(res.ctx_v);
    return 0;
}
