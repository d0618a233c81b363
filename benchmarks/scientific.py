"""Issue 19: thunkgrad on scientific programs against hand-written NumPy gradients.

Workloads (benchmarks/scientific_workloads.py), each as its domain writes it:

    S1  1-D heat equation, 256 cells, 10,000 steps, slicing + np.concatenate
    S1c the same with `un = u.copy(); un[1:-1] = ...`
    S2  Gaussian-process NLL, n = 500, Cholesky + solve
    S3  2-layer LSTM, hidden 128, 200 steps, one function
    S3c the same with a `cell` helper returning (h, c)
    S4  N-body, 16 bodies, 1,000 leapfrog steps
    S5  logistic regression, 100,000 x 50, float32
    S6  RK4, 16 states, 500 steps, one function
    S6c the same with an `rhs` helper

Before anything is timed, every hand-written gradient is checked against a central
difference along a random direction, and thunkgrad's gradient (and a peer's) against
the hand-written one. Implementations are timed round-robin (interleaved) and the
table quotes medians; `tg / hand` is thunkgrad's time over the hand-written
gradient's. `thunks` is what `thunk_stats` counts in one thunkgrad gradient call
(created / forced). The hand-written gradients keep the primal's loop structure
("hand"); "hand-vec" is what an expert writes instead where a loop's work can be
batched: the LSTM's and RK4's weight gradients as one matrix product over all steps
rather than an outer product per step; S5's sigmoid from exp(min(t, 0)) and
exp(-|t|) instead of NumPy's np.logaddexp loop (libm's exp and log1p per element). S2
has no loop (its "hand" is already vectorised); in S1 and S4 each step reads the last,
nothing to batch. Every
column times the gradient from the inputs (forward and backward); the hand gradients
compute no loss value (S5's mean and w @ w, under 1% of its time), the AD systems do.

Peers, each when it imports (a second table gives each one's time over the hand
gradient's, from the same interleaved run): autograd runs the same source with `np` bound
to autograd.numpy (a program that writes into an array fails there, as autograd refuses
it); JAX eager (jax.grad of the Python loop, op by op), jax.jit (the loop as
`lax.fori_loop`/`lax.scan`; its first call, trace and compile, is reported separately
next to thunkgrad's first gradient) and PyTorch eager are written in
benchmarks/scientific_jax.py and benchmarks/scientific_torch.py.

Run:  .venv/bin/python benchmarks/scientific.py [--quick] [--only S1,S1c] [--no-peers]
                                                [--peers autograd,jax,jax.jit,torch]
      THUNKGRAD_BENCH_QUICK=1 is --quick: smaller sizes, fewer rounds (a smoke run).
"""
import argparse
import os
import sys
import time
import types
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness_utils import pin_threads                # noqa: E402

THREADS = pin_threads()                              # before NumPy loads

import numpy as np                                   # noqa: E402

from transform import grad, thunk_stats              # noqa: E402
import scientific_workloads as sw                    # noqa: E402
from harness_utils import Failure, interleaved_medians, markdown_table, try_call  # noqa: E402
from run import thunkgrad_first_gradient              # noqa: E402

RESULTS = HERE / "results"
TARGET_HAND_RATIO = 1.3


class Workload:
    def __init__(self, key, title, fn, wrt, data, hand, hand_vec=None):
        self.key, self.title, self.fn, self.wrt = key, title, fn, wrt
        self.data, self.hand, self.hand_vec = data, hand, hand_vec


