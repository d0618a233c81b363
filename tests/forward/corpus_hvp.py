"""Every scalar-output corpus case through hvp, against central differences of grad
(float64): (name, outcome, detail) with outcome "pass", "refused" (a TransformError:
fine), "wrong" (H v is not the differences'), "error" (another exception: loud, not
silent) or "skipped" (keyword arguments, a case reverse mode refuses, a non-scalar
output, nothing to differentiate). Every differentiated argument at once (hvp's tuple
`wrt`: entry i is sum_j H_ij v_j, one compilation per case), along directions drawn
from the case's own stream (tests/forward/corpus_run.py tangent_like)."""
import copy

import numpy as np

from tests.corpus.case import all_cases
from tests.fd import EPS, _difference, _step
from tests.forward.corpus_run import _tree_close, tangent_like
from tests.gradcheck import _positions, _wrt, rng
from transform import TransformError, grad, hvp

RTOL, ATOL = 1e-4, 1e-6     # differences of a gradient: one order looser than of a value


def _scalar(out):
    return isinstance(out, (float, np.floating)) or \
        isinstance(out, np.ndarray) and out.shape == () and out.dtype.kind == "f"


def run_case(case, route=None):
    return run_routes(case, (route,))[0]


def run_routes(case, routes):
    """(outcome, detail) of each route (hvp's `route`), against one set of differences;
    "wrong" also where a route passes but differs from the first route that passed by
    more than the differences' tolerance (the routes must agree, not only be close to
    the differences)."""
    if case.kwargs or case.refused:
        return [("skipped", "keyword arguments" if case.kwargs else "refused in reverse")] * \
            len(routes)
    args = case.inputs()
    positions = tuple(_positions(case.fn, _wrt(args, case.wrt)))
    if not positions:
        return [("skipped", "nothing to differentiate")] * len(routes)
    if not _scalar(case.fn(*case.inputs())):
        return [("skipped", "not a scalar output")] * len(routes)
    r = rng("hvp corpus", case.name)
    directions = tuple(tangent_like(r, args[k]) for k in positions)
    got = [_hvp(case, positions, directions, route) for route in routes]
    if all(outcome is not None for outcome, _ in got):
        return got
    try:
        want = _differences(grad(case.fn, positions), case.inputs(), positions, directions)
    except Exception as exc:                        # noqa: BLE001 - fd.py cannot step it
        return [("skipped", f"no finite differences: {type(exc).__name__}: {exc}")] * \
            len(routes)
    rtol, atol = max(case.rtol, RTOL), max(case.atol, ATOL)
    first = next(value for outcome, value in got if outcome is None)
    return [(outcome, value) if outcome is not None else
            ("pass", "") if _tree_close(value, want, rtol, atol) and
            _tree_close(value, first, rtol, atol) else
            ("wrong", f"got {value!r}, expected {want!r}") for outcome, value in got]


def _hvp(case, positions, directions, route):
    """(None, H v) or (outcome, detail) for a refusal or another exception."""
    try:
        return None, hvp(case.fn, case.inputs(), directions, wrt=positions, route=route)
    except TransformError as exc:
        return "refused", str(exc).splitlines()[0]
    except Exception as exc:                        # noqa: BLE001 - reported, not hidden
        return "error", f"{type(exc).__name__}: {exc}"


def _differences(gradient, args, positions, directions):
    """Central differences of the gradient with every differentiated argument stepped
    along its direction together (tests/fd.py's step and difference)."""
    def at(sign):
        moved = list(copy.deepcopy(args))
        for k, v in zip(positions, directions):
            moved[k] = _step(args[k], v, sign * EPS)
        return gradient(*moved)
    return _difference(at(1), at(-1), EPS)


def run_all(route=None):
    return [(c.name,) + run_case(c, route) for c in all_cases()]


ROUTES = ("reverse_over_forward", "forward_over_reverse", "auto")     # auto: the default


def run_all_routes():
    """{route: results}: every case through every route, one set of differences each
    (auto reruns the compiled code of the others: cheap)."""
    found = {route: [] for route in ROUTES}
    for c in all_cases():
        for route, outcome in zip(ROUTES, run_routes(c, ROUTES)):
            found[route].append((c.name,) + outcome)
    return found


REASONS = (("alias check, reverse mode's own code", lambda m: "gradient code" in m and
             ("writing into" in m or "another slot" in m)),
           ("alias check, a user's write", lambda m: "writing into" in m or "another slot" in m),
           ("complex values", lambda m: "complex" in m),
           ("a VJP helper without a tangent", lambda m: "calling a function value" in m),
           ("other", lambda m: True))


def by_reason(results):
    """{reason: [case names]} of the refused results, by their messages' classes."""
    found = {}
    for name, outcome, detail in results:
        if outcome == "refused":
            reason = next(r for r, matches in REASONS if matches(detail))
            found.setdefault(reason, []).append(name)
    return found


if __name__ == "__main__":
    import collections
    import contextlib
    import io
    import sys
    chosen = sys.argv[1:] or ROUTES
    if set(chosen) - set(ROUTES):
        sys.exit(f"usage: python -m tests.forward.corpus_hvp [ROUTE ...] (routes: "
                 f"{', '.join(ROUTES)}; all by default): pass/refused/wrong counts")
    with contextlib.redirect_stdout(io.StringIO()):       # cases that print
        found = run_all_routes()
    for route, results in found.items():
        if route not in chosen:
            continue
        for name, outcome, detail in results:
            if outcome in ("wrong", "error", "refused"):
                print(route, outcome, name, detail[:300])
        print(route, dict(collections.Counter(r[1] for r in results)))
        for reason, names in by_reason(results).items():
            print(f"  {route} refused, {reason}: {len(names)}")
