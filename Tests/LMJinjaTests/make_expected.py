#!/usr/bin/env python3
"""Tests/LMJinjaTests/make_expected.py: the reference renders LMJinja is checked against.

usage: Tests/LMJinjaTests/make_expected.py      (from anywhere; rewrites Reference/expected.json
                                                 and Reference/snippets-expected.json)

Renders every chat template in llama.cpp b11312's models/templates/*.jinja (the tree that
Scripts/llama-cpp-source fetches) with every conversation in Reference/conversations.json, using
Python's jinja2 (pinned below, installed from PyPI into Models/.cache/jinja-gen) configured the
way Hugging Face transformers' apply_chat_template configures it: ImmutableSandboxedEnvironment
with trim_blocks and lstrip_blocks, the loopcontrols extension, a `generation` block tag that
renders its body, a `tojson` filter that is json.dumps(x, ensure_ascii=False, indent=None,
separators=None, sort_keys=False), and the globals raise_exception(message) and
strftime_now(format) (here reading the fixed clock in conversations.json).

It also renders the small templates of Reference/snippets.json (written for LMJinja, one
language feature each) and writes their outputs verbatim to Reference/snippets-expected.json.

For the llama.cpp templates only facts about the outputs are written (SHA-256 and UTF-8 length of each render, or the kind of
error jinja2 raised), never template text, so the file can be committed. The Swift tests render the
same templates from the same tree and compare digests.
"""
import datetime, glob, hashlib, json, os, subprocess, sys

JINJA2 = "jinja2==3.1.6"
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SITE = os.path.join(ROOT, "Models", ".cache", "jinja-gen", "site")


def ensure_jinja2():
    if not os.path.isdir(os.path.join(SITE, "jinja2")):
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", SITE, JINJA2], check=True)
    sys.path.insert(0, SITE)


ensure_jinja2()
import jinja2  # noqa: E402
import jinja2.ext  # noqa: E402
from jinja2 import nodes  # noqa: E402
from jinja2.sandbox import ImmutableSandboxedEnvironment  # noqa: E402

assert jinja2.__version__ == JINJA2.split("==")[1], jinja2.__version__


class RaisedByTemplate(jinja2.exceptions.TemplateError):
    """What raise_exception(message) throws, told apart from jinja2's own errors."""


