"""Per-call overhead of the public entries on a tiny function (5 floats): grad(f)(x)
(grad(f) made once), jvp(f, (x,), (t,)), hvp(f, (x,), (t,)) and vjp(f, x) with its
pullback called. Compilation is warmed up first; what is timed is the checks, lookups
and argument handling around the generated code, which is itself a few NumPy calls.

    .venv/bin/python benchmarks/call_overhead.py [--against DIR] [--runs 5] [--clock cpu]

--against DIR: a tree of the project (`git archive BASE | tar -x -C DIR`) timed
alongside this one, each in its own process per run, alternating; the table gives
medians over the runs of each run's median per call, and before / after.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = ("grad", "jvp", "hvp", "vjp")


def _calls(np, tg):
    def f(x):
        return np.sum(np.sin(x) * x)
    x, t = np.linspace(0.1, 1.0, 5), np.linspace(1.0, -1.0, 5)
    g = tg.grad(f)
    calls = {"grad": lambda: g(x), "jvp": lambda: tg.jvp(f, (x,), (t,)),
             "hvp": lambda: tg.hvp(f, (x,), (t,)), "vjp": lambda: tg.vjp(f, x)[1](1.0)}
    want = np.sin(x) + x * np.cos(x)              # the gradient, by hand: checked first
    np.testing.assert_allclose(calls["grad"](), want)
    np.testing.assert_allclose(calls["jvp"]()[1], want @ t)
    np.testing.assert_allclose(calls["hvp"](), (2 * np.cos(x) - x * np.sin(x)) * t)
    np.testing.assert_allclose(np.asarray(calls["vjp"]()).ravel(), want)
    return calls


def worker(root, number, rounds, clock):
    """Medians per call (µs) of each entry, round-robin, in the tree at `root`."""
    sys.path.insert(0, str(root))
    import numpy as np
    import transform as tg
    calls = _calls(np, tg)
    timer = time.thread_time if clock == "cpu" else time.perf_counter
    samples = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            start = timer()
            for _ in range(number):
                call()
            samples[name].append((timer() - start) / number * 1e6)
    return {name: statistics.median(s) for name, s in samples.items()}


def _run(root, args):
    out = subprocess.run([sys.executable, __file__, "--worker", str(root), "--number",
                          str(args.number), "--rounds", str(args.rounds), "--clock",
                          args.clock], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", help="another tree, timed as 'before'")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--worker")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.number, args.rounds, args.clock)))
        return
    trees = {"after": ROOT} if not args.against else {"before": args.against, "after": ROOT}
    runs = {label: [] for label in trees}
    for _ in range(args.runs):
        for label, root in trees.items():
            runs[label].append(_run(root, args))
    medians = {label: {e: statistics.median(r[e] for r in rs) for e in ENTRIES}
               for label, rs in runs.items()}
    print("| entry | " + " | ".join(f"{label} (µs)" for label in trees) +
          (" | before / after |" if args.against else " |") + " / grad |")
    print("|---" * (len(trees) + 2 + bool(args.against)) + "|")
    for e in ENTRIES:
        cells = [f"{medians[label][e]:.1f}" for label in trees]
        if args.against:
            cells.append(f"{medians['before'][e] / medians['after'][e]:.2f}")
        cells.append(f"{medians['after'][e] / medians['after']['grad']:.2f}")
        print(f"| {e} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
