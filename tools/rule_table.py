"""Print the Markdown table of NumPy functions with derivative rules, by family.

    python tools/rule_table.py           # print
    python tools/rule_table.py --write   # also update docs/rules.md

A row is one function: NumPy aliases (np.abs / np.absolute) and the ndarray
methods mapped to it share the row, so nothing is counted twice. The family
is the runtime/rules module that registered the rule; "Differentiated in" names the
parameters a template rule has a derivative for. The closing section
(tools/public_coverage.py) sorts each library's public function list into covered,
no derivative and not yet covered.
"""
import builtins
import cmath
import importlib
import inspect
import logging
import math
import operator
import pathlib
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import numpy as np  # noqa: E402

import runtime  # noqa: E402
from runtime.jvp import MARKERS  # noqa: E402
from runtime.rules import FAMILIES  # noqa: E402
from runtime.rules.methods import METHODS  # noqa: E402
from public_coverage import render_coverage  # noqa: E402

DOC = ROOT / "docs" / "rules.md"
SCIPY_TABLES = ("scipy_special", "scipy_special_more", "scipy_special_extra", "scipy_stats",
                "scipy_stats_more", "scipy_stats_extra",
                "scipy_stats_summaries", "scipy_linalg", "scipy_linalg_more",
                "scipy_linalg_extra", "scipy_linalg_factorizations", "scipy_linalg_eig", "scipy_signal",
                "scipy_signal_extra",
                "scipy_integrate")
NAMESPACES = [("np", np), ("np.linalg", np.linalg), ("np.random", np.random), ("np.fft", np.fft)]
# the standard-library modules with rules (output and clocks: nondiff) are listed too
PYTHON = [("operator", operator), ("math", math), ("builtins", builtins), ("time", time),
          ("warnings", warnings), ("logging", logging), ("cmath", cmath)]


def _rows(namespaces):
    """{id(rule): [rule, names]} for the public names in `namespaces` that have a rule."""
    rows = {}
    for prefix, module in namespaces:
        for name in sorted(dir(module)):
            obj = getattr(module, name, None)
            rule = None if name.startswith("_") or not callable(obj) else runtime.lookup(obj)
            if rule is not None:
                rows.setdefault(id(rule), [rule, []])[1].append(f"{prefix}.{name}")
    return rows


def _canonical_first(rule, names):
    """The name matching the function's own __name__ first, then the aliases."""
    own = getattr(rule.fn, "__name__", None)
    return sorted(names, key=lambda n: (n.rsplit(".", 1)[-1] != own, n.startswith("ndarray"), n))


def _summary(rows):
    return sorted((getattr(rule, "family", "user"), _canonical_first(rule, names), _kind(rule),
                   _differentiated(rule), _forward(rule)) for rule, names in rows.values())


def _forward(rule):
    """How the rule's forward-mode (JVP) terms are declared (docs/forward.md): the kinds
    of its terms (a template, or a marker; *derived* for the DIAGONAL an elementwise
    rule gets without saying so; a custom rule's marker or *function*), `zero` for a
    nondiff rule, or `no`."""
    if rule.kind == "nondiff":
        return "zero"
    if not rule.has_jvp:
        return "no"
    if rule.kind == "custom":           # rrule(fn, jvp=LINEAR, JOINT or a function)
        return rule.custom_jvp if rule.custom_jvp in MARKERS else "function"
    derived = rule._declared_jvp is None
    kinds = sorted({t if t in MARKERS else "template" for t in rule.jvps.values()})
    return ", ".join(kinds) + (" (derived)" if derived else "")


def _differentiated(rule):
    """The parameters a template rule differentiates (a differentiated value reaching
    any other is refused unless its derivative is zero: the notes say which); a custom
    rule's are its own."""
    if rule.kind == "custom":
        return "custom rrule (see the notes)"
    return ", ".join(f"`{p}`" for p in rule.templates) if rule.kind == "template" else ""


def _kind(rule):
    """template, custom, or nondiff with its reason: `nondiff (zero)`."""
    if rule.kind == "nondiff" and isinstance(rule.why, str):
        return f"nondiff ({rule.why})"
    return rule.kind


def numpy_rows():
    """(family, names, kind) per NumPy function with a rule, methods included."""
    rows = _rows(NAMESPACES)
    for name, fn in sorted(METHODS.items()):
        rule = runtime.lookup(fn)
        rows.setdefault(id(rule), [rule, []])[1].append(f"ndarray.{name}")
    for rule in runtime.registry._RULES.values():    # ufunc methods (np.add.reduce): by name
        if getattr(rule, "family", None) in ("ufunc_methods", "ufunc_outer", "ufunc_at_more"):
            rows.setdefault(id(rule), [rule, [rule.name]])
    return _summary(rows)


