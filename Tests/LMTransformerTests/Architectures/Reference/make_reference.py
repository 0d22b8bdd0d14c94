#!/usr/bin/env python3
"""make_reference.py: llama.cpp's figures for the generated architecture models (architectures.json).

usage: make_reference.py MODELS_DIR [BIN_DIR]

MODELS_DIR holds the files the Swift generator writes (NAME.gguf and NAME.prompt.json, the greedy prompt's ids):
    LMSESSION_WRITE_TINY_MODELS=MODELS_DIR swift test --filter 'ArchitectureReferenceTests/generatedFileMatchesRecordedDigest'
BIN_DIR is llama.cpp b11312's bin/ (default: the bin/ folder of Scripts/llama-cpp-build's cached build), with
llama-perplexity and llama-server. For each file it records the SHA-256, the perplexity of
Tests/Reference/ppl_text_1.txt (llama-perplexity -c 128 -b 128 --chunks 4) and 24 greedy tokens
after the prompt "The quick brown fox jumps over the lazy dog" (llama-server /completion, top-k 1,
EOS ignored), with the smallest logit gap between the best and second-best token on the way.
Only the Python standard library is used.
"""
import hashlib, json, os, re, socket, subprocess, sys, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../../../.."))
TEXT = os.path.join(REPO, "Tests/Reference/ppl_text_1.txt")
PROMPT = "The quick brown fox jumps over the lazy dog"
STEPS = 24
BOS = 256  # TinyModel.bos


def perplexity(bin_dir, model):
    # llama.cpp's asynchronous logger sometimes loses its last lines at exit; the figures are
    # deterministic, so a run that lost them is repeated.
    for _ in range(10):
        out = subprocess.run([os.path.join(bin_dir, "llama-perplexity"), "-m", model, "-f", TEXT, "-c", "128", "-b", "128",
                              "--chunks", "4", "-t", "2", "--no-warmup"], capture_output=True, text=True, check=True)
        # The running values go to stdout, the final estimate to the log on stderr.
        final = re.search(r"Final estimate: PPL = ([0-9.]+) \+/- ([0-9.]+)", out.stderr)
        chunks = [float(x) for x in re.findall(r"\[\d+\]([0-9.]+),", out.stdout)]
        if final and len(chunks) == 4:
            return float(final.group(1)), float(final.group(2)), chunks
    sys.exit(f"{model}: no perplexity in the output:\n{out.stdout[-1000:]}\n{out.stderr[-1000:]}")


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
    gaps = []
    for step in reply.get("completion_probabilities", []):
        top = step.get("top_logprobs", [])
        if len(top) >= 2:
            gaps.append(top[0]["logprob"] - top[1]["logprob"])
    if len(tokens) != STEPS:
        sys.exit(f"{model}: {len(tokens)} greedy tokens")
    return tokens, min(gaps) if gaps else None


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    models = sys.argv[1]
    bin_dir = sys.argv[2] if len(sys.argv) == 3 else subprocess.run(
        [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "Scripts", "llama-cpp-build")],
        capture_output=True, text=True, check=True).stdout.strip()
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
        tokens, gap = greedy(bin_dir, path, prompt)
        print(f"{name}: PPL {ppl} ± {stderr}, greedy {bytes(t for t in tokens if t < 256)!r}, min gap {gap}", file=sys.stderr)
        cases.append({"name": name, "sha256": digest, "ppl": ppl, "ppl_stderr": stderr, "per_chunk": chunks,
                      "prompt_ids": prompt, "greedy_ids": tokens, "greedy_min_top2_gap": gap})
    out = {"llama_cpp": "b11312 (0c1e570), llama-perplexity -c 128 -b 128 --chunks 4; llama-server /completion top-k 1",
           "text": "Tests/Reference/ppl_text_1.txt", "greedy_prompt": PROMPT, "cases": cases}
    with open(os.path.join(HERE, "architectures.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
