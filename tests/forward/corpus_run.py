"""Every corpus case jvp takes, against finite differences: (name, outcome, detail) with
outcome "pass", "refused" (a TransformError: fine), "wrong" (a tangent that is not the
finite differences'), "error" (another exception: a crash, not a silent wrong value) or
"skipped" (keyword arguments, a case the reverse compiler refuses too, or an argument
tests/fd.py cannot step: a NamedTuple, whose steps it makes plain tuples)."""
import numpy as np

from tests.corpus.case import all_cases
from tests.fd import close, numerical_jvp
from tests.gradcheck import _positions, _wrt, rng
from transform import TransformError, jvp


def tangent_like(r, a):
    if isinstance(a, tuple) and hasattr(a, "_fields"):
        return type(a)(*[tangent_like(r, v) for v in a])
    if isinstance(a, (tuple, list)):
        return type(a)(tangent_like(r, v) for v in a)
    if isinstance(a, dict):
        return {k: tangent_like(r, v) for k, v in a.items()}
    if isinstance(a, float):
        return float(r.normal())
    if isinstance(a, np.ndarray) and a.dtype.kind == "f":
        return r.normal(size=a.shape).astype(a.dtype)
    return 0.0 if isinstance(a, (int, np.integer)) and not isinstance(a, bool) else a


def _tree_close(got, want, rtol, atol):
    if isinstance(want, dict):
        return isinstance(got, dict) and all(_tree_close(got[k], want[k], rtol, atol)
                                             for k in want)
    if isinstance(want, (tuple, list)):
        return isinstance(got, (tuple, list)) and len(got) == len(want) and \
            all(_tree_close(g, w, rtol, atol) for g, w in zip(got, want))
    return close(got, want, rtol, atol)


def _added(a, b):
    if isinstance(a, dict):
        return {k: _added(a[k], b[k]) for k in a}
    if isinstance(a, (tuple, list)):
        return type(a)(_added(x, y) for x, y in zip(a, b))
    return a + b


def run_case(case):
    if case.kwargs or case.refused:
        return "skipped", "keyword arguments" if case.kwargs else "refused in reverse"
    args = case.inputs()
    positions = _positions(case.fn, _wrt(args, case.wrt))
    if not positions:
        return "skipped", "nothing to differentiate"
    r = rng("forward corpus", case.name)
    tangents = tuple(tangent_like(r, args[k]) for k in positions)
    try:
        _, got = jvp(case.fn, case.inputs(), tangents, wrt=tuple(positions))
    except TransformError as exc:
        return "refused", str(exc).splitlines()[0]
    except Exception as exc:                        # noqa: BLE001 - reported, not hidden
        return "error", f"{type(exc).__name__}: {exc}"
    want = None
    for k, t in zip(positions, tangents):
        try:
            term = numerical_jvp(case.fn, case.inputs(), k, t)
        except Exception as exc:                    # noqa: BLE001 - fd.py cannot step it
            return "skipped", f"no finite differences: {type(exc).__name__}: {exc}"
        want = term if want is None else _added(want, term)
    if _tree_close(got, want, max(case.rtol, 1e-5), max(case.atol, 1e-7)):
        return "pass", ""
    return "wrong", f"got {got!r}, expected {want!r}"


def run_all():
    return [(c.name,) + run_case(c) for c in all_cases()]


if __name__ == "__main__":
    import collections
    results = run_all()
    counts = collections.Counter(r[1] for r in results)
    for name, outcome, detail in results:
        if outcome in ("wrong", "error"):
            print(outcome, name, detail[:300])
    print(dict(counts))
