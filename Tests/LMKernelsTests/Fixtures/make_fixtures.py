#!/usr/bin/env python3
"""Writes the tensor-format fixtures that FormatTests compare LMSession's Swift code against.

The reference is an independent implementation: the PyPI `gguf` package (`gguf.quants`, the
numpy code llama.cpp's conversion scripts use) for dequantization of every type it supports and
for Q8_0 / BF16 quantization, and numpy's own float16 conversion for F16. gguf.quants has no
Q8_1 or Q8_K quantizer, so those two are ported here in numpy from ggml's
`quantize_row_q8_1_ref` / `quantize_row_q8_K_ref` (labelled as such in manifest.json).

Run from anywhere (needs `pip install gguf numpy`); output is deterministic for a given seed:

    python3 Tests/LMKernelsTests/Fixtures/make_fixtures.py

Files (all little-endian, no headers; counts are in manifest.json):
    dequantize/<TYPE>.blocks.bin   raw GGUF blocks
    dequantize/<TYPE>.floats.bin   float32 output of gguf.quants.dequantize
    quantize/<TYPE>.input.bin      float32 input
    quantize/<TYPE>.output.bin     the encoded bytes
    model_rows.json                for a few tensors of the real models (when Models/ has them):
                                   the first 16 dequantized values and the float64 sum of rows
"""

import json
import pathlib

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf.constants import GGML_QUANT_SIZES
import gguf.quants as quants

SEED = 20250601
HERE = pathlib.Path(__file__).resolve().parent
rng = np.random.default_rng(SEED)

# Byte offsets of the f16 scale fields in each block (as ggml's block_* structs): these are set to
# sane finite values so every dequantized weight is finite; all other bytes are random.
SCALE_FIELDS = {
    T.Q4_0: [0], T.Q4_1: [0, 2], T.Q5_0: [0], T.Q5_1: [0, 2], T.Q8_0: [0],
    T.Q4_K: [0, 2], T.Q5_K: [0, 2], T.Q6_K: [208],
}
BLOCK_COUNTS = {T.Q4_0: 256, T.Q4_1: 256, T.Q5_0: 256, T.Q5_1: 256, T.Q8_0: 256,
                T.Q4_K: 96, T.Q5_K: 96, T.Q6_K: 96, T.F32: 2048, T.F16: 4096, T.BF16: 4096}


def sane_halves(n: int) -> np.ndarray:
    """Finite f16 scales: mostly normal magnitudes 1e-4..2 of either sign, some zeros and
    subnormals to exercise the half converter inside the block math."""
    mags = (10.0 ** rng.uniform(-4, 0.3, n)).astype(np.float32)
    signs = np.where(rng.random(n) < 0.5, -1.0, 1.0).astype(np.float32)
    h = (mags * signs).astype(np.float16).view(np.uint16)
    kind = rng.random(n)
    h = np.where(kind < 0.03, np.uint16(0), h)
    subnormal = (rng.integers(1, 0x400, n) | (rng.integers(0, 2, n) << 15)).astype(np.uint16)
    h = np.where((kind >= 0.03) & (kind < 0.06), subnormal, h)
    return h.astype(np.uint16)


def random_blocks(qtype: T, n: int) -> np.ndarray:
    _, type_size = GGML_QUANT_SIZES[qtype]
    blocks = rng.integers(0, 256, (n, type_size), dtype=np.uint8)
    for off in SCALE_FIELDS.get(qtype, []):
        blocks[:, off:off + 2] = sane_halves(n).view(np.uint8).reshape(n, 2)
    return blocks  # F32/F16/BF16: random bit patterns, so NaN, inf and subnormals are covered


def write(path: pathlib.Path, array: np.ndarray) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = np.ascontiguousarray(array).tobytes()
    path.write_bytes(data)
    return len(data)


def np_roundf(x: np.ndarray) -> np.ndarray:
    """C roundf: halves away from zero."""
    return np.sign(x) * np.floor(np.abs(x) + np.float32(0.5))