_LSTM = ("Wx1", "Wh1", "b1", "Wx2", "Wh2", "b2")
WORKLOADS = [
    Workload("S1", "heat 256 cells, 10,000 steps, slices + concatenate", sw.heat,
             ("u", "k"), sw.heat_data, sw.heat_hand),
    Workload("S1c", "heat, un = u.copy(); un[1:-1] = ...", sw.heat_copy,
             ("u", "k"), sw.heat_data, sw.heat_hand),
    Workload("S2", "GP NLL n=500, Cholesky + solve", sw.gp_nll,
             ("log_ell", "log_sf", "log_sn"), sw.gp_data, sw.gp_hand),
    Workload("S3", "LSTM 2 layers, hidden 128, 200 steps", sw.lstm_loss, _LSTM,
             sw.lstm_data, sw.lstm_hand, sw.lstm_hand_vec),
    Workload("S3c", "LSTM with a cell helper returning (h, c)", sw.lstm_cell_loss, _LSTM,
             sw.lstm_data, sw.lstm_hand, sw.lstm_hand_vec),
    Workload("S4", "N-body 16 bodies, 1,000 leapfrog steps", sw.nbody, ("q", "v", "m"),
             sw.nbody_data, sw.nbody_hand),
    Workload("S5", "logistic regression 100,000 x 50 f32", sw.logistic, ("w", "b"),
             sw.logistic_data, sw.logistic_hand, sw.logistic_hand_vec),
    Workload("S6", "RK4 16 states, 500 steps", sw.rk4, ("y", "W"), sw.rk4_data, sw.rk4_hand,
             sw.rk4_hand_vec),
    Workload("S6c", "RK4 with an rhs helper", sw.rk4_rhs, ("y", "W"), sw.rk4_data,
             sw.rk4_hand, sw.rk4_hand_vec),
]


# ---- checking -----------------------------------------------------------------------------
def relative_error(actual, expected):
    """Largest entry error over the largest entry, per gradient; None if shapes differ."""
    worst = 0.0
    for a, e in zip(actual, expected):
        a64, e64 = np.asarray(a, dtype=np.float64), np.asarray(e, dtype=np.float64)
        if a64.shape != e64.shape:
            return None
        scale = max(float(np.max(np.abs(e64))), 1e-12)
        worst = max(worst, float(np.max(np.abs(a64 - e64))) / scale)
    return worst if len(actual) == len(expected) else None


def tolerance(args):
    return 1e-4 if any(getattr(a, "dtype", None) == np.float32 for a in args) else 1e-7


def positions(w):
    names = w.fn.__code__.co_varnames[:w.fn.__code__.co_argcount]
    return [names.index(n) for n in w.wrt]


def finite_difference_check(w, args, hand, eps=1e-6):
    """Relative error of the hand gradient along a random direction, against a central
    difference of the primal computed in float64."""
    rng = np.random.default_rng(7)
    wide = [np.asarray(a, dtype=np.float64) if isinstance(a, (np.ndarray, np.floating))
            else a for a in args]
    at = positions(w)
    dirs = {i: rng.normal(size=np.shape(wide[i])) for i in at}

    def moved(t):
        return w.fn(*[a + t * dirs[i] if i in dirs else a for i, a in enumerate(wide)])
    fd = (moved(eps) - moved(-eps)) / (2 * eps)
    ad = sum(float(np.sum(np.asarray(g, dtype=np.float64) * dirs[i])) for g, i in zip(hand, at))
    return abs(ad - fd) / max(abs(fd), 1e-12)


def checked(fn, reference, tol):
    """fn if its gradient matches the hand-written one, else a Failure for the table."""
    result = try_call(fn)
    if isinstance(result, Failure):
        return result
    err = relative_error(result if isinstance(result, tuple) else (result,), reference)
    if err is None or not err <= tol:
        return Failure(ValueError(f"wrong gradient (relative error {err})"))
    return fn


# ---- peers ----------------------------------------------------------------------------------
PEERS = ("autograd", "jax", "jax.jit", "torch")
_IMPORTS = {"autograd": "autograd", "jax": "jax", "jax.jit": "jax", "torch": "torch"}


def autograd_gradient(w, args):
    """autograd.grad of the same source, np bound to autograd.numpy (helpers too)."""
    import autograd
    import autograd.numpy as anp
    space = dict(vars(sw))
    space["np"] = anp
    for name, value in vars(sw).items():
        if isinstance(value, types.FunctionType):
            space[name] = types.FunctionType(value.__code__, space, name, value.__defaults__)
    g = autograd.grad(space[w.fn.__name__], tuple(positions(w)))
    return lambda: tuple(np.asarray(v) for v in g(*args))


