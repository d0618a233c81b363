"""Issue 20's hvp point: thunkgrad's Hessian-vector product on the MLP (W4) and the RNN
(W6) against one gradient, "within 4x the time of one gradient".

For each workload, timed round-robin in one process (benchmarks/harness_utils.py):

    grad (wrt)       thunkgrad's gradient with respect to the hvp's argument (W1, Wh)
    grad (workload)  the gradient benchmarks/run.py times (W1, b1, W2, b2; Wh, Wx, b)
    hvp (wrt)        transform.hvp along a random direction, wrt W1 / Wh (its default
                     route, "auto" since session 38)
    hvp rev-over-fwd route="reverse_over_forward": grad of forward mode's tangent code
    hvp fwd-over-rev route="forward_over_reverse": forward mode over the gradient's code
    hvp auto         route="auto": forward over reverse where it compiles
    hand grad        the hand-written NumPy gradient of benchmarks/workloads.py
    hand hvp         a hand-written NumPy R-operator (Pearlmutter) hvp: the forward and
                     backward sweeps of the gradient with their directional derivatives

Every hvp is checked against the hand hvp before anything is timed. The whole
measurement runs `--runs` times (default 3); the table quotes each implementation's
median over the runs' medians, and the ratios' spread over the runs. Ratio targets live
here, never in timed tests (tests/benchmarks/test_hvp_bench.py only runs it tiny).

Run:  .venv/bin/python benchmarks/hvp.py [--quick] [--runs 3] [--threads 1] [--clock cpu]
"""
import argparse
import inspect
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness_utils import pin_threads                # noqa: E402

THREADS = pin_threads()                              # before NumPy loads

import numpy as np                                   # noqa: E402

from transform import grad, hvp                      # noqa: E402

import workloads as wl                               # noqa: E402
import harness_utils                                 # noqa: E402
from harness_utils import fmt_time, freeze_heap, interleaved_medians, markdown_table  # noqa: E402

TARGET_HVP_OVER_GRAD = 4.0


# ---- hand-written hvps ---------------------------------------------------------------
def mlp_hand_hvp(W1, b1, W2, b2, X, Y, V):
    """H v wrt W1 of mlp_loss: R{.} is the derivative along W1 + eps V."""
    h = np.tanh(X @ W1 + b1)
    Rh = (1 - h * h) * (X @ V)
    z = h @ W2 + b2
    Rz = Rh @ W2
    e = np.exp(z - np.max(z, axis=1, keepdims=True))
    p = e / np.sum(e, axis=1, keepdims=True)
    n = np.float32(X.shape[0])
    dz = (p - Y) / n
    Rdz = p * (Rz - np.sum(p * Rz, axis=1, keepdims=True)) / n
    dh = dz @ W2.T
    Rdh = Rdz @ W2.T
    Rda = Rdh * (1 - h * h) - 2 * dh * h * Rh
    return X.T @ Rda


def rnn_hand_hvp(Wh, Wx, b, xs, h0, V):
    """H v wrt Wh of rnn_loss: the forward loop carries R{h}, the backward loop R{dh}."""
    h, Rh = h0, np.zeros_like(h0)
    hs, Rhs = [h], [Rh]
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x + b)
        Rh = (1.0 - h * h) * (V @ hs[-1] + Wh @ Rh)
        hs.append(h)
        Rhs.append(Rh)
    RdWh = np.zeros_like(Wh)
    dh, Rdh = 2.0 * h, 2.0 * Rh
    for t in range(len(xs) - 1, -1, -1):
        h, Rh = hs[t + 1], Rhs[t + 1]
        da = dh * (1.0 - h * h)
        Rda = Rdh * (1.0 - h * h) - 2.0 * dh * h * Rh
        RdWh += np.outer(Rda, hs[t]) + np.outer(da, Rhs[t])
        dh, Rdh = Wh.T @ da, V.T @ da + Wh.T @ Rda
    return RdWh


class Case:
    """One workload: its loss, the hvp's argument, data and hand-written derivatives."""

    def __init__(self, key, title, fn, wrt, workload_wrt, data, tiny, hand, hand_hvp):
        self.key, self.title, self.fn, self.wrt = key, title, fn, wrt
        self.workload_wrt, self.data, self.tiny = workload_wrt, data, tiny
        self.hand, self.hand_hvp = hand, hand_hvp


CASES = [
    Case("W4", "MLP 784-256-10, batch 256, f32; hvp wrt W1", wl.mlp_loss, "W1",
         ("W1", "b1", "W2", "b2"), wl.mlp_data, lambda: wl.mlp_data(batch=4),
         wl.mlp_hand, mlp_hand_hvp),
    Case("W6", "RNN hidden 64, input 32, 100 steps, f64; hvp wrt Wh", wl.rnn_loss, "Wh",
         ("Wh", "Wx", "b"), wl.rnn_data, lambda: wl.rnn_data(steps=4, hidden=5, inputs=3),
         wl.rnn_hand, rnn_hand_hvp),
]


def direction(case, args, seed=1):
    """A random direction shaped and typed like the hvp's argument."""
    x = args[list(inspect.signature(case.fn).parameters).index(case.wrt)]
    return np.random.default_rng(seed).normal(size=x.shape).astype(x.dtype)


