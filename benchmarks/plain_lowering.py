"""The plain lowering (docs/ir.md, "Second lowering") against today's gradient, and the
numba experiment of issue 20, on two loop workloads: a simulation's time-stepping loop and
an RNN's step loop, small arrays (where per-step overhead is the cost); the simulation
again as nested loops (sub-steps: the inner loop's tapes keyed by both indices); a
relaxation calling a compiled callee per step (split: `relax_forward` / `relax_backward`).

    .venv/bin/python benchmarks/plain_lowering.py [--threads N]

Rows, medians per call (interleaved rounds, benchmarks/harness_utils.py), ratio to
today's `grad`:
  gast            grad(f, wrt): today's rule and pullback (closures, thunks, a tape)
  plain           grad(f, wrt, lowering="plain"): one function, tapes by index (CPython)
  numba           grad(f, wrt, lowering="numba"): the plain lowering's function jitted by
                  numba.njit, its helpers given numba overloads (runtime/numba_helpers.py);
                  numba is an optional install (`pip install thunkgrad[numba]`); where it
                  falls back to the plain lowering in Python, the row says why
  hand njit       a gradient written by hand for this workload and jitted: what a backend
                  emitting shape-specialised, helper-free code could reach; NOT generated
Every row's gradient is checked against the gast one before timing. Last, a split
callee's compile: both halves (one compilation) against its plain function alone.
"""
import sys
import warnings

from harness_utils import Failure, interleaved_medians, pin_threads

pin_threads()

import numpy as np  # noqa: E402

from transform import grad  # noqa: E402
from transform.api import compiled_plain  # noqa: E402
from transform.pipeline import compile_function  # noqa: E402
from transform.public.parameters import _full_signature  # noqa: E402
from transform.public.numba_gradient import NumbaFallbackWarning  # noqa: E402

try:
    import numba  # noqa: E402
except ImportError:                     # optional: the numba rows say so
    numba = None

STEPS, SIZE, HIDDEN, INPUTS = 200, 8, 16, 8
OUTER, SUB = 50, 4


def simulate(k, x0):
    x = x0
    v = np.zeros_like(x0)
    for i in range(STEPS):
        a = -k * x - 0.1 * v
        v = v + 0.05 * a
        x = x + 0.05 * v
    return np.sum(x ** 2)


def substeps(k, x0):
    x = x0
    v = np.zeros_like(x0)
    for i in range(OUTER):
        for j in range(SUB):            # nested: the inner loop's tapes keyed by (i, j)
            a = -k * x - 0.1 * v
            v = v + 0.02 * a
            x = x + 0.02 * v
    return np.sum(x ** 2)


def relax(k, x):
    for j in range(SUB):                # (a loop: called, not inlined; split under plain)
        x = x - 0.05 * (k * x + np.tanh(x))
    return x


def relaxation(k, x0):
    x = x0
    for i in range(OUTER):
        x = relax(k, x) + 0.01 * x0     # a compiled callee in a loop
    return np.sum(x ** 2)


def rnn(W, U, xs):
    h = np.zeros(W.shape[0])
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + U @ xs[t])
    return np.sum(h * h)


def simulate_grad_hand(k, x0):
    xs, vs = np.empty((STEPS, x0.size)), np.empty((STEPS, x0.size))
    x, v = x0.copy(), np.zeros_like(x0)
    for i in range(STEPS):
        xs[i], vs[i] = x, v
        a = -k * x - 0.1 * v
        v = v + 0.05 * a
        x = x + 0.05 * v
    dx, dv, dk = 2.0 * x, np.zeros_like(x0), 0.0
    for i in range(STEPS - 1, -1, -1):
        dv = dv + 0.05 * dx
        da = 0.05 * dv
        dk += np.sum(-xs[i] * da)
        dx = dx - k * da
        dv = dv - 0.1 * da
    return dk, dx


def substeps_grad_hand(k, x0):
    n = OUTER * SUB
    xs, vs = np.empty((n, x0.size)), np.empty((n, x0.size))
    x, v = x0.copy(), np.zeros_like(x0)
    for i in range(n):
        xs[i], vs[i] = x, v
        a = -k * x - 0.1 * v
        v = v + 0.02 * a
        x = x + 0.02 * v
    dx, dv, dk = 2.0 * x, np.zeros_like(x0), 0.0
    for i in range(n - 1, -1, -1):
        dv = dv + 0.02 * dx
        da = 0.02 * dv
        dk += np.sum(-xs[i] * da)
        dx = dx - k * da
        dv = dv - 0.1 * da
    return dk, dx


def relaxation_grad_hand(k, x0):
    xs = np.empty((OUTER, SUB, x0.size))
    x = x0.copy()
    for i in range(OUTER):
        y = x
        for j in range(SUB):
            xs[i, j] = y
            y = y - 0.05 * (k * y + np.tanh(y))
        x = y + 0.01 * x0
    dx, dk, dx0 = 2.0 * x, 0.0, np.zeros_like(x0)
    for i in range(OUTER - 1, -1, -1):
        dx0 += 0.01 * dx
        for j in range(SUB - 1, -1, -1):
            y = xs[i, j]
            dk -= 0.05 * np.sum(dx * y)
            dx = dx * (1.0 - 0.05 * (k + 1.0 - np.tanh(y) ** 2))
    return dk, dx0 + dx


