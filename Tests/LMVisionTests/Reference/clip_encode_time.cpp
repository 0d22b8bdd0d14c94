// clip_encode_time: how long llama.cpp's mtmd takes to turn one image into its embeddings, for Scripts/bench-vision.
//
// usage: clip_encode_time MMPROJ.gguf WIDTH HEIGHT RGB_FILE THREADS REPETITIONS
//   RGB_FILE holds WIDTH*HEIGHT*3 bytes (rows top to bottom, R G B). Prints one JSON line: the median time of
//   REPETITIONS runs after one warm-up run, each run being mtmd's Idefics3 preprocessing of the image and
//   clip_image_encode of every tile (what `lmsession bench --mmproj --image` times), with THREADS threads and
//   the defaults llama-mtmd-cli uses (flash attention auto, warm-up on).
//
// Built against libmtmd of llama.cpp b11312 by Scripts/bench-vision (make_expected.build_reference).
#include "clip_harness.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

int main(int argc, char ** argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: clip_encode_time MMPROJ WIDTH HEIGHT RGB_FILE THREADS REPETITIONS\n");
        return 2;
    }
    const int width = atoi(argv[2]), height = atoi(argv[3]), threads = atoi(argv[5]), reps = atoi(argv[6]);
    if (width <= 0 || height <= 0 || threads <= 0 || reps <= 0) { fprintf(stderr, "sizes, threads and repetitions must be positive\n"); return 2; }
    clip_image_u8 img;
    if (!read_rgb(argv[4], width, height, img)) return 1;
    clip_ctx * ctx = load_mmproj(argv[1], CLIP_FLASH_ATTN_TYPE_AUTO, true);
    if (!ctx) return 1;
    mtmd_image_preprocessor_idefics3 pre(ctx);

    std::vector<double> times;
    size_t tiles = 0, floats = 0;
    for (int rep = 0; rep <= reps; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        mtmd_image_preproc_out out = pre.preprocess(img);
        std::vector<clip_image_f32 *> order = encoding_order(out);
        floats = 0;
        std::vector<float> embd;
        for (clip_image_f32 * e : order) {
            if (!encode(ctx, threads, e, embd)) return 1;
            floats += embd.size();
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (rep > 0) times.push_back(ms);  // the first run warms caches and pages in the weights
        tiles = order.size();
    }
    std::sort(times.begin(), times.end());
    printf("{\"encode_ms\":%.1f,\"tiles\":%zu,\"tokens\":%zu,\"threads\":%d}\n", times[times.size() / 2], tiles,
           floats / clip_n_mmproj_embd(ctx), threads);
    clip_free(ctx);
    return 0;
}
