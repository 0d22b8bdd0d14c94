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


if __name__ == "__main__":
    main()
    spec = json.load(open(os.path.join(HERE, "Reference", "conversations.json"), encoding="utf-8"))
    snippets(environment(datetime.datetime.fromisoformat(spec["now"])))
