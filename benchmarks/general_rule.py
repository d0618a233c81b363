"""Issue 19: the general rule against the specialised one, workload by workload.

`grad` compiles a rule specialised to the argument shapes, up to MAX_SPECIALISATIONS
(8) per function; after that, calls with new shapes run the function's general rule,
compiled without argument shapes. This script times both on benchmarks/run.py's
workloads W1-W6 and on S1, S3 and S6 of benchmarks/scientific_workloads.py (quick
sizes), through `grad` itself:

* "specialised": `grad(fn, wrt)` as a user calls it;
* "general": `grad` of a fresh copy of fn whose first call is made while the bound
  on specialisations is 0, so its rule for these shapes is the general one (what the
  9th distinct shape gets); later calls reuse it exactly as `grad` reuses any rule.
  The script checks that the copy's cache holds no specialised rule.

Both gradients are checked against each other before timing; the two are timed
round-robin (benchmarks/harness_utils.py interleaved_medians) and the table quotes
medians and general / specialised.

Run:  .venv/bin/python benchmarks/general_rule.py [--only W1,S3] [--quick]
"""
import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness_utils import pin_threads                # noqa: E402

THREADS = pin_threads()                              # before NumPy loads

import numpy as np                                   # noqa: E402

from transform import grad                           # noqa: E402
from transform.public import cache                   # noqa: E402
import scientific_workloads as sw                    # noqa: E402
import workloads as wl                               # noqa: E402
from harness_utils import fmt_time, interleaved_medians, markdown_table  # noqa: E402
from run import fresh_copy                            # noqa: E402

# key, title, fn, wrt, data (quick -> args)
WORKLOADS = [
    ("W1", "seed loop sum((W @ x_i)[0]), 512 vectors", wl.seed, 0,
     lambda q: wl.seed_data(512)),
    ("W2", "sum(w @ x) + norm(w)", wl.small_regression, "w",
     lambda q: wl.small_regression_data()),
    ("W3", "bias only, dense loop n=500", wl.bias_loop, "b", lambda q: wl.bias_data(500)),
    ("W4", "MLP 784-256-10, batch 256, f32", wl.mlp_loss, ("W1", "b1", "W2", "b2"),
     lambda q: wl.mlp_data()),
    ("W5", "scalar loop, 10,000 steps", wl.scalar_loop, "x",
     lambda q: wl.scalar_loop_data(2_000 if q else 10_000)),
    ("W6", "RNN hidden 64, 100 steps", wl.rnn_loss, ("Wh", "Wx", "b"),
     lambda q: wl.rnn_data()),
    ("S1", "heat, slices + concatenate (quick size)", sw.heat, ("u", "k"),
     lambda q: sw.heat_data(quick=True)),
    ("S3", "LSTM 2 layers (quick size)", sw.lstm_loss,
     ("Wx1", "Wh1", "b1", "Wx2", "Wh2", "b2"), lambda q: sw.lstm_data(quick=True)),
    ("S6", "RK4 (quick size)", sw.rk4, ("y", "W"), lambda q: sw.rk4_data(quick=True)),
]


def general_grad(fn, wrt, args):
    """grad of a copy of fn whose rule for args' shapes is the general rule."""
    copy = fresh_copy(fn)
    g = grad(copy, wrt)
    saved = cache.MAX_SPECIALISATIONS
    cache.MAX_SPECIALISATIONS = 0            # as if 8 other shapes came first
    try:
        g(*args)
    finally:
        cache.MAX_SPECIALISATIONS = saved
    signatures = [key[4] for key in cache.rules_of(copy)]
    assert signatures and all(s is None for s in signatures), signatures
    return g


def agree(a, b):
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    for x, y in zip(a, b):
        x64, y64 = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        tol = 1e-4 if np.asarray(y).dtype == np.float32 else 1e-9
        scale = max(float(np.max(np.abs(y64))), 1e-12)
        if x64.shape != y64.shape or float(np.max(np.abs(x64 - y64))) / scale > tol:
            return False
    return len(a) == len(b)


def measure(key, fn, wrt, args, quick):
    special = grad(fn, wrt)
    general = general_grad(fn, wrt, args)
    if not agree(general(*args), special(*args)):
        raise AssertionError(f"{key}: the general and specialised gradients differ")
    found = interleaved_medians({"specialised": lambda: special(*args),
                                 "general": lambda: general(*args)},
                                rounds=7 if quick else 15,
                                budget_s=3.0 if quick else 10.0)
    return found["specialised"]["median"], found["general"]["median"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated keys, e.g. W1,S3")
    parser.add_argument("--quick", action="store_true", help="fewer rounds, W5 shorter")
    parser.add_argument("--threads", default="1")
    opts = parser.parse_args(argv)
    only = {k for k in opts.only.split(",") if k}
    rows = []
    for key, title, fn, wrt, data in WORKLOADS:
        if only and key not in only:
            continue
        special, general = measure(key, fn, wrt, data(opts.quick), opts.quick)
        rows.append((key, title, fmt_time(special), fmt_time(general),
                     f"{general / special:.2f}"))
        print(f"{key}: general / specialised {general / special:.2f}", flush=True)
    print()
    print(markdown_table(("workload", "", "specialised", "general", "general / specialised"),
                         rows))


if __name__ == "__main__":
    main()
