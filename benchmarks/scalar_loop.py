"""Issue 3's long loop: 1,000,000 iterations of x = x * 0.999 + 0.001 * sin(x).

Prints the gradient time divided by the primal's (medians, measured side by side
in this run) and the tape's peak memory (tracemalloc). Not a timed test.
"""
import math
import statistics
import sys
import time
import tracemalloc

from transform import grad

STEPS = 1_000_000


def primal(x, n):
    for i in range(n):
        x = x * 0.999 + 0.001 * math.sin(x)
    return x


def median_seconds(fn, *args, repeats=3):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(steps=STEPS):
    gradient = grad(primal)
    gradient(0.5, 10)                                    # compile once
    rounds = [(median_seconds(primal, 0.5, steps, repeats=1),
               median_seconds(gradient, 0.5, steps, repeats=1)) for _ in range(3)]
    primal_t = statistics.median(r[0] for r in rounds)
    grad_t = statistics.median(r[1] for r in rounds)
    tracemalloc.start()
    value = gradient(0.5, steps)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"steps: {steps:,}  recursion limit: {sys.getrecursionlimit()}")
    print(f"d x_n / d x_0 = {value:.12f}")
    print(f"primal {primal_t * 1e3:.1f} ms, gradient {grad_t * 1e3:.1f} ms, "
          f"ratio {grad_t / primal_t:.2f} (medians of 3)")
    print(f"peak traced memory during the gradient: {peak / 1e6:.1f} MB "
          f"({peak / steps:.1f} bytes per iteration)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else STEPS)