class Generation(jinja2.ext.Extension):
    """transformers' AssistantTracker tag: {% generation %}...{% endgeneration %} renders its body."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render"), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()


def environment(now):
    def raise_exception(message):
        raise RaisedByTemplate(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return now.strftime(format)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[Generation, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def error_kind(e):
    if isinstance(e, RaisedByTemplate):
        return "raise_exception"
    if isinstance(e, jinja2.exceptions.TemplateSyntaxError):
        return "syntax"
    if isinstance(e, jinja2.exceptions.UndefinedError):
        return "undefined"
    if isinstance(e, jinja2.exceptions.SecurityError):
        return "security"
    return type(e).__name__


def sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main():
    tree = subprocess.run([os.path.join(ROOT, "Scripts", "llama-cpp-source")], check=True,
                          capture_output=True, text=True).stdout.strip()
    spec = json.load(open(os.path.join(HERE, "Reference", "conversations.json"), encoding="utf-8"))
    env = environment(datetime.datetime.fromisoformat(spec["now"]))
    cases = []
    paths = sorted(glob.glob(os.path.join(tree, "models", "templates", "*.jinja")))
    for path in paths:
        # newline="" keeps \r\n as written; jinja2 normalizes line ends itself.
        source = open(path, encoding="utf-8", newline="").read()
        name = os.path.basename(path)
        try:
            template = env.from_string(source)
            load_error = None
        except Exception as e:  # a template jinja2 refuses to load raises for every conversation
            template, load_error = None, e
        for conv in spec["conversations"]:
            case = {"template": name, "template_sha256": sha256(source), "conversation": conv["name"]}
            variables = dict(conv["variables"], bos_token=spec["bos_token"], eos_token=spec["eos_token"])
            try:
                if load_error:
                    raise load_error
                out = template.render(**json.loads(json.dumps(variables)))
                case.update(outcome="render", sha256=sha256(out), utf8_bytes=len(out.encode("utf-8")))
            except Exception as e:
                case.update(outcome="raise", error=error_kind(e))
                if isinstance(e, RaisedByTemplate):
                    case["message_sha256"] = sha256(str(e))
            cases.append(case)
    out = {
        "about": "Generated by make_expected.py: jinja2 renders of llama.cpp b11312 models/templates/*.jinja "
                 "with Reference/conversations.json. Regenerate, never edit.",
        "jinja2": jinja2.__version__,
        "llama_cpp": "b11312",
        "templates": len(paths),
        "conversations": len(spec["conversations"]),
        "cases": cases,
    }
    with open(os.path.join(HERE, "Reference", "expected.json"), "w", encoding="utf-8") as f:
        f.write("{\n")
        for key in ("about", "jinja2", "llama_cpp", "templates", "conversations"):
            f.write(f"  {json.dumps(key)}: {json.dumps(out[key], ensure_ascii=False)},\n")
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in cases))
        f.write("\n  ]\n}\n")
    renders = sum(c["outcome"] == "render" for c in cases)
    print(f"{len(paths)} templates x {len(spec['conversations'])} conversations: "
          f"{renders} renders, {len(cases) - renders} raise", file=sys.stderr)


def snippets(env):
    cases = json.load(open(os.path.join(HERE, "Reference", "snippets.json"), encoding="utf-8"))
    out = []
    for case in cases:
        row = {"name": case["name"]}
        try:
            row["output"] = env.from_string(case["template"]).render(**case["variables"])
        except Exception as e:
            row["raises"] = error_kind(e)
        out.append(row)
    with open(os.path.join(HERE, "Reference", "snippets-expected.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in out) + "\n]\n")
    print(f"{len(out)} snippets: {sum('raises' in r for r in out)} raise", file=sys.stderr)


# ---------------------------------------------------------------- differential fuzz
# The same seeded mutations as FuzzTests.swift (SplitMix64, byte flips, truncations, tag-level
# shuffles and splices of the real templates), rendered by jinja2. Only digests are written.

FUZZ_SEED = 0x4A494E4A415F4655
FUZZ_CASES = 3000
MASK = (1 << 64) - 1
INTERESTING = b"{}%#-+()[]'\"|.~,:=!<>*/ \n\\_0a"


class SplitMix64:
    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def chunks(source):
    b = source.encode("utf-8")
    out, start, i, inside = [], 0, 0, False
    while i + 1 < len(b):
        if not inside and b[i] == 0x7B and b[i + 1] in b"{%#":
            if i > start:
                out.append(b[start:i].decode("utf-8", "replace"))
            start, inside, i = i, True, i + 2
        elif inside and b[i + 1] == 0x7D and b[i] in b"}%#":
            out.append(b[start:i + 2].decode("utf-8", "replace"))
            start, inside, i = i + 2, False, i + 2
        else:
            i += 1
    if start < len(b):
        out.append(b[start:].decode("utf-8", "replace"))
    return out


def mutate(source, other, rng):
    kind = rng.next() % 5
    if kind == 0:
        b = bytearray(source.encode("utf-8"))
        if not b:
            return source
        for _ in range(1 + rng.next() % 8):
            i = rng.next() % len(b)
            b[i] = rng.next() & 0xFF if rng.next() % 2 == 0 else INTERESTING[rng.next() % len(INTERESTING)]
        return bytes(b).decode("utf-8", "replace")
    if kind == 1:
        b = source.encode("utf-8")
        return b[:rng.next() % (len(b) + 1)].decode("utf-8", "replace")
    if kind == 2:
        c = chunks(source)
        if len(c) <= 1:
            return source
        i = rng.next() % len(c)
        j = rng.next() % len(c)
        c[i], c[j] = c[j], c[i]
        return "".join(c)
    if kind == 3:
        c = chunks(source)
        if not c:
            return source
        for _ in range(1 + rng.next() % 4):
            if not c:
                continue
            i = rng.next() % len(c)
            if rng.next() % 2 == 0:
                del c[i]
            else:
                c.insert(i, c[i])
        return "".join(c)
    c, d = chunks(source), chunks(other)
    if not d:
        return source
    start = rng.next() % len(d)
    n = 1 + rng.next() % 6
    at = rng.next() % (len(c) + 1)
    c[at:at] = d[start:min(len(d), start + n)]
    return "".join(c)


class Timeout(Exception):
    pass


def fuzz(env, sources, conversations):
    """One outcome per case: "r:<sha256 prefix>:<utf8 bytes>" rendered, "x:<kind>" raised while
    rendering, "l:<kind>" refused when loading, "t" out of time (any outcome accepted)."""
    import signal

    def alarm(*_):
        raise Timeout()

    signal.signal(signal.SIGALRM, alarm)
    rng = SplitMix64(FUZZ_SEED)
    outcomes = []
    for _ in range(FUZZ_CASES):
        i = rng.next() % len(sources)
        j = rng.next() % len(sources)
        source = mutate(sources[i], sources[j], rng)
        if rng.next() % 3 == 0:
            source = mutate(source, sources[i], rng)
        conv = conversations[rng.next() % len(conversations)]
        signal.alarm(3)
        try:
            try:
                template = env.from_string(source)
            except Timeout:
                raise
            except BaseException as e:
                outcomes.append("l:" + error_kind(e))
                continue
            try:
                out = template.render(**json.loads(json.dumps(conv)))
                outcomes.append(f"r:{sha256(out)[:16]}:{len(out.encode('utf-8'))}")
            except Timeout:
                raise
            except BaseException as e:
                outcomes.append("x:" + error_kind(e))
        except Timeout:
            outcomes.append("t")
        finally:
            signal.alarm(0)
    return outcomes


def write_fuzz(env, spec, tree):
    paths = sorted(glob.glob(os.path.join(tree, "models", "templates", "*.jinja")))
    sources = [open(p, encoding="utf-8", newline="").read() for p in paths]
    by_name = {c["name"]: c for c in spec["conversations"]}
    conversations = [dict(by_name[n]["variables"], bos_token=spec["bos_token"], eos_token=spec["eos_token"])
                     for n in ("multi_turn", "tool_call")]
    outcomes = fuzz(env, sources, conversations)
    with open(os.path.join(HERE, "Reference", "fuzz-expected.json"), "w", encoding="utf-8") as f:
        f.write('{"about": "jinja2 outcomes of FuzzTests.swift\'s mutated templates (make_expected.py, same seed and '
                'mutations): r:<sha256 prefix>:<bytes>, x:<error while rendering>, l:<error while loading>, t: timeout",\n')
        f.write(f' "seed": {FUZZ_SEED}, "cases": {FUZZ_CASES},\n "outcomes": [\n')
        f.write(",\n".join(json.dumps(o) for o in outcomes))
        f.write("\n]}\n")
    counts = {}
    for o in outcomes:
        counts[o[0]] = counts.get(o[0], 0) + 1
    print(f"fuzz: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
    spec = json.load(open(os.path.join(HERE, "Reference", "conversations.json"), encoding="utf-8"))
    env = environment(datetime.datetime.fromisoformat(spec["now"]))
    snippets(env)
    tree = subprocess.run([os.path.join(ROOT, "Scripts", "llama-cpp-source")], check=True,
                          capture_output=True, text=True).stdout.strip()
    write_fuzz(env, spec, tree)
