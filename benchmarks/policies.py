"""Issue 4: the four accumulation policies side by side.

For each case and each policy ("loop", the default; "eager"; "flat"; "nested")
this prints, and writes to benchmarks/results/policies.md:

* the median time of one gradient call, policies interleaved round-robin;
* the peak memory of one call (tracemalloc, a separate run from the timing);
* thunks created and forced and the deepest forcing chain (thunk_stats);
* the failure, in the policy's cells, when a policy raises or is wrong.

Every gradient is checked against a hand-written NumPy gradient first; the
hand-written gradient is also timed, as a reference row.

Run:  .venv/bin/python benchmarks/policies.py [--quick]
"""
import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness_utils import pin_threads                      # noqa: E402

THREADS = pin_threads()                                    # before NumPy loads

import numpy as np                                         # noqa: E402

import transform                                           # noqa: E402
import transform.api                                       # noqa: E402
from transform import grad, thunk_stats                    # noqa: E402

import workloads as wl                                     # noqa: E402
from harness_utils import (Failure, fmt_bytes, fmt_time, freeze_heap,   # noqa: E402
                           interleaved_medians, markdown_table, peak_memory, try_call)

from transform.analysis.accumulation import POLICIES  # noqa: E402
RESULTS = Path(__file__).resolve().parent / "results"


class Case:
    """One row group of the table: a function, what to differentiate, its data."""

    def __init__(self, key, title, fn, wrt, data, hand, rounds=9, budget_s=12.0,
                 expect=None):
        self.key, self.title, self.fn, self.wrt = key, title, fn, wrt
        self.data, self.hand = data, hand
        self.rounds, self.budget_s = rounds, budget_s
        self.expect = expect            # optional extra check of the gradient


def seed_expected(n):
    def check(g):
        want = np.zeros((10, 10), dtype=np.float32)
        want[0] = n
        if g.dtype != np.float32:
            return f"dtype {g.dtype}, expected float32"
        if not np.array_equal(g, want):
            return f"expected row 0 all {n} and zeros elsewhere, got row 0 {g[0, :3]}..., " \
                   f"rest sum {g[1:].sum()}"
        return None
    return check


def cases(quick=False):
    big = 20_000 if quick else 100_000
    return [
        Case("1a", "seed MWE: sum((W @ x)[0] for x in xs), 512 vectors, W 10x10 f32",
             wl.seed, 0, lambda: wl.seed_data(512), wl.seed_hand,
             expect=seed_expected(512)),
        Case("1b", f"seed MWE, {big:,} vectors",
             wl.seed, 0, lambda: wl.seed_data(big), wl.seed_hand,
             rounds=3, budget_s=10.0 if quick else 25.0, expect=seed_expected(big)),
        Case("2a", "bias only: s += sum(tanh(W @ x + b)), n = 50, wrt b",
             wl.bias_loop, "b", lambda: wl.bias_data(50), wl.bias_hand),
        Case("2b", "bias only, n = 500, wrt b",
             wl.bias_loop, "b", lambda: wl.bias_data(500), wl.bias_hand),
        Case("3", "laziness (Zygote PR #1555): sum(z @ x) / sum(z) / sum(x), z 200x200, "
             "x 200x50, wrt x",
             wl.laziness, "x", wl.laziness_data, wl.laziness_hand),
        Case("4", "callee offers more: layer(W, b, x) = tanh(W @ x + b), W 1000x1000, "
             "loss wrt b only",
             wl.layer_loss, "b", wl.layer_data, wl.layer_hand),
        Case("5", "many uses: x*1.0 + x*2.0 + ... + x*20.0, x 1000x1000, wrt x",
             wl.many_uses, 0, wl.many_uses_data, wl.many_uses_hand, rounds=7),
        Case("6", "small regression: sum(w @ x) + norm(w), w 2x10, x 10x100, wrt w",
             wl.small_regression, "w", wl.small_regression_data, wl.small_regression_hand),
    ]


