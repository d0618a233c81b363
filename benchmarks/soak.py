"""Soak: 8 threads calling grad on 50 functions with random shapes for 60 s.

    python benchmarks/soak.py [--seconds 60] [--threads 8]

Prints calls per second, RSS at start and end, and the number of errors: exceptions
and gradients that differ from the closed form. Exit status 1 if there was any error.
"""
import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import transform  # noqa: E402


def _family(kind, c):
    """(f, its gradient in closed form) for a template and a coefficient."""
    if kind == 0:
        def f(x):
            return np.sum(c * np.tanh(x) ** 2)
        return f, lambda x: 2 * c * np.tanh(x) * (1 - np.tanh(x) ** 2)
    if kind == 1:
        def f(x):
            s = 0.0
            for k in range(3):
                s = s + np.sum(np.sin(x * (k + c)))
            return s
        return f, lambda x: sum((k + c) * np.cos(x * (k + c)) for k in range(3))
    if kind == 2:
        def f(x):
            y = x * c
            if np.sum(y) > 0.0:
                y = y * y
            else:
                y = -y
            return np.sum(y)
        return f, lambda x: 2 * c * c * x if np.sum(x * c) > 0.0 else -c * np.ones_like(x)
    if kind == 3:
        def f(x):
            return np.sum(np.exp(-c * x * x))
        return f, lambda x: -2 * c * x * np.exp(-c * x * x)
    def f(x):
        return np.dot(x, x) * c + np.sum(x)
    return f, lambda x: 2 * c * x + 1.0


FUNCTIONS = [_family(k % 5, 0.5 + 0.1 * k) for k in range(50)]


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def worker(seed, deadline, counts, errors):
    rng = random.Random(seed)
    calls = 0
    while time.monotonic() < deadline:
        f, expected = rng.choice(FUNCTIONS)
        x = np.random.default_rng(rng.randrange(2 ** 32)).normal(size=rng.randint(1, 12))
        try:
            got = transform.grad(f)(x) if rng.random() < 0.2 else f.thunkgrad_grad(x)
            if not np.allclose(got, expected(x), rtol=1e-9, atol=1e-12):
                errors.append(f"{f.__qualname__}: wrong gradient for shape {x.shape}")
        except Exception as exc:                  # noqa: BLE001 - counted, reported
            errors.append(f"{type(exc).__name__}: {exc}")
        calls += 1
    counts[seed] = calls


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    for f, _ in FUNCTIONS:                       # one grad object per function, shared
        f.thunkgrad_grad = transform.grad(f)
    start_rss, counts, errors = rss_mb(), {}, []
    deadline = time.monotonic() + args.seconds
    threads = [threading.Thread(target=worker, args=(k, deadline, counts, errors))
               for k in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    calls = sum(counts.values())
    print(f"soak: {args.threads} threads, {len(FUNCTIONS)} functions, {args.seconds:.0f} s")
    print(f"calls/s: {calls / args.seconds:,.0f} ({calls:,} calls)")
    print(f"RSS: start {start_rss:.1f} MB, end {rss_mb():.1f} MB")
    print(f"errors: {len(errors)}")
    for message in sorted(set(errors))[:10]:
        print(f"  {message}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
