"""The plain lowering (docs/ir.md, "Second lowering") over the corpus: every case with a
scalar output and something to differentiate, `grad(f, wrt, lowering="plain")` against
central finite differences (tests/gradcheck.py's comparison, the case's tolerances).

    .venv/bin/python tools/plain_sweep.py [-v] [--policy eager] [--lowering numba]

--lowering numba: grad(f, wrt, lowering="numba") instead (README, "A compiled backend:
numba"); an ok case is counted jitted, or fallen back to the plain lowering in Python
(its NumbaFallbackWarning's first reason word kept); numba compiles each jitted case in
seconds, so the sweep takes long.

Prints one line per outcome: ok (accepted, every gradient within tolerance), refused
(a TransformError or ValueError: outside the subset; counted by the construct named), wrong (accepted, a gradient off),
error (accepted, another exception at run time), skipped (not a scalar output, or a
refused corpus case). -v lists the cases of each outcome but ok. Exit status 1 if any is
wrong.
"""
import collections
import contextlib
import io
import sys
import warnings

import numpy as np

from tests.corpus.case import all_cases
from tests.fd import numerical_grad, numerical_tree_grad
from tests.gradcheck import EPS, _compare, _items, _plain, _positions, _wrt, _writable, readonly
from transform import TransformError, grad
from transform.public.cache import rules_of


def _scalar(case, args):
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out = case.fn(*_writable(args), **case.kwargs)
    except Exception:                       # noqa: BLE001 - the primal fails: not ours
        return False
    return isinstance(out, float) or np.ndim(out) == 0 and not isinstance(out, (list, tuple))


def outcome(case, policy=None, lowering="plain"):
    """(kind, detail) for one corpus case."""
    args = readonly(case.inputs())
    if case.refused or not _scalar(case, args):
        return "skipped", ""
    wrt = _wrt(args, case.wrt)
    if wrt == ():
        return "skipped", "nothing to differentiate"
    fell = []
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            got = grad(case.fn, wrt=wrt, policy=policy, lowering=lowering)(*args, **case.kwargs)
        fell = [str(w.message) for w in said if w.category.__name__ == "NumbaFallbackWarning"]
    except (TransformError, ValueError) as exc:
        return "refused", str(exc).splitlines()[0]
    except Exception as exc:                # noqa: BLE001 - recorded, not hidden
        return "error", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    gots = got if isinstance(wrt, tuple) else (got,)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for k, g in zip(_positions(case.fn, wrt), gots):
                _compare(g, args, k, numerical_grad, numerical_tree_grad,
                         _plain(case.fn, case.kwargs), (), case.rtol, case.atol, EPS)
    except AssertionError as exc:
        return "wrong", str(exc).splitlines()[0]
    if lowering == "numba":
        return "ok", "fallback: " + fell[0].split("(the same values, not jitted): ")[-1][:60] \
            if fell else "jitted"
    return "ok", "loop" if any("\n    for " in source for source in _plain_sources(case.fn)) \
        else ""


def _plain_sources(fn):
    """The plain lowering's sources compiled for fn (the rule cache's plain entries)."""
    return [rule.source for key, rule in rules_of(fn).items() if key[2] == "plain"]


def _reasons(refused):
    """How many refusals name each construct (`does not support <construct>`)."""
    return collections.Counter(detail.split("does not support ", 1)[-1]
                               for _, detail in refused)


def main(argv):
    verbose = "-v" in argv
    policy = argv[argv.index("--policy") + 1] if "--policy" in argv else None
    lowering = argv[argv.index("--lowering") + 1] if "--lowering" in argv else "plain"
    found = collections.defaultdict(list)
    for case in all_cases():
        kind, detail = outcome(case, policy, lowering)
        found[kind].append((case.name, detail))
    for kind in ("ok", "refused", "wrong", "error", "skipped"):
        loops = sum(1 for _, detail in found[kind] if detail == "loop")
        print(f"{kind}: {len(found[kind])}" + (f" ({loops} with a loop)" if loops else ""))
        if kind == "ok" and lowering == "numba":
            for reason, count in collections.Counter(d for _, d in found[kind]).most_common():
                print(f"    {count} {reason}")
        if kind == "refused":
            for reason, count in _reasons(found[kind]).most_common():
                print(f"    {count} {reason}")
        if verbose and kind == "ok":
            print("    with a loop: " + ", ".join(n for n, d in found[kind] if d == "loop"))
        elif verbose:
            for name, detail in found[kind]:
                print(f"    {name}: {detail}")
    return 1 if found["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
