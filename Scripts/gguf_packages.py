"""The pinned PyPI `gguf` package (llama.cpp's own GGUF reader and writer, used by its conversion
scripts) for the project's Python tools: Models/fetch's kernel fixtures, Scripts/bench-models and
Scripts/bench-vs-llama. The pin is written here once.

`use(root)` makes `import gguf, numpy` give the pinned versions: the ones installed in Python
already when they match, otherwise a private copy installed with pip into
<root>/Models/.cache/fixture-packages (never committed), which it returns so that a subprocess can
put it on PYTHONPATH. Raises RuntimeError with pip's last words when pip fails.
"""
import os, subprocess, sys

GGUF_VERSION = "0.19.0"
PACKAGES = [f"gguf=={GGUF_VERSION}", "numpy>=2"]
_PROBE = ("import numpy, gguf; from importlib.metadata import version; "
          f"assert version('gguf') == '{GGUF_VERSION}' and int(numpy.__version__.split('.')[0]) >= 2")


def target(root):
    return os.path.join(root, "Models", ".cache", "fixture-packages")


def use(root):
    """Returns None when this Python already has the pinned packages, else the private folder
    (installed when missing) after putting it first on sys.path."""
    if subprocess.run([sys.executable, "-c", _PROBE], capture_output=True).returncode == 0:
        return None
    folder = target(root)
    env = dict(os.environ, PYTHONPATH=folder)
    if subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, env=env).returncode != 0:
        print(f"installing {' '.join(PACKAGES)} into {folder}", file=sys.stderr)
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               "--upgrade", "--target", folder, *PACKAGES], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"pip install {' '.join(PACKAGES)} failed: {done.stderr.strip()[-300:]}")
    sys.path.insert(0, folder)
    return folder
