"""Issue 8: thunkgrad against a hand-written gradient and the peer AD systems.

Workloads (benchmarks/workloads.py):

    W1  seed loop: sum((W @ x_i)[0] for x_i in xs), W 10x10 float32, 512 vectors
    W2  sum(w @ x) + norm(w), w 2x10, x 10x100
    W3  bias only, dense loop: s += sum(tanh(W @ x + b)), n = 500, W 3x10
    W4  MLP 784-256-10, batch 256, float32, softmax cross-entropy (stable logsumexp)
    W5  scalar loop: x = x*0.999 + 0.001*sin(x), 10,000 steps
    W6  RNN, hidden 64, input 32, 100 steps, float64, tanh

Implementations: the primal alone, a hand-written NumPy gradient keeping the
primal's loop structure ("hand-loop"), thunkgrad (`grad`, default policy),
and, when they import, autograd, JAX (`jax.grad` eager and
`jax.jit(jax.grad(...))`, whose compile is timed separately) and PyTorch.
Every gradient is checked against hand-loop before anything is timed.
Implementations are timed round-robin (benchmarks/harness_utils.py), so the
ratios hold on a noisy machine; the table quotes medians.

Also measured: time to first gradient (compile + first call) for thunkgrad
and jax.jit, and the compile time of a generated 100-line function.

Writes benchmarks/results/table.md and, with matplotlib, ratios.png.

Run:  .venv/bin/python benchmarks/run.py [--quick] [--only W1,W2] [--profile]
"""
import argparse
import cProfile
import importlib.util
import io
import os
import platform
import pstats
import random
import statistics
import sys
import tempfile
import time
import types
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness_utils import pin_threads                # noqa: E402

THREADS = pin_threads()                              # before NumPy and the peers load

import numpy as np                                   # noqa: E402

import transform                                     # noqa: E402
import transform.api                                 # noqa: E402
from transform import adjoint_source, grad           # noqa: E402

import peers                                         # noqa: E402
import workloads as wl                               # noqa: E402
from harness_utils import (Failure, fmt_time, freeze_heap, interleaved_medians,  # noqa: E402
                           markdown_table, try_call)

RESULTS = HERE / "results"
PEER_COLUMNS = ("autograd", "jax", "jax.jit", "torch")
TARGET_HAND_RATIO = 1.3
HAND_RATIO_TARGETS = {"W4": 1.1}                 # where NumPy dominates, the bar is higher
TEN_TIMES_AUTOGRAD = ("W1", "W3", "W5", "W6")
TARGET_FIRST_GRADIENT_S = 0.1
TARGET_COMPILE_100_S = 0.05


class Workload:
    def __init__(self, key, title, fn, wrt, data, hand, budget_s=12.0, rounds=11):
        self.key, self.title, self.fn, self.wrt = key, title, fn, wrt
        self.data, self.hand = data, hand
        self.budget_s, self.rounds = budget_s, rounds


WORKLOADS = [
    Workload("W1", "seed loop sum((W @ x_i)[0]), W 10x10 f32, 512 vectors",
             wl.seed, 0, lambda: wl.seed_data(512), wl.seed_hand),
    Workload("W2", "sum(w @ x) + norm(w), w 2x10, x 10x100",
             wl.small_regression, "w", wl.small_regression_data, wl.small_regression_hand),
    Workload("W3", "bias only, dense loop n=500, W 3x10",
             wl.bias_loop, "b", lambda: wl.bias_data(500), wl.bias_hand),
    Workload("W4", "MLP 784-256-10, batch 256, f32, softmax cross-entropy",
             wl.mlp_loss, ("W1", "b1", "W2", "b2"), wl.mlp_data, wl.mlp_hand),
    Workload("W5", "scalar loop x*0.999 + 0.001*sin(x), 10,000 steps",
             wl.scalar_loop, "x", wl.scalar_loop_data, wl.scalar_loop_hand,
             budget_s=20.0, rounds=5),
    Workload("W6", "RNN hidden 64, input 32, 100 steps, f64, tanh",
             wl.rnn_loss, ("Wh", "Wx", "b"), wl.rnn_data, wl.rnn_hand),
]


