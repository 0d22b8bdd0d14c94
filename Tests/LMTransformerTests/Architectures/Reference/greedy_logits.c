// greedy_logits: llama.cpp's logits over a greedy continuation, decoded as llama-server decodes
// (the prompt in one batch, then one token per step). Prints one JSON array per step: the logits.
//
// usage: greedy_logits MODEL N_CTX THREADS FLASH_ATTN STEPS PROMPT_IDS [FORCED_IDS]
//   FLASH_ATTN: auto | on | off (llama-server's default is auto)
//   PROMPT_IDS, FORCED_IDS: comma-separated token ids. Without FORCED_IDS each step feeds the
//   argmax (greedy); with them, step i feeds FORCED_IDS[i] (teacher forcing).
#include "llama.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void quiet(enum ggml_log_level level, const char * text, void * data) { (void) level; (void) text; (void) data; }

static int parse_ids(const char * s, llama_token * out, int max) {
    int n = 0;
    while (*s && n < max) {
        char * end;
        out[n++] = (llama_token) strtol(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *s) return -1;
    }
    return n;
}

int main(int argc, char ** argv) {
    if (argc < 7 || argc > 8) {
        fprintf(stderr, "usage: greedy_logits MODEL N_CTX THREADS FLASH_ATTN STEPS PROMPT_IDS [FORCED_IDS]\n");
        return 2;
    }
    llama_log_set(quiet, NULL);
    llama_backend_init();
    struct llama_model * model = llama_model_load_from_file(argv[1], llama_model_default_params());
    if (!model) { fprintf(stderr, "cannot load %s\n", argv[1]); return 1; }
    struct llama_context_params cp = llama_context_default_params();
    cp.n_ctx = (uint32_t) atoi(argv[2]);
    cp.n_batch = cp.n_ctx;
    cp.n_threads = cp.n_threads_batch = atoi(argv[3]);
    cp.flash_attn_type = !strcmp(argv[4], "on") ? LLAMA_FLASH_ATTN_TYPE_ENABLED
                       : !strcmp(argv[4], "off") ? LLAMA_FLASH_ATTN_TYPE_DISABLED : LLAMA_FLASH_ATTN_TYPE_AUTO;
    struct llama_context * ctx = llama_init_from_model(model, cp);
    if (!ctx) { fprintf(stderr, "cannot create a context\n"); return 1; }
    const int steps = atoi(argv[5]);
    llama_token prompt[4096], forced[4096];
    const int n_prompt = parse_ids(argv[6], prompt, 4096);
    const int n_forced = argc == 8 ? parse_ids(argv[7], forced, 4096) : 0;
    if (n_prompt <= 0 || n_forced < 0 || (argc == 8 && n_forced < steps)) { fprintf(stderr, "bad token ids\n"); return 2; }
    const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
    struct llama_batch batch = llama_batch_get_one(prompt, n_prompt);
    llama_token next[1];
    for (int s = 0; s < steps; s++) {
        if (llama_decode(ctx, batch) != 0) { fprintf(stderr, "decode failed at step %d\n", s); return 1; }
        const float * logits = llama_get_logits_ith(ctx, -1);
        int best = 0;
        printf("[");
        for (int i = 0; i < n_vocab; i++) {
            printf(i ? ", %.9g" : "%.9g", logits[i]);
            if (logits[i] > logits[best]) best = i;
        }
        printf("]\n");
        next[0] = argc == 8 ? forced[s] : best;
        batch = llama_batch_get_one(next, 1);
    }
    llama_free(ctx);
    llama_model_free(model);
    return 0;
}