def peer_gradient(peer, w, args):
    """A zero-argument callable giving `peer`'s gradient of workload w as NumPy values."""
    if peer == "autograd":
        return autograd_gradient(w, args)
    if peer == "torch":
        import scientific_torch
        return scientific_torch.gradient(w.key, args, positions(w))
    import scientific_jax
    build = scientific_jax.eager if peer == "jax" else scientific_jax.jitted
    return build(w.key, args, positions(w))


def importable_peers(wanted):
    """The peers of `wanted` whose framework imports (the others are named and skipped)."""
    import peers as peer_setup               # JAX in float64, PyTorch on THREADS threads
    found = peer_setup.available()
    peer_setup.configure(THREADS)
    out = []
    for peer in wanted:
        if found.get(_IMPORTS[peer]) is None:
            print(f"{peer}: {_IMPORTS[peer]} is not importable, skipped")
        else:
            out.append(peer)
    return out


def timed_first_call(fn):
    """(fn if its first call succeeded else the Failure, seconds that call took)."""
    start = time.perf_counter()
    result = try_call(fn)
    return (result if isinstance(result, Failure) else fn), time.perf_counter() - start


# ---- one workload ---------------------------------------------------------------------------
def peer_impls(w, args, hand, tol, peers):
    """{peer: checked callable or Failure}, and the seconds of jax.jit's first call."""
    impls, first = {}, {}
    for peer in peers:
        built = try_call(lambda: peer_gradient(peer, w, args))
        if not isinstance(built, Failure) and peer == "jax.jit":
            built, first[peer] = timed_first_call(built)       # trace + compile + run
        impls[peer] = built if isinstance(built, Failure) else checked(built, hand, tol)
    return impls, first


def measure(w, quick, peers):
    args = w.data(quick)
    hand = w.hand(*args)
    fd_error = finite_difference_check(w, args, hand)
    tol = tolerance(args)
    if not fd_error <= 1e-4:
        raise AssertionError(f"{w.key}: the hand-written gradient is wrong "
                             f"(relative error {fd_error:.1e} against central differences)")
    g = grad(w.fn, w.wrt)
    impls = {"primal": lambda: w.fn(*args), "hand": lambda: w.hand(*args),
             "thunkgrad": checked(lambda: g(*args), hand, tol)}
    if w.hand_vec is not None:
        impls["hand-vec"] = checked(lambda: w.hand_vec(*args), hand, tol)
    more, first = peer_impls(w, args, hand, tol, peers)
    impls.update(more)
    stats = None
    if not isinstance(impls["thunkgrad"], Failure):
        with thunk_stats() as stats:
            g(*args)
    runnable = {k: v for k, v in impls.items() if not isinstance(v, Failure)}
    # quick: 5 rounds at least, as a slow peer (JAX eager: seconds a call) stretches each
    timed = interleaved_medians(runnable, rounds=5 if quick else 9, min_rounds=5,
                                budget_s=4.0 if quick else 25.0)
    medians = {k: v if isinstance(v, Failure) else
               (timed[k] if isinstance(timed[k], Failure) else timed[k]["median"])
               for k, v in impls.items()}
    first["thunkgrad"] = try_call(lambda: thunkgrad_first_gradient(w, args, 1 if quick else 3))
    return {"medians": medians, "stats": stats, "fd": fd_error, "first": first}


# ---- report -----------------------------------------------------------------------------------
def cell_us(value):
    if isinstance(value, Failure):
        return "fails: " + value.short(30)
    return "–" if value is None else f"{value * 1e6:,.0f}"


def cell_ms(value):
    if isinstance(value, Failure):
        return "fails: " + value.short(30)
    return "–" if value is None else f"{value * 1e3:,.0f}"


def over(a, b):
    ok = isinstance(a, float) and isinstance(b, float) and b > 0
    return f"{a / b:.2f}" if ok else ("fails" if isinstance(a, Failure) else "–")


