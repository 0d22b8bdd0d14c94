#!/usr/bin/env python3
"""make_reference.py: llama.cpp's figures for the generated architecture models (architectures.json).

usage: make_reference.py MODELS_DIR [BIN_DIR]

MODELS_DIR holds the files the Swift generator writes (NAME.gguf and NAME.prompt.json, the greedy prompt's ids):
    LMSESSION_WRITE_TINY_MODELS=MODELS_DIR swift test --filter 'ArchitectureReferenceTests/generatedFileMatchesRecordedDigest'
BIN_DIR is llama.cpp b11312's bin/ (default: the bin/ folder of Scripts/llama-cpp-build's cached build), with
llama-perplexity and llama-server; the build folder above it holds the static libraries that
greedy_logits.c (beside this script) is compiled against, with a C compiler (`cc`, `c++`).
For each file it records:
- the SHA-256;
- the perplexity of Tests/Reference/ppl_text_1.txt (llama-perplexity -c 128 -b 128 --chunks 4),
  and again with flash attention off (`-fa off`) and with micro-batches of 32 (`-ub 32`: its
  decode-style attention, Q and the value sums in f16): `ppl_spread`, the largest relative
  difference between these, is how far llama.cpp's own exact paths disagree on this model;
- 24 greedy tokens after the prompt "The quick brown fox jumps over the lazy dog" (llama-server
  /completion, top-k 1, EOS ignored), and, per step, llama.cpp's second-best token and the logit gap
  between the two (greedy_logits, which decodes as llama-server does and must choose the same
  tokens), with `greedy_gap_spread`, the largest difference in that gap when the same tokens are
  decoded again with flash attention off.
Only the Python standard library is used.
"""
import hashlib, json, os, re, socket, subprocess, sys, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../../../.."))
TEXT = os.path.join(REPO, "Tests/Reference/ppl_text_1.txt")
PROMPT = "The quick brown fox jumps over the lazy dog"
STEPS = 24
BOS = 256  # TinyModel.bos


def perplexity(bin_dir, model, extra=()):
    # llama.cpp's asynchronous logger sometimes loses its last lines at exit; the figures are
    # deterministic, so a run that lost them is repeated.
    for _ in range(10):
        out = subprocess.run([os.path.join(bin_dir, "llama-perplexity"), "-m", model, "-f", TEXT, "-c", "128", "-b", "128",
                              "--chunks", "4", "-t", "2", "--no-warmup", *extra], capture_output=True, text=True, check=True)
        # The running values go to stdout, the final estimate to the log on stderr.
        final = re.search(r"Final estimate: PPL = ([0-9.]+) \+/- ([0-9.]+)", out.stderr)
        chunks = [float(x) for x in re.findall(r"\[\d+\]([0-9.]+),", out.stdout)]
        if extra and len(chunks) == 4:
            return chunks[-1]  # the variants need only the value, which the running figures end with
        if final and len(chunks) == 4:
            return float(final.group(1)), float(final.group(2)), chunks
    sys.exit(f"{model}: no perplexity in the output:\n{out.stdout[-1000:]}\n{out.stderr[-1000:]}")


def compile_greedy_logits(bin_dir, out_dir):
    """Builds greedy_logits.c against the static libraries of the build that holds bin_dir."""
    build = os.path.dirname(os.path.abspath(bin_dir))
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        source = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", f.read(), re.M).group(1)
    obj, exe = os.path.join(out_dir, "greedy_logits.o"), os.path.join(out_dir, "greedy_logits")
    subprocess.run(["cc", "-O2", "-c", os.path.join(HERE, "greedy_logits.c"), "-I", os.path.join(source, "include"),
                    "-I", os.path.join(source, "ggml/include"), "-o", obj], check=True)
    libs = ["src/libllama.a", "ggml/src/libggml.a", "ggml/src/libggml-cpu.a", "ggml/src/libggml-base.a"]
    subprocess.run(["c++", obj, "-o", exe, *[os.path.join(build, l) for l in libs], "-fopenmp", "-lpthread", "-lm", "-ldl"],
                   check=True)
    return exe