def rnn_grad_hand(W, U, xs):
    T, n = xs.shape[0], W.shape[0]
    hs = np.empty((T + 1, n))
    hs[0] = 0.0
    for t in range(T):
        hs[t + 1] = np.tanh(W @ hs[t] + U @ xs[t])
    dW, dU, dxs = np.zeros_like(W), np.zeros_like(U), np.zeros_like(xs)
    dh = 2.0 * hs[T]
    for t in range(T - 1, -1, -1):
        dz = dh * (1.0 - hs[t + 1] ** 2)
        dW += np.outer(dz, hs[t])
        dU += np.outer(dz, xs[t])
        dxs[t] = U.T @ dz
        dh = W.T @ dz
    return dW, dU, dxs


def _numba(fn, wrt, args):
    """grad(fn, lowering="numba"), compiled by a first call; its fallback to the plain
    lowering in Python (NumbaFallbackWarning) raised, so the row shows the reason."""
    numba_grad = grad(fn, wrt, lowering="numba")
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaFallbackWarning)
        numba_grad(*args)
    return lambda: numba_grad(*args)


def _candidates(fn, hand, args):
    wrt = tuple(range(len(args)))
    gast_grad, plain_grad = grad(fn, wrt), grad(fn, wrt, lowering="plain")
    out = {"gast": lambda: gast_grad(*args), "plain": lambda: plain_grad(*args)}
    try:
        out["numba"] = _numba(fn, wrt, args)
    except Exception as exc:            # noqa: BLE001 - the row's finding
        out["numba"] = exc
    if numba is not None:
        jitted = numba.njit(hand)
        out["hand njit"] = lambda: jitted(*args)
    return out


def _checked(candidates):
    want = candidates["gast"]()
    for name, run in candidates.items():
        if callable(run):
            for g, w in zip(run(), want):
                np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12, err_msg=name)


def _reason(exc):
    """The fallback's warning or the error, on one line."""
    said = " | ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    return Failure(exc) if not said else f"{type(exc).__name__}: {said[:300]}"


def _report(title, candidates):
    _checked(candidates)
    failed = {n: _reason(e) for n, e in candidates.items() if not callable(e)}
    timed = interleaved_medians({n: f for n, f in candidates.items() if callable(f)},
                                rounds=9, budget_s=20)
    timed.update(failed)
    base = timed["gast"]["median"]
    print(f"\n{title}")
    for name in candidates:
        r = timed[name]
        if not isinstance(r, dict):
            print(f"  {name:14s} failed: {r}")
        else:
            print(f"  {name:14s} {r['median'] * 1e3:9.3f} ms   {base / r['median']:6.2f}x")


def _compile_report(args):
    """A split callee's compile (its caller's first call): both halves, one compilation
    since session 40 (one per half before), against its plain function alone."""
    signature = _full_signature(relax, args, {})

    def compiling(lowering):
        return lambda: compile_function(relax, ("k", "x"), "loop", signature=signature,
                                        lowering=lowering)
    timed = interleaved_medians({"plain function": compiling("plain"),
                                 "split halves": compiling("plain/split")},
                                rounds=9, budget_s=10)
    base = timed["plain function"]["median"]
    print("\ncompile: the relaxation's callee (uncached), ratio = plain function / row")
    for name, r in timed.items():
        print(f"  {name:14s} {r['median'] * 1e3:9.3f} ms   {base / r['median']:6.2f}x")


def main():
    rng = np.random.default_rng(0)
    print(f"numba {numba.__version__ if numba else 'not installed'}; medians per call, "
          "ratio = today's grad / row (higher is faster)")
    _report(f"simulation: {STEPS} steps, state of {SIZE}",
            _candidates(simulate, simulate_grad_hand, (0.7, rng.normal(size=SIZE))))
    _report(f"simulation in nested loops: {OUTER} steps of {SUB} sub-steps, state of {SIZE}",
            _candidates(substeps, substeps_grad_hand, (0.7, rng.normal(size=SIZE))))
    _report(f"relaxation: {OUTER} calls of a compiled callee ({SUB} steps), state of {SIZE}",
            _candidates(relaxation, relaxation_grad_hand, (0.7, rng.normal(size=SIZE))))
    args = (0.3 * rng.normal(size=(HIDDEN, HIDDEN)), 0.3 * rng.normal(size=(HIDDEN, INPUTS)),
            rng.normal(size=(50, INPUTS)))
    _report(f"rnn: 50 steps, hidden {HIDDEN}, inputs {INPUTS}",
            _candidates(rnn, rnn_grad_hand, args))
    _compile_report((0.7, rng.normal(size=SIZE)))


if __name__ == "__main__":
    sys.exit(main())