def quantize_q8_1(x: np.ndarray) -> np.ndarray:
    """numpy port of ggml's quantize_row_q8_1_ref; x: [n, 32] float32 -> [n, 36] bytes."""
    amax = np.abs(x).max(axis=1, keepdims=True)
    d = (amax / np.float32(127)).astype(np.float32)
    with np.errstate(divide="ignore"):
        inv = np.where(d == 0, np.float32(0), np.float32(1) / d).astype(np.float32)
    q = np_roundf((x * inv).astype(np.float32)).astype(np.int8)
    s = (q.astype(np.int32).sum(axis=1, keepdims=True).astype(np.float32) * d).astype(np.float32)
    return np.concatenate([d.astype(np.float16).view(np.uint8), s.astype(np.float16).view(np.uint8),
                           q.view(np.uint8)], axis=1)


def quantize_q8_k(x: np.ndarray) -> np.ndarray:
    """numpy port of ggml's quantize_row_q8_K_ref; x: [n, 256] float32 -> [n, 292] bytes.
    An all-zero block is written with zero bsums (ggml leaves them unwritten)."""
    out = []
    for row in x:
        imax = int(np.argmax(np.abs(row)))         # first index of the largest magnitude
        vmax = row[imax]
        if np.abs(vmax) == 0:
            out.append(np.zeros(292, dtype=np.uint8))
            continue
        iscale = np.float32(-127) / vmax
        q = np.minimum(127, np.rint((iscale * row).astype(np.float32))).astype(np.int8)
        bsums = q.astype(np.int32).reshape(16, 16).sum(axis=1).astype("<i2")
        d = np.array([np.float32(1) / iscale], dtype="<f4")
        out.append(np.concatenate([d.view(np.uint8), q.view(np.uint8), bsums.view(np.uint8)]))
    return np.stack(out)


