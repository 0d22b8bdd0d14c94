#!/usr/bin/env python3
"""Writes Tests/Reference/vocab-cases.jsonl: llama.cpp's token ids for the texts below, on the
vocabulary-only GGUFs of llama.cpp's own tree (models/ggml-vocab-*.gguf), from llama.cpp's libllama
(release b11312, the build Scripts/llama-cpp-build caches under ~/.cache/lmsession) through `llama_tokenize`, the call
its `llama-tokenize` tool makes. A small C++ program (below) loads each vocabulary once; running
llama-tokenize once per text gave the same ids on the first 754 lines and took hours on a busy
machine.

The texts are this project's, written to reach what the .inp/.out cases of llama.cpp's suite do
not: the `default` pre-tokenizer (gpt-neox and aquila have no tokenizer.ggml.pre), Unicode category
edges, combining marks, Unicode spaces, special-token text, lstrip/rstrip, and the model's own
special tokens (BOS, EOS, [CLS]/[SEP]).

Each text is tokenized twice:
  "mode": "plain"   -> add_special false, parse_special false   (llama-tokenize --no-bos --no-parse-special)
  "mode": "special" -> add_special = the model's add_bos, parse_special true   (llama-tokenize's defaults)

usage: Tests/Reference/make_vocab_cases.py LLAMA_ANCHOR_BIN_DIR LLAMA_CPP_TREE > Tests/Reference/vocab-cases.jsonl
(LLAMA_ANCHOR_BIN_DIR holds libllama.so; LLAMA_CPP_TREE is what Scripts/llama-cpp-source prints.)
"""
import json, os, subprocess, sys, tempfile

VOCABS = ["aquila", "bert-bge", "command-r", "deepseek-coder", "deepseek-llm", "falcon", "gemma-4", "gpt-2",
          "gpt-neox", "llama-bpe", "llama-spm", "mpt", "phi-3", "qwen2", "qwen35", "refact", "starcoder"]

TEXTS = [
    "Hello, World! It's 2024, the year of 12345678 tokens.",
    "DON'T 'LL 'Re they'VE we'D it'S",
    "    indented\n\tcode();\r\n\r\n  x  ",
    "naïve café résumé Ångström ﬁne",
    "Straße ΑΒΓ Ωμέγα İstanbul ǅemal",
    "中文字符和日本語のテキスト，한국어 텍스트。",
    "e\u0301\u0302 a\u20dd क्षत्रिय ผู้ใหญ่",
    "x\u00a0y\u3000z\u2003w\u200bv",
    "😀👍🏽 👨‍👩‍👧 🇺🇸!",
    "$100+200=<300> ^~| `tick` @home #tag 50% a&b",
    "½ ² ³ ⅔ Ⅻ ٣٤٥ ๑๒๓",
    "<|endoftext|> <s> </s>  [CLS] [MASK] <mask>\n<|im_start|>user\nhi<|im_end|>",
    "   leading and trailing   ",
    "a\n\n\nb\n \n c\n",
    "Ａｂｃ１２３！？",
    "",
    "\ufffd a\u0000b\u0007c",
    "pneumonoultramicroscopicsilicovolcanoconiosis antidisestablishmentarianism",
    "https://example.com/path?q=1&r=2#frag user@example.org",
    "1,234,567.89 3.14159 -42 0x1F 1e-10 ١٢٣",
    "Tab\tseparated\tvalues\nand CRLF\r\nlines\r",
    "ﬀ ﬃ ℌ ℍ \u212a \u212b \u2126",
    "Ελληνικά Русский текст עברית العربية",
    "Mixed  \u2028line\u2029para \u0085nel",
    "'s 's' ''  ' x'",
    "ꞏ ꟑ 𐐀 ᏸ ꭰ",
    "</s>   after, <unk> x <|assistant|>  y",
    "?!.,;: ... --- ___ ((( ))) [[ ]] {{ }}",
]


HARNESS = r"""
#include "llama.h"
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
static void dump(const llama_vocab * v, const std::string & s, bool add_special, bool parse_special) {
    std::vector<llama_token> t(s.size() + 16);
    int n = llama_tokenize(v, s.data(), (int) s.size(), t.data(), (int) t.size(), add_special, parse_special);
    if (n < 0) { t.resize(-n); n = llama_tokenize(v, s.data(), (int) s.size(), t.data(), (int) t.size(), add_special, parse_special); }
    printf("[");
    for (int i = 0; i < n; i++) printf(i ? ", %d" : "%d", t[i]);
    printf("]\n");
}
int main(int argc, char ** argv) {  // vocabulary, then one file per text
    llama_log_set([](ggml_log_level, const char *, void *) {}, nullptr);
    llama_backend_init();
    llama_model_params p = llama_model_default_params();
    p.vocab_only = true;
    llama_model * m = llama_model_load_from_file(argv[1], p);
    if (!m) return 1;
    const llama_vocab * v = llama_model_get_vocab(m);
    for (int i = 2; i < argc; i++) {
        std::ifstream f(argv[i], std::ios::binary);
        std::stringstream text;
        text << f.rdbuf();
        dump(v, text.str(), false, false);
        dump(v, text.str(), llama_vocab_get_add_bos(v), true);
    }
    llama_model_free(m);
    return 0;
}
"""


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    lib, tree = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        source, binary = os.path.join(tmp, "tok.cpp"), os.path.join(tmp, "tok")
        with open(source, "w") as f:
            f.write(HARNESS)
        subprocess.run(["c++", "-O1", "-std=c++17", source, "-I", os.path.join(tree, "include"),
                        "-I", os.path.join(tree, "ggml", "include"), "-L", lib, "-lllama", "-lggml", "-lggml-base",
                        f"-Wl,-rpath,{lib}", "-o", binary], check=True)
        paths = []
        for i, text in enumerate(TEXTS):
            paths.append(os.path.join(tmp, f"{i}.txt"))
            with open(paths[-1], "wb") as f:
                f.write(text.encode("utf-8"))
        for name in VOCABS:
            vocab = os.path.join(tree, "models", f"ggml-vocab-{name}.gguf")
            out = subprocess.run([binary, vocab] + paths, capture_output=True, text=True, check=True).stdout.splitlines()
            assert len(out) == 2 * len(TEXTS), f"{name}: {len(out)} lines of output"
            for i, text in enumerate(TEXTS):
                for j, mode in enumerate(("plain", "special")):
                    ids = json.loads(out[2 * i + j])
                    print(json.dumps({"vocab": name, "mode": mode, "text": text, "ids": ids}, ensure_ascii=False))


if __name__ == "__main__":
    main()
