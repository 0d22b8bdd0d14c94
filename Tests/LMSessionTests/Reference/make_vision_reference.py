#!/usr/bin/env python3
"""make_vision_reference.py: llama.cpp's greedy answers for the tiny vision pairs (vision.json, vision-gemma3.json).

usage: make_vision_reference.py [--projector idefics3|gemma3] TEXT_GGUF [BIN_DIR]

TEXT_GGUF is the text model the Swift generator writes (TestSupport's TinyVisionModel):
    LMSESSION_WRITE_VISION_MODEL=/tmp/tiny-vision.gguf swift test -c release --filter 'VisionSessionTests'
    LMSESSION_WRITE_VISION_MODEL=/tmp/tiny-gemma.gguf swift test -c release --filter 'GemmaVisionSessionTests'
The mmproj is Tests/LMVisionTests/Fixtures/PROJECTOR.mmproj.gguf (default idefics3; written by Models/fetch with
that suite's seeded writer), the images are committed PNGs of Tests/LMImageTests/Fixtures. BIN_DIR is llama.cpp
b11312's bin/ with llama-mtmd-cli (default: Scripts/llama-cpp-build's cached build). For Gemma 3, llama.cpp decodes
an image's tokens with non-causal attention among themselves (mtmd_decode_use_non_causal).

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
OUTPUT = {"idefics3": "vision.json", "gemma3": "vision-gemma3.json"}
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


def mmproj_path(projector):
    return os.path.join(REPO, f"Tests/LMVisionTests/Fixtures/{projector}.mmproj.gguf")


def answer(bin_dir, text_gguf, mmproj, case):
    cmd = [os.path.join(bin_dir, "llama-mtmd-cli"), "-m", text_gguf, "--mmproj", mmproj, "-p", case["prompt"],
           "-n", str(STEPS), "--temp", "0", "-t", "2", "-c", "512", "--seed", "1"]
    for image in case["images"]:
        cmd += ["--image", os.path.join(IMAGES, image)]
    # llama.cpp's asynchronous logger sometimes loses its last lines at exit: the longest of a few runs is
    # kept (the others must be prefixes of it; a run that lost the marker line too is left out), and trailing
    # newlines, which the CLI also prints after an end-of-generation token, are left out (the suite strips them
    # from its answer too).
    answers = []
    for _ in range(4):
        out = subprocess.run(cmd, capture_output=True, check=True, env=dict(os.environ, MTMD_TEST_RESPONSE_MARKER=MARKER)).stdout
        head = (MARKER + "\n\n").encode()
        start = out.find(head)
        if start < 0:
            continue  # the logger lost the marker line too
        answers.append(out[start + len(head):].rstrip(b"\n"))
    if not answers:
        sys.exit(f"{case['name']}: no response marker in llama-mtmd-cli's output of 4 runs")
    longest = max(answers, key=len)
    if not all(longest.startswith(a) for a in answers) or not longest:
        sys.exit(f"{case['name']}: runs disagree or are empty: {answers!r}")
    return longest


def main():
    args = sys.argv[1:]
    projector = "idefics3"
    if args[:1] == ["--projector"] and len(args) >= 2:
        projector, args = args[1], args[2:]
    if projector not in OUTPUT or len(args) not in (1, 2):
        sys.exit(__doc__)
    text_gguf, mmproj = args[0], mmproj_path(projector)
    bin_dir = args[1] if len(args) == 2 else subprocess.run(
        [os.path.join(REPO, "Scripts/llama-cpp-build")], check=True, capture_output=True, text=True).stdout.strip()
    cases = []
    for case in CASES:
        text = answer(bin_dir, text_gguf, mmproj, case)
        cases.append(dict(case, steps=STEPS, answer_hex=text.hex()))
        print(f"{case['name']}: {text!r}")
    images = sorted({image for case in CASES for image in case["images"]})
    record = {
        "llama_cpp": "b11312 llama-mtmd-cli",
        "text_model_sha256": sha256(text_gguf),
        "mmproj_sha256": sha256(mmproj),
        "image_sha256": {image: sha256(os.path.join(IMAGES, image)) for image in images},
        "cases": cases,
    }
    with open(os.path.join(HERE, OUTPUT[projector]), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
