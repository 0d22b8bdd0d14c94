// clip_encode_time: how long llama.cpp's mtmd takes to turn one image into its embeddings, for Scripts/bench-vision.
//
// usage: clip_encode_time MMPROJ.gguf WIDTH HEIGHT RGB_FILE THREADS REPETITIONS
//   RGB_FILE holds WIDTH*HEIGHT*3 bytes (rows top to bottom, R G B). Prints one JSON line: the median time of
//   REPETITIONS runs after one warm-up run, each run being mtmd's Idefics3 preprocessing of the image and
//   clip_image_encode of every tile (what `lmsession bench --mmproj --image` times), with THREADS threads and
//   the defaults llama-mtmd-cli uses (flash attention auto, warm-up on).
//
// Built against libmtmd of llama.cpp b11312 by Scripts/bench-vision (make_expected.build_reference).
#include "clip.h"
#include "clip-impl.h"
#include "mtmd-image.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char ** argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: clip_encode_time MMPROJ WIDTH HEIGHT RGB_FILE THREADS REPETITIONS\n");
        return 2;
    }
    const int width = atoi(argv[2]), height = atoi(argv[3]), threads = atoi(argv[5]), reps = atoi(argv[6]);
    if (width <= 0 || height <= 0 || threads <= 0 || reps <= 0) { fprintf(stderr, "sizes, threads and repetitions must be positive\n"); return 2; }
    std::vector<uint8_t> rgb((size_t) width * height * 3);
    FILE * in = fopen(argv[4], "rb");
    if (!in || fread(rgb.data(), 1, rgb.size(), in) != rgb.size()) { fprintf(stderr, "cannot read %s\n", argv[4]); return 1; }
    fclose(in);

    clip_context_params params = {};
    params.use_gpu = false;
    params.flash_attn_type = CLIP_FLASH_ATTN_TYPE_AUTO;
    params.image_min_tokens = -1;
    params.image_max_tokens = -1;
    params.warmup = true;
    clip_init_result res = clip_init(argv[1], params);
    if (!res.ctx_v) { fprintf(stderr, "clip_init failed\n"); return 1; }

    clip_image_u8 img;
    img.set_size({width, height}, false);
    img.cpy_buf(rgb);
    mtmd_image_preprocessor_idefics3 pre(res.ctx_v);

    std::vector<double> times;
    size_t tiles = 0, floats = 0;
    for (int rep = 0; rep <= reps; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        mtmd_image_preproc_out out = pre.preprocess(img);
        std::vector<clip_image_f32 *> order;
        for (auto & e : out.entries) order.push_back(&e);
        if (out.has_overview()) order.push_back(&out.overview);
        floats = 0;
        for (clip_image_f32 * e : order) {
            std::vector<float> embd((size_t) clip_n_output_tokens(res.ctx_v, e) * clip_n_mmproj_embd(res.ctx_v));
            if (!clip_image_encode(res.ctx_v, threads, e, embd)) { fprintf(stderr, "encode failed\n"); return 1; }
            floats += embd.size();
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (rep > 0) times.push_back(ms);  // the first run warms caches and pages in the weights
        tiles = order.size();
    }
    std::sort(times.begin(), times.end());
    printf("{\"encode_ms\":%.1f,\"tiles\":%zu,\"tokens\":%zu,\"threads\":%d}\n", times[times.size() / 2], tiles,
           floats / clip_n_mmproj_embd(res.ctx_v), threads);
    clip_free(res.ctx_v);
    return 0;
}
