"""Every corpus case whose differentiated arguments are floats or float arrays through
jacfwd and jacrev: (name, outcome, detail) with outcome "pass" (the two Jacobians agree
to rounding, and J v matches central differences for one direction per argument),
"refused" (a TransformError from either), "wrong" (they disagree, or differ from the
differences), "error" (another exception) or "skipped" (keyword arguments, a case
reverse mode refuses, container arguments, outputs that are not floats)."""
import numpy as np

from tests.corpus.case import all_cases
from tests.fd import numerical_jvp
from tests.forward.corpus_run import _tree_close
from tests.gradcheck import _positions, _wrt, is_float_arg, rng
from transform import TransformError, jacfwd, jacrev

AGREE = (1e-8, 1e-10)       # the same derivative by two routes: rounding only
AGREE32 = (2e-5, 1e-6)      # ... in float32


def run_case(case):
    if case.kwargs or case.refused:
        return "skipped", "keyword arguments" if case.kwargs else "refused in reverse"
    args = case.inputs()
    positions = [k for k in _positions(case.fn, _wrt(args, case.wrt))
                 if is_float_arg(args[k])]
    if not positions:
        return "skipped", "no float or float array argument"
    wrt = tuple(positions)
    try:
        forward = jacfwd(case.fn, wrt)(*case.inputs())
        reverse = jacrev(case.fn, wrt)(*case.inputs())
    except TransformError as exc:
        return "refused", str(exc).splitlines()[0]
    except TypeError as exc:
        if "needs float outputs" in str(exc):
            return "skipped", "an output that is not a float"
        return "error", f"TypeError: {exc}"
    except Exception as exc:                        # noqa: BLE001 - reported, not hidden
        return "error", f"{type(exc).__name__}: {exc}"
    single = any(getattr(args[k], "dtype", None) == np.float32 for k in positions)
    if not _tree_close(forward, reverse, *(AGREE32 if single else AGREE)):
        return "wrong", f"jacfwd {forward!r} != jacrev {reverse!r}"
    return _against_differences(case, args, positions, reverse)


def _against_differences(case, args, positions, jac):
    """J v for one direction per argument (a deterministic draw) against differences."""
    r = rng("jacobian corpus", case.name)
    for j, k in enumerate(positions):
        v = float(r.normal()) if isinstance(args[k], float) else r.normal(size=args[k].shape)
        want = numerical_jvp(case.fn, case.inputs(), k, v)
        got = _contracted(_per_output(jac, j), v)
        if not _tree_close(got, want, max(case.rtol, 1e-5), max(case.atol, 1e-7)):
            return "wrong", f"argument {k}: J v {got!r}, differences {want!r}"
    return "pass", ""


def _per_output(jac, j):
    """Argument j's Jacobians in the output's structure (leaves: a tuple per argument)."""
    if isinstance(jac, dict):
        return {key: _per_output(v, j) for key, v in jac.items()}
    if isinstance(jac, tuple) and not hasattr(jac, "_fields") and \
            all(not isinstance(x, (tuple, list, dict)) for x in jac):
        return jac[j]
    return type(jac)(_per_output(v, j) for v in jac) if not hasattr(jac, "_fields") else \
        type(jac)(*[_per_output(v, j) for v in jac])


def _contracted(jac, v):
    if isinstance(jac, dict):
        return {key: _contracted(x, v) for key, x in jac.items()}
    if isinstance(jac, (tuple, list)):
        return type(jac)(_contracted(x, v) for x in jac)
    return np.tensordot(jac, v, axes=np.ndim(v))


def run_all():
    return [(c.name,) + run_case(c) for c in all_cases()]


if __name__ == "__main__":
    import collections
    results = run_all()
    for name, outcome, detail in results:
        if outcome in ("wrong", "error"):
            print(outcome, name, detail[:300])
    print(dict(collections.Counter(r[1] for r in results)))
