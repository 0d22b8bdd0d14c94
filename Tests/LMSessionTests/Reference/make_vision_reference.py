#!/usr/bin/env python3
"""make_vision_reference.py: llama.cpp's greedy answers for the tiny vision pair (vision.json).

usage: make_vision_reference.py TEXT_GGUF [BIN_DIR]

TEXT_GGUF is the text model the Swift generator writes (TestSupport's TinyVisionModel):
    LMSESSION_WRITE_VISION_MODEL=/tmp/tiny-vision.gguf swift test -c release --filter 'VisionSessionTests'
The mmproj is Tests/LMVisionTests/Fixtures/idefics3.mmproj.gguf (written by Models/fetch with that suite's seeded
writer), the images are committed PNGs of Tests/LMImageTests/Fixtures. BIN_DIR is llama.cpp b11312's bin/ with
llama-mtmd-cli (default: Scripts/llama-cpp-build's cached build).

For each case, llama-mtmd-cli -p PROMPT with one --image per image (the CLI puts one media marker per image
before the prompt's text and renders the user message with the model's chat template), greedy (--temp 0),
STEPS tokens at most. The answer's bytes are what the CLI prints after its response marker line
(MTMD_TEST_RESPONSE_MARKER) and a newline, without trailing newlines; control tokens print as their text, an
end-of-generation token stops it early and is not printed. The file records the SHA-256 of every input, so the Swift suite fails if one changes.
Only the Python standard library is used.
"""
import hashlib, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../../.."))
MMPROJ = os.path.join(REPO, "Tests/LMVisionTests/Fixtures/idefics3.mmproj.gguf")
IMAGES = os.path.join(REPO, "Tests/LMImageTests/Fixtures")
STEPS = 16
MARKER = "@@LMSESSION-RESPONSE@@"
CASES = [
    {"name": "one landscape image", "images": ["rgb8-33x21.png"], "prompt": "Describe this image."},
    {"name": "one image with alpha", "images": ["rgba8-17x13.png"], "prompt": "What is in the picture?"},
    {"name": "two images", "images": ["rgb8-33x21.png", "rgb16-17x13.png"], "prompt": "Compare these two images."},
    # The first case's prompt with another image: llama.cpp's answer changes with the pixels.
    {"name": "another landscape image", "images": ["grey8-33x21.png"], "prompt": "Describe this image."},
]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def answer(bin_dir, text_gguf, case):
    cmd = [os.path.join(bin_dir, "llama-mtmd-cli"), "-m", text_gguf, "--mmproj", MMPROJ, "-p", case["prompt"],
           "-n", str(STEPS), "--temp", "0", "-t", "2", "-c", "512", "--seed", "1"]
    for image in case["images"]:
        cmd += ["--image", os.path.join(IMAGES, image)]
    # llama.cpp's asynchronous logger sometimes loses its last lines at exit: the longest of a few runs is
    # kept (the others must be prefixes of it), and trailing newlines, which the CLI also prints after an
    # end-of-generation token, are left out (the suite strips them from its answer too).
    answers = []
    for _ in range(4):
        out = subprocess.run(cmd, capture_output=True, check=True, env=dict(os.environ, MTMD_TEST_RESPONSE_MARKER=MARKER)).stdout
        head = (MARKER + "\n\n").encode()
        start = out.find(head)
        if start < 0:
            sys.exit(f"{case['name']}: no response marker in llama-mtmd-cli's output {out!r}")
        answers.append(out[start + len(head):].rstrip(b"\n"))
    longest = max(answers, key=len)
    if not all(longest.startswith(a) for a in answers) or not longest:
        sys.exit(f"{case['name']}: runs disagree or are empty: {answers!r}")
    return longest


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    text_gguf = sys.argv[1]
    bin_dir = sys.argv[2] if len(sys.argv) == 3 else subprocess.run(
        [os.path.join(REPO, "Scripts/llama-cpp-build")], check=True, capture_output=True, text=True).stdout.strip()
    cases = []
    for case in CASES:
        text = answer(bin_dir, text_gguf, case)
        cases.append(dict(case, steps=STEPS, answer_hex=text.hex()))
        print(f"{case['name']}: {text!r}")
    images = sorted({image for case in CASES for image in case["images"]})
    record = {
        "llama_cpp": "b11312 llama-mtmd-cli",
        "text_model_sha256": sha256(text_gguf),
        "mmproj_sha256": sha256(MMPROJ),
        "image_sha256": {image: sha256(os.path.join(IMAGES, image)) for image in images},
        "cases": cases,
    }
    with open(os.path.join(HERE, "vision.json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
