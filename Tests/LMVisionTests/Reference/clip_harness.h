// clip_harness.h: what the reference harnesses (clip_embed.cpp, clip_encode_time.cpp) share: reading the raw RGB
// image, loading the mmproj on the CPU, and the order mtmd encodes a preprocessed image's tiles in.
#pragma once

#include "clip.h"
#include "clip-impl.h"
#include "mtmd-image.h"

#include <cstdint>
#include <cstdio>
#include <vector>

// The WIDTH*HEIGHT*3 bytes of `path` (rows top to bottom, R G B) as a clip image; false when unreadable.
static bool read_rgb(const char * path, int width, int height, clip_image_u8 & img) {
    std::vector<uint8_t> rgb((size_t) width * height * 3);
    FILE * in = fopen(path, "rb");
    bool ok = in && fread(rgb.data(), 1, rgb.size(), in) == rgb.size();
    if (in) fclose(in);
    if (!ok) { fprintf(stderr, "cannot read %s\n", path); return false; }
    img.set_size({width, height}, false);
    img.cpy_buf(rgb);
    return true;
}

// The mmproj at `path` on the CPU, with no token limits; nullptr (after a message) when it does not load.
static clip_ctx * load_mmproj(const char * path, clip_flash_attn_type flash_attn, bool warmup) {
    clip_context_params params = {};
    params.use_gpu = false;
    params.flash_attn_type = flash_attn;
    params.image_min_tokens = -1;
    params.image_max_tokens = -1;
    params.warmup = warmup;
    clip_init_result res = clip_init(path, params);
    if (!res.ctx_v) fprintf(stderr, "clip_init failed\n");
    return res.ctx_v;
}

// The images of `out` in the order mtmd encodes them: the tiles, then the overview (Idefics3) when there is one.
static std::vector<clip_image_f32 *> encoding_order(mtmd_image_preproc_out & out) {
    std::vector<clip_image_f32 *> order;
    for (auto & e : out.entries) order.push_back(&e);
    if (out.has_overview()) order.push_back(&out.overview);
    return order;
}

// The embeddings of one preprocessed image, [nTokens, nEmbdText]; false when encoding fails.
static bool encode(clip_ctx * ctx, int threads, clip_image_f32 * image, std::vector<float> & embd) {
    // clip_image_encode writes into a vector already sized [nTokens, nEmbdText].
    embd.assign((size_t) clip_n_output_tokens(ctx, image) * clip_n_mmproj_embd(ctx), 0.0f);
    if (clip_image_encode(ctx, threads, image, embd)) return true;
    fprintf(stderr, "encode failed\n");
    return false;
}