def python_rows():
    return _summary(_rows(PYTHON))


def scipy_rows():
    """(family, names, kind) per SciPy function with a rule (none without SciPy)."""
    try:
        import scipy.integrate
        import scipy.linalg
        import scipy.signal
        import scipy.special
        import scipy.stats  # noqa: F401
    except ImportError:
        return []
    runtime.registry._load_pending()
    rows = _rows([("scipy.special", scipy.special), ("scipy.linalg", scipy.linalg),
                  ("scipy.signal", scipy.signal), ("scipy.integrate", scipy.integrate)])
    for rule in runtime.registry._RULES.values():          # stats methods: by rule name
        if (getattr(rule, "family", None) or "").startswith("scipy_stats"):
            rows.setdefault(id(rule), [rule, [rule.name]])
    return _summary(rows)


def _table(rows):
    lines = ["| Function | Also | Kind | Differentiated in | JVP |", "|---|---|---|---|---|"]
    for _, names, kind, arguments, forward in rows:
        first, *rest = names
        lines.append(f"| `{first}` | {', '.join(f'`{n}`' for n in rest)} | {kind} | "
                     f"{arguments} | {forward} |")
    return lines


def _notes(family):
    """The family module's docstring: its conventions and documented limits."""
    module = importlib.import_module(f"runtime.rules.{family}")
    text = inspect.getdoc(module) or ""
    return f"From `runtime/rules/{family}.py`: " + " ".join(text.split())


def render():
    rows = numpy_rows()
    kinds = {k: sum(1 for r in rows if r[2].split()[0] == k)
             for k in ("template", "custom", "nondiff")}
    lines = ["# Derivative rules", "",
             "Generated by `tools/rule_table.py --write`; `tests/rules/test_rule_table.py` "
             "checks it is current.", "",
             f"**{len(rows)} NumPy functions** ({sum(len(r[1]) for r in rows)} names, counting "
             f"aliases and ndarray methods): {kinds['template']} with template rules, "
             f"{kinds['custom']} with custom rules, {kinds['nondiff']} non-differentiable. "
             "Kinds: *template* (one line of math per argument, inlined by the compiler), "
             "*custom* (an rrule), *nondiff* (no derivative), with its reason: *zero* (the "
             "derivative is zero wherever it exists), *shape* (only shapes are read) or *none* "
             "(no rule: a differentiated value reaching it is refused at compile time). "
             "JVP: the kinds of the forward-mode terms (docs/forward.md: *template*, "
             "*linear*, *joint*, *diagonal*, *reduction*; *derived*: the diagonal term an "
             "elementwise rule gets from its VJP; *function*: a custom rule's JVP function), "
             "*zero* (nondiff) or *no*.", ""]
    for family in FAMILIES:
        chosen = [r for r in rows if r[0] == family]
        if chosen:
            lines += [f"## {family} ({len(chosen)})", "", _notes(family), ""]
            lines += _table(chosen) + [""]
    python = python_rows()
    lines += [f"## Python operators, math, cmath, builtins, time, warnings and logging "
              f"({len(python)})",
              ""] + _table(python) + [""]
    for family in SCIPY_TABLES:
        chosen = [r for r in scipy_rows() if r[0] == family]
        if chosen:
            lines += [f"## {family} ({len(chosen)})", "", _notes(family), ""]
            lines += _table(chosen) + [""]
    return "\n".join(lines + render_coverage())


README = ROOT / "README.md"
BEGIN, END = "<!-- rule table: begin -->", "<!-- rule table: end -->"


def readme_section():
    """The README's compact table: one row per family, every covered NumPy function."""
    rows = numpy_rows()
    lines = [BEGIN, "", f"{len(rows)} NumPy functions (generated by `tools/rule_table.py "
             "--write`; details and limits in `docs/rules.md`):", "",
             "| family | functions |", "|---|---|"]
    for family in FAMILIES:
        names = sorted(names[0].replace("np.", "") for fam, names, *_ in rows if fam == family)
        if names:
            lines.append(f"| {family} ({len(names)}) | {', '.join(names)} |")
    return "\n".join(lines + ["", END])


def readme_with_table(text):
    """README text with the section between the markers replaced."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + readme_section() + text[end:]


if __name__ == "__main__":
    text = render()
    print(text)
    if "--write" in sys.argv[1:]:
        DOC.write_text(text)
        README.write_text(readme_with_table(README.read_text()))