def implementations(case, args):
    """name -> a no-argument callable; the hvp checked against the hand hvp first."""
    v = direction(case, args)
    g_wrt = grad(case.fn, case.wrt)
    g_all = grad(case.fn, case.workload_wrt)
    hand = case.hand_hvp(*args, v)
    tol = 1e-3 if v.dtype == np.float32 else 1e-8
    for route in ROUTES:
        err = relative_error(hvp(case.fn, args, (v,), wrt=case.wrt, route=route), hand)
        if not err <= tol:
            raise AssertionError(f"{case.key}: hvp ({route}) differs from the hand hvp by "
                                 f"{err:.1e}")
    return {"grad (wrt)": lambda: g_wrt(*args),
            "grad (workload)": lambda: g_all(*args),
            "hvp (wrt)": lambda: hvp(case.fn, args, (v,), wrt=case.wrt),
            "hvp rev-over-fwd": lambda: hvp(case.fn, args, (v,), wrt=case.wrt,
                                            route="reverse_over_forward"),
            "hvp fwd-over-rev": lambda: hvp(case.fn, args, (v,), wrt=case.wrt,
                                            route="forward_over_reverse"),
            "hvp auto": lambda: hvp(case.fn, args, (v,), wrt=case.wrt, route="auto"),
            "hand grad": lambda: case.hand(*args),
            "hand hvp": lambda: case.hand_hvp(*args, v)}


def relative_error(actual, expected):
    a, e = np.asarray(actual, np.float64), np.asarray(expected, np.float64)
    return float(np.max(np.abs(a - e)) / max(float(np.max(np.abs(e))), 1e-30))


ROUTES = ("reverse_over_forward", "forward_over_reverse", "auto")
RATIOS = (("hvp / grad (wrt)", "hvp (wrt)", "grad (wrt)"),
          ("rev-over-fwd / grad (wrt)", "hvp rev-over-fwd", "grad (wrt)"),
          ("fwd-over-rev / grad (wrt)", "hvp fwd-over-rev", "grad (wrt)"),
          ("fwd-over-rev / rev-over-fwd", "hvp fwd-over-rev", "hvp rev-over-fwd"),
          ("auto / rev-over-fwd", "hvp auto", "hvp rev-over-fwd"),
          ("hvp / grad (workload)", "hvp (wrt)", "grad (workload)"),
          ("hand hvp / hand grad", "hand hvp", "hand grad"))


def measure(case, args, runs, rounds, budget_s):
    """{name: [median per run]} of every implementation, runs interleaved alike."""
    fns = implementations(case, args)
    medians = {name: [] for name in fns}
    for _ in range(runs):
        timed = interleaved_medians(fns, rounds=rounds, budget_s=budget_s)
        for name in fns:
            medians[name].append(timed[name]["median"])
    return medians


def report(case, medians, tiny=False):
    """Table rows: each implementation's median of run medians, then the ratios with
    their range over the runs."""
    rows = [[name, fmt_time(statistics.median(ts)),
             " ".join(fmt_time(t) for t in ts)] for name, ts in medians.items()]
    lines = [f"### {case.key} {case.title}", "",
             markdown_table(["implementation", "median", "per run"], rows), ""]
    for label, top, bottom in RATIOS:
        per_run = [t / b for t, b in zip(medians[top], medians[bottom])]
        lines.append(f"* {label} = {statistics.median(per_run):.2f} (runs: "
                     + ", ".join(f"{r:.2f}" for r in per_run) + ")")
    r = statistics.median(t / b for t, b in zip(medians["hvp (wrt)"], medians["grad (wrt)"]))
    verdict = "holds" if r <= TARGET_HVP_OVER_GRAD else "misses"
    if tiny:                            # per-call overhead dominates: not the bar
        verdict = "not judged at tiny sizes"
    lines += [f"* target hvp <= {TARGET_HVP_OVER_GRAD:g}x one gradient (wrt the same "
              f"argument): **{verdict}**", ""]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    parser.add_argument("--tiny", action="store_true", help="tiny sizes (tests)")
    parser.add_argument("--runs", type=int, default=3, help="whole measurements (>= 3)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time samples by wall time (default) or by the thread's CPU "
                             "time (e.g. --clock cpu on a machine other jobs load)")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS/OpenMP threads (default 1; 0 leaves the default)")
    args = parser.parse_args(argv)
    if args.clock == "cpu":
        harness_utils.CLOCK["now"] = time.thread_time
    start = time.perf_counter()
    freeze_heap()
    out = [f"## hvp against one gradient (issue 20), {args.runs} runs, "
           f"{THREADS or 'default'} BLAS thread(s), {args.clock} clock, "
           f"{time.strftime('%Y-%m-%d %H:%M')}", ""]
    for case in CASES:
        data = case.tiny() if args.tiny else case.data()
        rounds = 3 if args.quick or args.tiny else 25
        budget = 1.0 if args.tiny else 3.0 if args.quick else 12.0
        out.append(report(case, measure(case, data, args.runs, rounds, budget), args.tiny))
    out.append(f"whole run {time.perf_counter() - start:.0f} s")
    text = "\n".join(out)
    print(text)
    return text


if __name__ == "__main__":
    main()
