"""Timing and memory helpers shared by the benchmark scripts.

* `interleaved_medians` times several implementations round-robin: every round
  runs each of them once (a sample of `number` calls), in a rotated order, so
  a slow patch of the machine hits them all alike and their ratios hold even
  when absolute times drift. It reports medians per call.
* `peak_memory` measures the peak of Python and NumPy allocations (tracemalloc
  sees both) during one call, in a run of its own: tracing slows code down, so
  it is never mixed with timing.
* `Failure` stands in for a result when an implementation raises; the tables
  print it in the implementation's cell.
"""
import gc
import os
import statistics
import sys
import time
import tracemalloc


def pin_threads(argv=None, default=1):
    """Limit BLAS, OpenMP and XLA to `--threads N` threads (default 1), from argv.

    Must run before NumPy (or any peer) is imported: the libraries read these
    variables once. One thread makes the ratios measure AD overhead rather
    than how a loaded machine schedules thread pools. Returns N (0: untouched).
    """
    argv = sys.argv[1:] if argv is None else argv
    n = default
    for k, arg in enumerate(argv):
        if arg == "--threads" and k + 1 < len(argv):
            n = int(argv[k + 1])
        elif arg.startswith("--threads="):
            n = int(arg.split("=", 1)[1])
    if n > 0:
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS"):
            os.environ[var] = str(n)
        flags = os.environ.get("XLA_FLAGS", "")
        if "intra_op_parallelism_threads" not in flags:
            os.environ["XLA_FLAGS"] = (flags + " --xla_cpu_multi_thread_eigen=false "
                                       f"intra_op_parallelism_threads={n}").strip()
    return n


def freeze_heap():
    """Collect once, then move every live object out of the collector's sight, so
    the gc.collect() before each timed sample costs little even with large
    libraries (JAX, PyTorch) imported."""
    gc.collect()
    gc.freeze()


class Failure:
    """An implementation that raised: kept so the table can say why."""

    def __init__(self, exc):
        self.kind = type(exc).__name__
        self.message = str(exc).splitlines()[0] if str(exc) else ""

    def short(self, width=40):
        text = self.kind if not self.message else f"{self.kind}: {self.message}"
        return text if len(text) <= width else text[:width - 1] + "…"

    def __repr__(self):
        return f"Failure({self.kind})"


def try_call(fn):
    """fn() or a Failure."""
    try:
        return fn()
    except Exception as exc:            # noqa: BLE001 - reported in the table (RecursionError too)
        return Failure(exc)


# what samples are timed by: wall time; a benchmark may choose the thread's CPU time
# (`time.thread_time`), which a machine shared with other jobs disturbs less
CLOCK = {"now": time.perf_counter}


def time_once(fn):
    start = CLOCK["now"]()
    fn()
    return CLOCK["now"]() - start


def calls_per_sample(fn, single_call_s, target_s):
    """How many calls make one sample last about target_s (at least 1)."""
    if single_call_s <= 0:
        return 1000
    return max(1, min(10_000, int(target_s / single_call_s)))


def interleaved_medians(fns, *, rounds=15, target_sample_s=0.005, budget_s=None,
                        min_rounds=3, warmup=1):
    """Median seconds per call of each callable in `fns` (name -> fn), timed round-robin.

    Every callable is warmed up `warmup` times first; one that raises there is
    returned as a Failure and left out. `number` calls per sample are chosen
    so a sample lasts about `target_sample_s`. At most `rounds` rounds run,
    fewer if `budget_s` (seconds for the whole measurement) would be exceeded,
    but never fewer than `min_rounds`.

    Returns {name: {"median": s, "samples": [s, ...], "number": n} or Failure}.
    """
    results, live = {}, {}
    first = {}
    for name, fn in fns.items():
        gc.collect()
        outcome = None
        times = []
        for k in range(max(1, warmup) + 2):
            try:
                times.append(time_once(fn))
            except Exception as exc:    # noqa: BLE001 - a failing implementation
                outcome = Failure(exc)
                break
            if k + 1 >= max(1, warmup) and sum(times) > 0.1:
                break                   # slow enough: calibrating further costs too much
        if outcome is not None:
            results[name] = outcome
            continue
        first[name] = min(times)        # the first calls pay for cold pages and caches
        live[name] = fn
    numbers = {name: calls_per_sample(fn, first[name], target_sample_s)
               for name, fn in live.items()}
    samples = {name: [] for name in live}
    names = list(live)
    round_cost = sum(first[n] * numbers[n] for n in names)
    if budget_s is not None and round_cost > 0:
        rounds = max(min_rounds, min(rounds, int(budget_s / round_cost)))
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)] if names else []
        for name in order:
            fn, number = live[name], numbers[name]
            gc.collect()
            start = CLOCK["now"]()
            for _ in range(number):
                fn()
            samples[name].append((CLOCK["now"]() - start) / number)
    for name in names:
        results[name] = {"median": statistics.median(samples[name]),
                         "samples": samples[name], "number": numbers[name]}
    return results


def peak_memory(fn):
    """Peak bytes allocated (Python objects and NumPy buffers) during one fn(),
    above what was allocated before it; a Failure if fn raises."""
    gc.collect()
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        try:
            fn()
        except Exception as exc:        # noqa: BLE001
            return Failure(exc)
        _, peak = tracemalloc.get_traced_memory()
        return max(0, peak - base)
    finally:
        if not was_tracing:
            tracemalloc.stop()
        gc.collect()


def median(values):
    return statistics.median(values)


def fmt_time(seconds):
    """A time with a unit that keeps 3 significant digits."""
    if isinstance(seconds, Failure):
        return seconds.short()
    if seconds is None:
        return "–"
    if seconds >= 1.0:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def fmt_bytes(n):
    if isinstance(n, Failure):
        return n.short()
    if n is None:
        return "–"
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} B"


def markdown_table(header, rows):
    """A Markdown table from a header list and rows of cells (converted with str)."""
    cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
    lines = ["| " + " | ".join(cells[0]) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in cells[1:]]
    return "\n".join(lines)
