"""Checkpointed loops (issue 21) against the taped loop: peak memory (tracemalloc) and
time of the gradient, with the schedule's theoretical recomputation count (binomial;
online for the heat loop written as a `while`) next to the measured one. Not a timed test.

    python benchmarks/checkpointing.py              # heat 2,000 cells x 2,000 steps,
                                                    # scalar loop 20,000 steps (chunked:
                                                    # 10^5)
    python benchmarks/checkpointing.py --full       # `make bench`: the issue's heat
                                                    # size (50,000 steps), scalar loop
                                                    # 10^5 steps one rule call a step, and
                                                    # the issue's 10^6 steps in chunks
                                                    # (chunk=100 and chunk="auto")
    python benchmarks/checkpointing.py --while-only # the heat loop as a `while` loop
                                                    # (online schedule) only, printed
    python benchmarks/checkpointing.py --full --scalar-only    # the scalar tables alone

Times: the median of 3 gradient calls, fewer when they take 2 s or more together; the
ratio to the taped loop (x taped) is that of medians of calls made alternately with the
taped loop's (`side_by_side`), so both see the same load on a shared machine.

THUNKGRAD_BENCH_QUICK=1 (as for `make bench`'s other scripts) keeps the small sizes.
Prints the tables and writes them to benchmarks/results/checkpointing.md.
"""
import math
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

from runtime import online, revolve
from transform import checkpoint_stats, checkpointed, checkpointed_while, grad


def heat(u, kappa, n):
    for t in range(n):
        u = u + 0.1 * kappa * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
    return np.sum(u ** 2)


def heat_ck(u, kappa, n, s):
    for t in checkpointed(range(n), snapshots=s):
        u = u + 0.1 * kappa * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
    return np.sum(u ** 2)


def heat_while(u, kappa, n):
    k = 0
    while k < n:
        u = u + 0.1 * kappa * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
        k = k + 1
    return np.sum(u ** 2)


def heat_while_ck(u, kappa, n, s):
    """The driver does not know n: the online schedule (runtime/online.py)."""
    k = 0
    while checkpointed_while(k < n, snapshots=s):
        u = u + 0.1 * kappa * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
        k = k + 1
    return np.sum(u ** 2)


def scalar(x, n):
    for i in range(n):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def scalar_ck(x, n, s):
    for i in checkpointed(range(n), snapshots=s):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def scalar_chunks(x, n, s):
    for i in checkpointed(range(n), snapshots=s, chunk=100):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def scalar_auto(x, n, s):
    for i in checkpointed(range(n), snapshots=s, chunk="auto"):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def measure(fn, args, warm, timed=True):
    """(seconds: the median of 3 gradient calls, or one call's when it takes 2 s or more
    (None unless timed), peak bytes of another call, its stats), compiled beforehand on
    `warm`."""
    grad(fn, 0)(*warm)
    times = []
    while timed and len(times) < 3 and sum(times) < 2:
        start = time.perf_counter()
        grad(fn, 0)(*args)
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times) if times else None
    tracemalloc.start()
    with checkpoint_stats() as stats:
        grad(fn, 0)(*args)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak, stats


def side_by_side(taped, taped_args, fn, args):
    """(fn's median seconds, median / the taped loop's median): 3 calls of each made
    alternately (fewer when they take 2 s or more together); both compiled already."""
    mine, theirs = [], []
    while len(mine) < 3 and sum(mine) + sum(theirs) < 4:
        for f, a, into in ((taped, taped_args, theirs), (fn, args, mine)):
            start = time.perf_counter()
            grad(f, 0)(*a)
            into.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(mine) / statistics.median(theirs)


RESULTS = Path(__file__).resolve().parent / "results" / "checkpointing.md"


def table(name, taped, marked, args, steps, snapshot_counts, theory=revolve.recomputations):
    """The table's markdown lines (printed as they come)."""
    seconds, peak, _ = measure(taped, args + (steps,), args + (3,))
    lines = [f"\n{name}, {steps:,} steps: taped {seconds:.2f} s, peak {peak / 1e6:.1f} MB\n",
             "| snapshots | chunk | recomputed (theory) | time (x taped) | peak MB (taped / peak) |",
             "|---|---|---|---|---|"]
    print(*lines, sep="\n")
    for s in snapshot_counts:
        grad(marked, 0)(*args, 3, s)            # (compiled; the peak is of a later call)
        t, ratio = side_by_side(taped, args + (steps,), marked, args + (steps, s))
        _, p, stats = measure(marked, args + (steps, s), args + (3, s), timed=False)
        chunk = stats.reports[0].get("chunk", 1) if stats.reports else 1
        lines.append(f"| {s} | {chunk} | {stats.recomputed:,} ({theory(stats.steps, s):,}) | "
                     f"{t:.2f} s ({ratio:.1f}) | {p / 1e6:.2f} ({peak / p:,.0f}) |")
        print(lines[-1])
    return lines


def main(full, scalar_only=False):
    start = time.perf_counter()
    cells, heat_steps = 2000, 50_000 if full else 2000
    scalar_steps, chunked_steps = (100_000, 1_000_000) if full else (20_000, 100_000)
    u = np.linspace(0.0, 1.0, cells)
    only_while = "--while-only" in sys.argv
    lines = [] if scalar_only or only_while else table(
        f"heat, {cells:,} cells", heat, heat_ck, (u, np.ones(cells)), heat_steps, (10, 30, 100))
    if not scalar_only:
        lines += table(f"heat as a while loop (online schedule; theory: runtime/online.py), "
                       f"{cells:,} cells", heat_while, heat_while_ck, (u, np.ones(cells)),
                       heat_steps, (10, 30, 100), online.recomputations)
    if only_while:
        return                          # (printed only)
    lines += table("scalar loop", scalar, scalar_ck, (0.5,), scalar_steps, (10, 30, 100))
    lines += table("scalar loop, chunk=100 (recomputed: chunks)", scalar, scalar_chunks,
                   (0.5,), chunked_steps, (10, 30, 100))
    lines += table('scalar loop, chunk="auto" (recomputed: chunks)', scalar, scalar_auto,
                   (0.5,), chunked_steps, (10, 30, 100))
    head = (f"# Checkpointed loops (issue 21)\n\nMeasured {time.strftime('%Y-%m-%d %H:%M')} "
            f"on {platform.machine()}, Python {platform.python_version()}, NumPy "
            f"{np.__version__}; {'full' if full else 'quick'} sizes; whole run "
            f"{time.perf_counter() - start:.0f} s. Time: the median of 3 gradient calls (fewer "
            "where they take 2 s or more together); peak: tracemalloc over another call. "
            "chunk: the k the driver used (chunk=\"auto\": chosen when the loop starts).\n")
    RESULTS.write_text(head + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main("--full" in sys.argv and not os.environ.get("THUNKGRAD_BENCH_QUICK"),
         "--scalar-only" in sys.argv)