def activation_blocks(n: int, size: int) -> np.ndarray:
    """Random activations with a different magnitude per block, plus edge blocks: all zero, one
    nonzero, integers and exact halves at scale 1 (so rounding ties are hit), a negative extreme."""
    scales = (10.0 ** rng.uniform(-3, 2, (n, 1))).astype(np.float32)
    x = (rng.standard_normal((n, size)).astype(np.float32) * scales).astype(np.float32)
    x[0] = 0
    x[1] = 0
    x[1, size // 3] = np.float32(-0.75)
    ties = np.arange(size, dtype=np.float32) % 16 - np.float32(7.5)
    x[2] = ties
    x[2, 0] = 127
    x[3] = ties
    x[3, 5] = -127                              # Q8_K: iscale = 1, so ties stay ties
    x[4, 7] = -np.abs(x[4]).max() * 2
    return x


MODEL_TENSORS = {
    "SmolLM2-135M-Instruct.Q4_1.gguf": {
        "token_embd.weight": [0, 1000, 49151],      # Q8_0
        "blk.0.ffn_down.weight": [0, 575],          # Q4_1
        "blk.0.attn_norm.weight": [0],              # F32
    },
    "gemma-3-270m-q4_k_m.gguf": {
        "token_embd.weight": [2, 262143],           # Q8_0
        "blk.0.attn_k.weight": [0, 255],            # Q5_0
        "blk.0.attn_output.weight": [0, 639],       # Q4_K
        "blk.0.ffn_down.weight": [0, 639],          # Q6_K
    },
}


def write_model_rows() -> int:
    """Reference rows of real model tensors, dequantized by gguf.quants, when the models exist."""
    models = HERE.parents[2] / "Models"
    out = {}
    for file, tensors in MODEL_TENSORS.items():
        path = models / file
        if not path.exists():
            print(f"skipping {file}: not in {models}")
            return 0
        reader = gguf.GGUFReader(str(path))
        by_name = {t.name: t for t in reader.tensors}
        out[file] = {}
        for name, rows in tensors.items():
            t = by_name[name]
            data = t.data if t.data.ndim > 1 else t.data.reshape(1, -1)  # [rows, row bytes or values]
            entry = {"type": t.tensor_type.name, "rows": {}}
            for r in rows:
                raw = data[r]
                if t.tensor_type == T.F32:
                    values = raw.astype(np.float32)
                else:
                    values = quants.dequantize(raw, t.tensor_type).astype(np.float32).reshape(-1)
                entry["rows"][str(r)] = {
                    "first": [float(v) for v in values[:16]],
                    "sum": float(values.astype(np.float64).sum()),
                    "count": int(values.size),
                }
            out[file][name] = entry
    text = json.dumps(out, indent=1, sort_keys=True) + "\n"
    (HERE / "model_rows.json").write_text(text)
    return len(text)


def main() -> None:
    manifest = {
        "generator": "make_fixtures.py",
        "seed": SEED,
        "gguf": getattr(gguf, "__version__", None) or __import__("importlib.metadata").metadata.version("gguf"),
        "numpy": np.__version__,
        "dequantize": {},
        "quantize": {},
    }
    total = 0

    for qtype, n in BLOCK_COUNTS.items():
        block_size, type_size = GGML_QUANT_SIZES[qtype]
        blocks = random_blocks(qtype, n)
        floats = quants.dequantize(blocks, qtype).astype("<f4").reshape(-1)
        assert floats.size == n * block_size
        if qtype in SCALE_FIELDS:
            assert np.isfinite(floats).all(), qtype.name
        total += write(HERE / "dequantize" / f"{qtype.name}.blocks.bin", blocks)
        total += write(HERE / "dequantize" / f"{qtype.name}.floats.bin", floats)
        manifest["dequantize"][qtype.name] = {"blocks": n, "elements": int(floats.size)}

    # Q8_0: gguf.quants' quantizer, documented bit-exact with ggml's quantize_row_q8_0_ref.
    x = activation_blocks(64, 32)
    q = quants.quantize(x, T.Q8_0)
    total += write(HERE / "quantize" / "Q8_0.input.bin", x.astype("<f4"))
    total += write(HERE / "quantize" / "Q8_0.output.bin", q)
    manifest["quantize"]["Q8_0"] = {"elements": int(x.size), "source": "gguf.quants.quantize"}

    x = activation_blocks(64, 32)
    total += write(HERE / "quantize" / "Q8_1.input.bin", x.astype("<f4"))
    total += write(HERE / "quantize" / "Q8_1.output.bin", quantize_q8_1(x))
    manifest["quantize"]["Q8_1"] = {"elements": int(x.size), "source": "numpy port of ggml quantize_row_q8_1_ref"}

    x = activation_blocks(16, 256)
    total += write(HERE / "quantize" / "Q8_K.input.bin", x.astype("<f4"))
    total += write(HERE / "quantize" / "Q8_K.output.bin", quantize_q8_k(x))
    manifest["quantize"]["Q8_K"] = {"elements": int(x.size), "source": "numpy port of ggml quantize_row_q8_K_ref"}

    # BF16: random bit patterns (NaNs, subnormals, infinities) plus exact rounding ties.
    bits = rng.integers(0, 2**32, 4096, dtype=np.uint64).astype(np.uint32)
    bits[:512] = (bits[:512] & np.uint32(0xFFFF0000)) | np.uint32(0x8000)
    x = bits.view(np.float32)
    total += write(HERE / "quantize" / "BF16.input.bin", x.astype("<f4"))
    total += write(HERE / "quantize" / "BF16.output.bin", quants.quantize(x, T.BF16))
    manifest["quantize"]["BF16"] = {"elements": int(x.size), "source": "gguf.quants.quantize"}

    # F16: finite floats over the whole half range and beyond, plus exact ties between halves.
    mags = (2.0 ** rng.uniform(-27, 17, 4096)).astype(np.float32)
    x = np.where(rng.random(4096) < 0.5, -mags, mags).astype(np.float32)
    h = rng.integers(0, 0x7BFF, 512).astype(np.uint16)
    lo = h.view(np.float16).astype(np.float64)
    hi = (h + 1).view(np.float16).astype(np.float64)
    x[:512] = ((lo + hi) / 2).astype(np.float32)  # exact midpoints: 12 significant bits fit in f32
    x[512:520] = [65504, 65519.996, 65520, 65536, 2.0**-25, 2.0**-24, 1.5 * 2.0**-25, 0]
    total += write(HERE / "quantize" / "F16.input.bin", x.astype("<f4"))
    with np.errstate(over="ignore"):  # values >= 65520 become inf on purpose
        halves = x.astype(np.float16).view("<u2")
    total += write(HERE / "quantize" / "F16.output.bin", halves)
    manifest["quantize"]["F16"] = {"elements": int(x.size), "source": "numpy float32 -> float16"}

    total += write_model_rows()

    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    print(f"wrote {total} bytes of fixtures to {HERE}")


if __name__ == "__main__":
    main()
