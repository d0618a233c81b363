"""Grad of grad on the corpus's scalar cases (issue 20): for a case whose output is a
scalar, its first differentiated argument p is differentiated twice:
- p a float: grad(grad(f, p), p) against central differences of grad(f, p);
- p an array: the reverse rule of grad(f, p) (what a function calling it inside code
  being differentiated runs: `g(x) = <grad f(x), v>`), through vjp(grad(f, p)) with a
  random v, against central differences of <grad f, v> for every float or float-array
  argument (the Hessian's block and the mixed blocks).
(name, outcome, detail): outcome "pass", "refused" (a TransformError or the TypeError
asking for a scalar), "wrong", "error" (another exception) or "skipped" (keyword
arguments, a case refused in reverse mode, no scalar output, a container argument).
A deterministic subset keeps the run short: every STRIDE-th case by name."""
import numpy as np

from tests.corpus.case import all_cases
from tests.fd import close, numerical_grad, numerical_vjp
from tests.gradcheck import _positions, _wrt, is_float_arg, rng
from transform import TransformError, grad, vjp

STRIDE = 2


def _scalar(out):
    return isinstance(out, (float, np.floating)) or \
        isinstance(out, np.ndarray) and out.shape == () and out.dtype.kind == "f"


def _skip(case, args):
    if case.kwargs or case.refused:
        return "keyword arguments" if case.kwargs else "refused in reverse"
    positions = _positions(case.fn, _wrt(args, case.wrt))
    if not positions:
        return "nothing to differentiate"
    if not all(is_float_arg(args[k]) for k in positions):
        return "a container argument"
    try:
        out = case.fn(*case.inputs())
    except Exception as exc:                        # noqa: BLE001 - not this run's concern
        return f"the function raises: {type(exc).__name__}"
    return None if _scalar(out) else "no scalar output"


def run_case(case):
    args = case.inputs()
    why = _skip(case, args)
    if why:
        return "skipped", why
    positions = _positions(case.fn, _wrt(args, case.wrt))
    p = positions[0]
    try:
        got, want = _second(case, args, p, positions)
    except (TransformError, TypeError) as exc:
        if isinstance(exc, TypeError) and "scalar output" not in str(exc):
            return "error", f"TypeError: {exc}"
        return "refused", str(exc).splitlines()[0]
    except Exception as exc:                        # noqa: BLE001 - reported, not hidden
        return "error", f"{type(exc).__name__}: {exc}"
    rtol, atol = max(case.rtol, 1e-5), max(case.atol, 1e-6)
    if all(close(g, w, rtol, atol) for g, w in zip(got, want)):
        return "pass", ""
    return "wrong", f"got {got!r}, expected {want!r}"


def _second(case, args, p, positions):
    first = grad(case.fn, p)
    if isinstance(args[p], float):
        return [grad(first, p)(*args)], [numerical_grad(first, list(args), p)]
    v = rng("grad of grad", case.name).normal(size=np.shape(args[p]))
    _, pullback = vjp(first, *case.inputs(), wrt=tuple(positions))
    got = pullback(v)
    want = [numerical_vjp(first, list(case.inputs()), k, v) for k in positions]
    return list(got), want


def run_all(stride=STRIDE):
    cases = sorted(all_cases(), key=lambda c: c.name)[::stride]
    return [(c.name,) + run_case(c) for c in cases]


if __name__ == "__main__":
    import collections
    import sys
    import time
    start = time.perf_counter()
    results = run_all(int(sys.argv[1]) if len(sys.argv) > 1 else STRIDE)
    print(collections.Counter(r[1] for r in results), f"{time.perf_counter() - start:.1f} s")
    for name, outcome, detail in results:
        if outcome not in ("pass", "skipped"):
            print(outcome, name, detail[:300])