def greedy_logits(exe, model, flash_attn, prompt_ids, forced=None):
    """Per step, llama.cpp's logits (greedy_logits.c): greedy, or fed `forced`."""
    args = [exe, model, "128", "2", flash_attn, str(STEPS), ",".join(map(str, prompt_ids))]
    if forced is not None:
        args.append(",".join(map(str, forced)))
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def top2(logits):
    first = max(range(len(logits)), key=lambda i: (logits[i], -i))
    second = max((i for i in range(len(logits)) if i != first), key=lambda i: (logits[i], -i))
    return first, second


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def greedy(bin_dir, model, prompt_ids):
    port = free_port()
    server = subprocess.Popen([os.path.join(bin_dir, "llama-server"), "-m", model, "-c", "128", "-np", "1", "-t", "2",
                               "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                with urllib.request.urlopen(base + "/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except Exception:
                time.sleep(0.1)
        body = {"prompt": prompt_ids, "n_predict": STEPS, "temperature": 0, "top_k": 1, "samplers": ["top_k"],
                "ignore_eos": True, "cache_prompt": False, "return_tokens": True, "n_probs": 2}
        request = urllib.request.Request(base + "/completion", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as r:
            reply = json.load(r)
    finally:
        server.terminate()
        server.wait()
    tokens = reply["tokens"]
    if len(tokens) != STEPS:
        sys.exit(f"{model}: {len(tokens)} greedy tokens")
    return tokens


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    models = sys.argv[1]
    bin_dir = sys.argv[2] if len(sys.argv) == 3 else subprocess.run(
        [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "Scripts", "llama-cpp-build")],
        capture_output=True, text=True, check=True).stdout.strip()
    exe = compile_greedy_logits(bin_dir, models)
    cases = []
    for name in sorted(f[:-5] for f in os.listdir(models) if f.endswith(".gguf")):
        path = os.path.join(models, name + ".gguf")
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        ppl, stderr, chunks = perplexity(bin_dir, path)
        with open(os.path.join(models, name + ".prompt.json")) as f:
            prompt = json.load(f)  # BOS (when the model adds it) then the prompt's bytes, written by the Swift side
        if prompt != ([BOS] if prompt[:1] == [BOS] else []) + list(PROMPT.encode()):
            sys.exit(f"{name}: unexpected prompt ids {prompt}")
        variants = [perplexity(bin_dir, path, extra) for extra in (["-fa", "off"], ["-ub", "32"])]
        spread = max(abs(v - ppl) / ppl for v in variants)
        tokens = greedy(bin_dir, path, prompt)
        # llama-server reports probabilities only for tokens that end a UTF-8 character; the
        # library's logits give every step, decoded as the server decodes.
        steps = greedy_logits(exe, path, "auto", prompt)
        if [top2(l)[0] for l in steps] != tokens:
            sys.exit(f"{name}: greedy_logits chose other tokens than llama-server")
        second = [top2(l)[1] for l in steps]
        gaps = [l[t] - l[u] for l, t, u in zip(steps, tokens, second)]
        again = greedy_logits(exe, path, "off", prompt, tokens)
        gap_spread = max(abs(g - (l[t] - l[u])) for g, l, t, u in zip(gaps, again, tokens, second))
        print(f"{name}: PPL {ppl} ± {stderr} (spread {spread * 100:.4f}%), greedy {bytes(t for t in tokens if t < 256)!r}, "
              f"min gap {min(gaps):.5f}, gap spread {gap_spread:.5f}", file=sys.stderr)
        cases.append({"name": name, "sha256": digest, "ppl": ppl, "ppl_stderr": stderr, "per_chunk": chunks,
                      "ppl_fa_off": variants[0], "ppl_ub32": variants[1], "ppl_spread": round(spread, 8),
                      "prompt_ids": prompt, "greedy_ids": tokens, "greedy_second_ids": second,
                      "greedy_gaps": [round(g, 6) for g in gaps],
                      "greedy_gap_spread": round(gap_spread, 6)})
    out = {"llama_cpp": "b11312 (0c1e570), llama-perplexity -c 128 -b 128 --chunks 4 (also -fa off, -ub 32); "
                        "llama-server /completion top-k 1; greedy_logits.c (flash attention auto, and off)",
           "text": "Tests/Reference/ppl_text_1.txt", "greedy_prompt": PROMPT, "cases": cases}
    with open(os.path.join(HERE, "architectures.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