# ---- checking ------------------------------------------------------------------
def mismatch(actual, expected):
    """None if `actual` matches the hand-written gradient, else a reason."""
    actual = actual if isinstance(actual, tuple) else (actual,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    if len(actual) != len(expected):
        return f"{len(actual)} gradients, expected {len(expected)}"
    for a, e in zip(actual, expected):
        e64 = np.asarray(e, dtype=np.float64)
        a64 = np.asarray(a, dtype=np.float64)
        if a64.shape != e64.shape:
            return f"shape {a64.shape}, expected {e64.shape}"
        tol = 1e-4 if np.asarray(e).dtype == np.float32 else 1e-7
        scale = max(float(np.max(np.abs(e64))) if e64.size else 0.0, 1e-12)
        err = float(np.max(np.abs(a64 - e64))) / scale if e64.size else 0.0
        if not err <= tol:
            return f"wrong gradient (relative error {err:.1e})"
    return None


class WrongGradient(Exception):
    pass


def checked(name, fn, reference):
    """fn if its gradient matches, else a Failure (kept for the table)."""
    result = try_call(fn)
    if isinstance(result, Failure):
        return result
    problem = mismatch(result, reference)
    return Failure(WrongGradient(problem)) if problem else fn


# ---- time to first gradient ----------------------------------------------------------
def fresh_copy(fn):
    """The same function as a new object, so no compiled rule is cached for it."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)
    copy.__dict__.update(fn.__dict__)
    copy.__qualname__, copy.__module__ = fn.__qualname__, fn.__module__
    return copy


def clear_compiled():
    cache = getattr(transform.api, "_CACHE", None)
    if cache is not None:
        cache.clear()


def thunkgrad_first_gradient(w, args, repeats=3):
    """Median seconds of compile + first call, each on a fresh function object."""
    times = []
    for _ in range(repeats):
        clear_compiled()
        fn = fresh_copy(w.fn)
        start = time.perf_counter()
        grad(fn, w.wrt)(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# ---- the 100-line function -------------------------------------------------------------
def hundred_line_source(lines=100, seed=0):
    """A module whose function `big(x, W, b)` has `lines` body lines: straight-line
    NumPy code, a for loop and an if/else."""
    rng = random.Random(seed)
    body = ["h0 = np.tanh(W @ x + b)", "s = 0.0"]
    names = ["h0"]
    templates = ["{a} * 0.5 + {b}", "np.tanh({a}) * {b}", "np.sin({a}) - np.cos({b})",
                 "{a} / (1.0 + {b} * {b})", "np.exp(-{a} * {a}) + {b}", "W @ {a} + b",
                 "{a} * {b} - 0.25 * {a}", "np.sqrt(1.0 + {a} * {a}) * {b}"]

    def statement(indent=""):
        a, c = rng.choice(names[-6:]), rng.choice(names)
        name = f"h{len(names)}"
        names.append(name)
        return indent + f"{name} = " + rng.choice(templates).format(a=a, b=c)

    loop_lines, if_lines = 12, 3
    straight = lines - len(body) - 1 - loop_lines - 2 - 2 * if_lines - 1  # headers, return
    for _ in range(straight // 2):
        body.append(statement())
    body.append("for i in range(3):")
    carried = names[-1]
    for k in range(loop_lines - 1):
        body.append(statement("    "))
    body.append(f"    s = s + np.sum({names[-1]} * {carried})")
    body.append(f"if np.sum({names[-1]}) > 0.0:")
    before = list(names)
    branch = [f"h{len(names) + k}" for k in range(if_lines // 2)]
    for name in branch:                     # both branches bind the same names
        a, c = rng.choice(before[-6:]), rng.choice(before)
        body.append(f"    {name} = " + rng.choice(templates).format(a=a, b=c))
    body.append("else:")
    for name in branch:
        a, c = rng.choice(before[-6:]), rng.choice(before)
        body.append(f"    {name} = " + rng.choice(templates).format(a=a, b=c))
    names += branch
    last_then = branch[-1]
    while len(body) < lines - 1:
        body.append(statement())
    body.append(f"return s + np.sum({names[-1]} * {last_then})")
    assert len(body) == lines, len(body)
    text = "import numpy as np\n\n\ndef big(x, W, b):\n" + \
        "".join(f"    {line}\n" for line in body)
    return text


def compile_hundred_lines(repeats=7):
    """(median seconds of adjoint_source on a fresh 100-line function, gradient check)."""
    text = hundred_line_source()
    folder = Path(tempfile.mkdtemp(prefix="thunkgrad-bench-"))
    path = folder / "hundred_lines.py"
    path.write_text(text)
    times, module = [], None
    for k in range(repeats):
        spec = importlib.util.spec_from_file_location(f"hundred_lines_{k}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        start = time.perf_counter()
        result = try_call(lambda: adjoint_source(module.big, wrt=("x", "W", "b")))
        if isinstance(result, Failure):
            return result, None
        times.append(time.perf_counter() - start)
    # the gradient against a central difference along a random direction
    rng = np.random.default_rng(1)
    n = 8
    x, W, b = rng.normal(size=n) * 0.5, rng.normal(size=(n, n)) / n, rng.normal(size=n) * 0.1
    g = try_call(lambda: grad(module.big, ("x", "W", "b"))(x, W, b))
    if isinstance(g, Failure):
        return statistics.median(times), g
    dx, dW, db = (rng.normal(size=a.shape) for a in (x, W, b))
    eps = 1e-6
    fd = (module.big(x + eps * dx, W + eps * dW, b + eps * db)
          - module.big(x - eps * dx, W - eps * dW, b - eps * db)) / (2 * eps)
    ad = float(np.sum(g[0] * dx) + np.sum(g[1] * dW) + np.sum(g[2] * db))
    return statistics.median(times), abs(ad - fd) / max(abs(fd), 1e-12)


# ---- one workload ------------------------------------------------------------------------
def measure(w, available, quick=False):
    args = w.data()
    reference = w.hand(*args)
    impls = {"primal": lambda: w.fn(*args), "hand-loop": lambda: w.hand(*args)}
    g = grad(w.fn, w.wrt)
    impls["thunkgrad"] = checked("thunkgrad", lambda: g(*args), reference)
    for peer in peers.PEERS:
        if available.get(peer) is None:
            continue
        built = try_call(lambda: peers.build(peer, w.key, args))
        if isinstance(built, Failure):
            impls[peer] = built
            continue
        for name, fn in built.items():
            impls[name] = checked(name, fn, reference)
    first = {}
    if available.get("jax") is not None:
        factory = try_call(lambda: peers.jax_jit_factory(w.key, args))
        if isinstance(factory, Failure):
            impls["jax.jit"] = factory
        else:
            fn = factory()
            start = time.perf_counter()
            result = try_call(fn)
            first["jax.jit"] = time.perf_counter() - start
            if isinstance(result, Failure):
                impls["jax.jit"] = result
            else:
                problem = mismatch(result, reference)
                impls["jax.jit"] = Failure(WrongGradient(problem)) if problem else fn
    first["thunkgrad"] = try_call(lambda: thunkgrad_first_gradient(w, args,
                                                                  1 if quick else 3))
    runnable = {k: v for k, v in impls.items() if not isinstance(v, Failure)}
    timed = interleaved_medians(runnable, rounds=3 if quick else w.rounds,
                                budget_s=w.budget_s / (4 if quick else 1))
    medians = {}
    for name, value in impls.items():
        if isinstance(value, Failure):
            medians[name] = value
        else:
            result = timed[name]
            medians[name] = result if isinstance(result, Failure) else result["median"]
    return {"medians": medians, "first": first}


# ---- report ---------------------------------------------------------------------------
def us(value):
    if isinstance(value, Failure):
        return "fails: " + value.short(30)
    if value is None:
        return "–"
    return f"{value * 1e6:,.1f}"


def ratio(a, b):
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        return a / b
    return None


def fmt_ratio(r):
    return "–" if r is None else f"{r:.2f}"


def tables(results, work, compile100, versions, elapsed):
    cols = ["primal", "hand-loop", "thunkgrad"] + list(PEER_COLUMNS)
    header = ["workload"] + [f"{c} (µs)" for c in cols] + \
        ["tg / hand-loop"] + [f"tg / {p}" for p in PEER_COLUMNS]
    rows = []
    for w in work:
        m = results[w.key]["medians"]
        tg = m.get("thunkgrad")
        row = [f"{w.key} {w.title}"] + [us(m.get(c)) for c in cols]
        row.append(fmt_ratio(ratio(tg, m.get("hand-loop"))))
        row += [fmt_ratio(ratio(tg, m.get(p))) for p in PEER_COLUMNS]
        rows.append(row)
    first_rows = []
    for w in work:
        f = results[w.key]["first"]
        first_rows.append([w.key, fmt_time(f.get("thunkgrad")), fmt_time(f.get("jax.jit"))])
    lines = ["# thunkgrad against hand-written gradients and peers (issue 8)", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, "
             f"{os.cpu_count()} CPUs, Python {platform.python_version()}, NumPy "
             f"{np.__version__}; " + ", ".join(f"{k} {v}" for k, v in versions.items()) +
             f"; {THREADS or 'default'} BLAS/XLA/PyTorch thread(s); whole run "
             f"{elapsed:.0f} s.", "",
             "Median time of one gradient call (forward + backward) in microseconds, "
             "implementations interleaved round-robin; `primal` is the function alone. "
             "Every gradient was checked against hand-loop first. `tg / X` is thunkgrad's "
             "time over X's: below 1 thunkgrad is faster. jax.jit excludes its compile "
             "(see the next table). JAX's W5 uses lax.fori_loop (10,000 unrolled steps "
             "would not compile in the time budget); the others keep Python loops.", "",
             markdown_table(header, rows), "",
             "## Time to first gradient (compile + first call)", "",
             markdown_table(["workload", "thunkgrad", "jax.jit"], first_rows), "",
             "## Compile time of a 100-line function", ""]
    t100, check = compile100
    if isinstance(t100, Failure):
        lines.append(f"adjoint_source failed: {t100.short(200)}")
    else:
        check_text = check.short(120) if isinstance(check, Failure) else \
            f"gradient vs central difference along a random direction: relative error " \
            f"{check:.1e}"
        lines.append(f"`adjoint_source` on a fresh generated 100-line function (straight-line "
                     f"NumPy, a for loop, an if/else), median of fresh compiles: "
                     f"**{fmt_time(t100)}**; {check_text}.")
    lines += ["", "## Targets", ""] + targets(results, work, compile100)
    return "\n".join(lines) + "\n"


def targets(results, work, compile100):
    out = []

    def verdict(ok):
        return "**holds**" if ok else "**misses**"

    def tg_over(key, other):
        m = results[key]["medians"]
        return ratio(m.get("thunkgrad"), m.get(other))
    for w in work:
        r, limit = tg_over(w.key, "hand-loop"), HAND_RATIO_TARGETS.get(w.key, TARGET_HAND_RATIO)
        out.append(f"* {w.key}: thunkgrad / hand-loop = {fmt_ratio(r)} (target <= "
                   f"{limit}): {verdict(r is not None and r <= limit)}")
    for peer, limit, keys in (("autograd", 1.0, None), ("torch", 1.0, None),
                              ("autograd", 0.1, TEN_TIMES_AUTOGRAD)):
        chosen = [w for w in work if keys is None or w.key in keys]
        found = {w.key: tg_over(w.key, peer) for w in chosen}
        parts = [f"{k} {fmt_ratio(r)}" for k, r in found.items()]
        measured = [r for r in found.values() if r is not None]
        label = (f"faster than {peer} (tg / {peer} < 1)" if limit == 1.0 else
                 f"at least 10x faster than {peer} on {', '.join(keys)} (tg / {peer} <= 0.1)")
        if not measured:
            out.append(f"* {label}: not measured ({peer} missing)")
            continue
        ok = all(r < limit if limit == 1.0 else r <= limit for r in measured)
        out.append(f"* {label}: " + ", ".join(parts) + f": {verdict(ok)}")
    firsts = [(w.key, results[w.key]["first"].get("thunkgrad")) for w in work]
    ok = all(isinstance(t, float) and t < TARGET_FIRST_GRADIENT_S for _, t in firsts)
    out.append("* time to first gradient < 0.1 s: " +
               ", ".join(f"{k} {fmt_time(t)}" for k, t in firsts) + f": {verdict(ok)}")
    t100 = compile100[0]
    ok = isinstance(t100, float) and t100 < TARGET_COMPILE_100_S
    out.append(f"* 100-line compile < 50 ms: {fmt_time(t100)}: {verdict(ok)}")
    return out


def chart(results, work, path):
    """Grouped bars of thunkgrad's time ratios, log scale; False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:                                    # noqa: BLE001
        return False
    against = ["hand-loop"] + list(PEER_COLUMNS)
    fig, ax = plt.subplots(figsize=(10, 5))
    width = 0.8 / len(against)
    for k, other in enumerate(against):
        values = []
        for w in work:
            r = ratio(results[w.key]["medians"].get("thunkgrad"),
                      results[w.key]["medians"].get(other))
            values.append(r if r is not None else np.nan)
        xs = np.arange(len(work)) + (k - (len(against) - 1) / 2) * width
        ax.bar(xs, values, width, label=f"thunkgrad / {other}")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(TARGET_HAND_RATIO, color="gray", linewidth=0.8, linestyle="--",
               label=f"{TARGET_HAND_RATIO} (hand-loop target)")
    ax.set_yscale("log")
    ax.set_xticks(np.arange(len(work)))
    ax.set_xticklabels([w.key for w in work])
    ax.set_ylabel("time ratio (below 1: thunkgrad faster)")
    ax.set_title("thunkgrad gradient time relative to hand-written NumPy and peers")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


# ---- profiling ------------------------------------------------------------------------
def profile(keys=("W1", "W2", "W5"), top=18):
    """cProfile of thunkgrad's gradient call on some workloads; returns the text."""
    out = io.StringIO()
    for w in WORKLOADS:
        if w.key not in keys:
            continue
        args = w.data()
        g = grad(w.fn, w.wrt)
        g(*args)
        calls = 1 if w.key == "W5" else 200 if w.key == "W1" else 5000
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(calls):
            g(*args)
        profiler.disable()
        out.write(f"\n==== {w.key} {w.title}: {calls} gradient calls ====\n")
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a smoke test)")
    parser.add_argument("--only", help="comma-separated workload keys, e.g. W1,W5")
    parser.add_argument("--no-peers", action="store_true", help="skip autograd, JAX, PyTorch")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS/OpenMP/XLA/PyTorch threads (default 1; 0 leaves the "
                             "libraries' defaults)")
    parser.add_argument("--profile", action="store_true",
                        help="print cProfile of thunkgrad on W1, W2, W5 and exit")
    args = parser.parse_args(argv)
    if args.profile:
        print(profile())
        return None
    warnings.filterwarnings("ignore")
    start = time.perf_counter()
    peers.configure(THREADS)
    available = {} if args.no_peers else peers.available()
    versions = {"thunkgrad": "0.1.0"}
    if not args.no_peers:
        versions.update(peers.versions())
    for name, module in available.items():
        if module is None:
            print(f"{name} is not importable: skipped")
    work = WORKLOADS
    if args.only:
        keep = set(args.only.split(","))
        work = [w for w in WORKLOADS if w.key in keep]
    results = {}
    for w in work:
        t0 = time.perf_counter()
        print(f"{w.key}: {w.title} ...", end=" ", flush=True)
        freeze_heap()
        results[w.key] = measure(w, available, args.quick)
        print(f"{time.perf_counter() - t0:.1f} s", flush=True)
    print("100-line compile ...", end=" ", flush=True)
    compile100 = compile_hundred_lines(3 if args.quick else 7)
    print("done", flush=True)
    elapsed = time.perf_counter() - start
    text = tables(results, work, compile100, versions, elapsed)
    print()
    print(text)
    RESULTS.mkdir(parents=True, exist_ok=True)
    partial = args.quick or args.only or args.no_peers
    table = RESULTS / ("table-partial.md" if partial else "table.md")
    table.write_text(text)
    png = RESULTS / ("ratios-partial.png" if partial else "ratios.png")
    if chart(results, work, png):
        print(f"written to {table} and {png}")
    else:
        print(f"written to {table} (matplotlib not importable: no chart)")
    return results


if __name__ == "__main__":
    main()