def table(results, work):
    header = ["workload", "primal (µs)", "hand (µs)", "hand-vec (µs)", "thunkgrad (µs)",
              "tg / hand", "tg / hand-vec", "thunks (created / forced)", "hand vs FD"]
    rows = []
    for w in work:
        r = results[w.key]
        m, st = r["medians"], r["stats"]
        tg = m.get("thunkgrad")
        rows.append([f"{w.key} {w.title}", cell_us(m.get("primal")), cell_us(m.get("hand")),
                     cell_us(m.get("hand-vec")), cell_us(tg), over(tg, m.get("hand")),
                     over(tg, m.get("hand-vec")),
                     "–" if st is None else f"{st.created} / {st.forced}", f"{r['fd']:.0e}"])
    return markdown_table(header, rows)


def peer_table(results, work, peers):
    """Each implementation's time over the hand gradient's (same run), and first calls."""
    names = ["thunkgrad"] + list(peers)
    header = ["workload", "hand (µs)"] + [f"{n} / hand" for n in names]
    header += ["thunkgrad 1st call (ms)"] + (["jax.jit 1st call (ms)"] if "jax.jit" in peers
                                            else [])
    rows = []
    for w in work:
        m, first = results[w.key]["medians"], results[w.key]["first"]
        row = [w.key, cell_us(m.get("hand"))] + [over(m.get(n), m.get("hand")) for n in names]
        row.append(cell_ms(first.get("thunkgrad")))
        if "jax.jit" in peers:
            row.append(cell_ms(first.get("jax.jit")))
        rows.append(row)
    return markdown_table(header, rows)


def peer_failures(results, work):
    """Lines naming each implementation that failed, with its reason."""
    return [f"- {w.key} {name}: {value.short(200)}" for w in work
            for name, value in results[w.key]["medians"].items() if isinstance(value, Failure)]


def report(results, work, peers, quick, elapsed):
    import peers as peer_setup
    versions = peer_setup.versions()
    used = ", ".join(f"{p} {versions.get(_IMPORTS[p], '?')}" for p in peers) or "none"
    failures = peer_failures(results, work)
    return (f"# thunkgrad on scientific workloads (issue 19){' (quick sizes)' * quick}"
            f"\n\nMedians of interleaved runs, {THREADS or 'default'} BLAS/XLA/PyTorch "
            f"thread(s), NumPy {np.__version__}, peers: {used}; whole run {elapsed:.0f} s."
            f"\n\n" + table(results, work) + "\n\n## Against the hand gradient, peers "
            "included\n\nX / hand: X's median over the hand-written gradient's, in the same "
            "interleaved run (below 1: faster than the hand gradient). jax.jit excludes its "
            "first call (trace + compile + run), given on its own; thunkgrad's first call "
            "includes its compile.\n\n" + peer_table(results, work, peers) + "\n"
            + ("\nFailures:\n" + "\n".join(failures) + "\n" if failures else ""))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        default=bool(os.environ.get("THUNKGRAD_BENCH_QUICK")),
                        help="smaller sizes and fewer rounds (also THUNKGRAD_BENCH_QUICK=1)")
    parser.add_argument("--only", help="comma-separated workload keys, e.g. S1,S1c")
    parser.add_argument("--no-peers", action="store_true", help="skip every peer")
    parser.add_argument("--peers", default=",".join(PEERS),
                        help="comma-separated peers (default: %(default)s)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    wanted = [] if args.no_peers else [p for p in args.peers.split(",") if p]
    unknown = set(wanted) - set(PEERS)
    if unknown:
        parser.error(f"unknown peers {sorted(unknown)}; known: {', '.join(PEERS)}")
    peers = importable_peers(wanted)
    work = [w for w in WORKLOADS if not args.only or w.key in args.only.split(",")]
    results, start = {}, time.perf_counter()
    for w in work:
        t0 = time.perf_counter()
        print(f"{w.key}: {w.title} ...", end=" ", flush=True)
        results[w.key] = measure(w, args.quick, peers)
        print(f"{time.perf_counter() - t0:.1f} s", flush=True)
    text = report(results, work, peers, args.quick, time.perf_counter() - start)
    print()
    print(text)
    RESULTS.mkdir(parents=True, exist_ok=True)
    partial = args.quick or args.only or len(peers) < len(PEERS)
    (RESULTS / ("scientific-partial.md" if partial else "scientific.md")).write_text(text)
    return results


if __name__ == "__main__":
    main()