def close(actual, expected):
    """None if the gradients agree, else a reason."""
    actual = actual if isinstance(actual, tuple) else (actual,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    for a, e in zip(actual, expected):
        a, e = np.asarray(a, dtype=np.float64), np.asarray(e, dtype=np.float64)
        if a.shape != e.shape:
            return f"shape {a.shape}, expected {e.shape}"
        scale = max(1.0, float(np.max(np.abs(e))) if e.size else 1.0)
        err = float(np.max(np.abs(a - e))) / scale if e.size else 0.0
        if not err <= 1e-5:
            return f"wrong gradient (relative error {err:.1e})"
    return None


class WrongGradient(Exception):
    pass


def measure_case(case):
    """{policy or "hand": {"time", "memory", "stats", "error"}} for one case."""
    args = case.data()
    reference = case.hand(*args)
    out = {}
    calls = {}
    for policy in POLICIES:
        g = grad(case.fn, case.wrt, policy=policy)
        first = try_call(lambda g=g: g(*args))
        problem = first if isinstance(first, Failure) else \
            close(first, reference) or (case.expect(first) if case.expect else None)
        if isinstance(problem, str):
            problem = Failure(WrongGradient(problem))
        out[policy] = {"error": problem}
        if problem is None:
            calls[policy] = (lambda g=g: g(*args))
    calls["hand"] = lambda: case.hand(*args)
    out["hand"] = {"error": None}
    for name, call in calls.items():
        if name != "hand":
            with thunk_stats() as stats:
                call()
            out[name]["stats"] = stats
        out[name]["memory"] = peak_memory(call)
    timings = interleaved_medians(calls, rounds=case.rounds, budget_s=case.budget_s)
    for name, result in timings.items():
        out[name]["time"] = result if isinstance(result, Failure) else result["median"]
    if case.key == "4":
        out["w_work"] = count_w_shaped_work(case, args)
    return out


def count_w_shaped_work(case, args):
    """How many times each policy computes layer's W cotangent (matmul_lhs) while
    differentiating the loss for b only: instruments the compiled callee."""
    counts = {}
    for policy in POLICIES:
        # compiled rules of the callee: {(wrt, policy, ...): Compiled}; the key's
        # layout is internal, so match the policy anywhere in it
        compiled = transform.api._CACHE.get(wl.layer, {})
        namespaces = [c.rrule.__globals__ for key, c in compiled.items()
                      if policy in key and "matmul_lhs" in c.rrule.__globals__]
        if not namespaces:
            counts[policy] = None
            continue
        seen = [0]
        originals = [ns["matmul_lhs"] for ns in namespaces]

        def counting(*a, _original=originals[0], **k):
            seen[0] += 1
            return _original(*a, **k)
        for ns in namespaces:
            ns["matmul_lhs"] = counting
        try:
            try_call(lambda: grad(case.fn, case.wrt, policy=policy)(*args))
        finally:
            for ns, original in zip(namespaces, originals):
                ns["matmul_lhs"] = original
        counts[policy] = seen[0]
    return counts


def cell_time(entry):
    if entry.get("error") is not None:
        return entry["error"].short(48)
    return fmt_time(entry.get("time"))


def render(all_results, case_list, elapsed):
    header = ["case", "policy", "median time", "× hand", "peak memory", "thunks created",
              "thunks forced", "max depth"]
    rows = []
    for case in case_list:
        res = all_results[case.key]
        hand_time = res["hand"].get("time")
        for name in POLICIES + ("hand",):
            entry = res[name]
            label = "hand-written NumPy" if name == "hand" else name
            if entry.get("error") is not None:
                fail = entry["error"].short(60)
                rows.append([case.key, label, f"**fails**: {fail}", "–", "–", "–", "–", "–"])
                continue
            t = entry.get("time")
            ratio = (f"{t / hand_time:.2f}" if isinstance(t, float) and
                     isinstance(hand_time, float) and name != "hand" else "–")
            stats = entry.get("stats")
            rows.append([case.key, label, fmt_time(t), ratio, fmt_bytes(entry.get("memory")),
                         stats.created if stats else "–", stats.forced if stats else "–",
                         stats.max_depth if stats else "–"])
    lines = ["# Accumulation policies (issue 4)", "",
             f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, "
             f"{os.cpu_count()} CPUs, Python {platform.python_version()}, "
             f"NumPy {np.__version__}, {THREADS or 'default'} BLAS thread(s); whole run "
             f"{elapsed:.0f} s.", "",
             "Median time of one gradient call (policies interleaved round-robin); peak "
             "memory of one call above the inputs (tracemalloc, a separate run); thunk "
             "counts from `thunk_stats` (a third run). `× hand` is the time relative to "
             "the hand-written NumPy gradient of the same case.", "",
             "Cases:", ""]
    lines += [f"* **{c.key}** {c.title}" for c in case_list]
    lines += ["", markdown_table(header, rows), ""]
    return "\n".join(lines)


def ratio(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b:
        return a / b
    return None


def fmt_ratio(r):
    return "n/a (a policy failed)" if r is None else f"{r:.2f}"


def key_ratios(all_results):
    lines = ["## Key ratios", ""]
    big = all_results.get("1b")
    if big:
        mem = ratio(big["loop"].get("memory"), big["flat"].get("memory"))
        tim = ratio(big["loop"].get("time"), big["flat"].get("time"))
        lines.append(f"* case 1b (seed MWE, many vectors): loop peak memory / flat peak "
                     f"memory = **{fmt_ratio(mem)}**; loop time / flat time = "
                     f"**{fmt_ratio(tim)}**")
    many = all_results.get("5")
    if many:
        mem = ratio(many["loop"].get("memory"), many["eager"].get("memory"))
        tim = ratio(many["loop"].get("time"), many["eager"].get("time"))
        lines.append(f"* case 5 (20 uses in straight-line code): loop peak / eager peak = "
                     f"**{fmt_ratio(mem)}**; loop time / eager time = **{fmt_ratio(tim)}**")
    small = all_results.get("6")
    if small:
        parts = []
        for policy in POLICIES:
            r = ratio(small[policy].get("time"), small["hand"].get("time"))
            parts.append(f"{policy} {fmt_ratio(r)}")
        lines.append("* case 6 (small regression): thunkgrad time / hand-written NumPy "
                     "time: " + ", ".join(parts))
    layer = all_results.get("4")
    if layer:
        counts = layer.get("w_work", {})
        parts = []
        for policy in POLICIES:
            stats = layer[policy].get("stats")
            made = f"{stats.created} created, {stats.forced} forced" if stats else "failed"
            n = counts.get(policy)
            parts.append(f"{policy}: W cotangent computed {'?' if n is None else n}× "
                         f"({made})")
        lines.append("* case 4 (callee offers dW, caller wants db): " + "; ".join(parts))
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller big case, fewer rounds (a smoke test)")
    parser.add_argument("--only", help="comma-separated case keys, e.g. 1a,5")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS/OpenMP threads (default 1; 0 leaves NumPy's default)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    case_list = cases(args.quick)
    if args.only:
        keep = set(args.only.split(","))
        case_list = [c for c in case_list if c.key in keep]
    if args.quick:
        for case in case_list:
            case.rounds, case.budget_s = 3, min(case.budget_s, 3.0)
    results = {}
    for case in case_list:
        t0 = time.perf_counter()
        print(f"case {case.key}: {case.title} ...", end=" ", flush=True)
        freeze_heap()
        results[case.key] = measure_case(case)
        print(f"{time.perf_counter() - t0:.1f} s", flush=True)
    elapsed = time.perf_counter() - start
    text = render(results, case_list, elapsed) + "\n" + key_ratios(results)
    print()
    print(text)
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = "policies.md" if not (args.quick or args.only) else "policies-partial.md"
    (RESULTS / name).write_text(text)
    print(f"written to {RESULTS / name}")
    return results


if __name__ == "__main__":
    main()
