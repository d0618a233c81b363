"""Issue 17's einsum point: `np.einsum(..., optimize=True)`'s gradient, whose contraction
paths the rule caches per subscripts and shapes (it used to recompute einsum_path on every
call: about 10x a hand-written VJP).

Prints, from interleaved runs in one process, thunkgrad's gradient time over two hand
VJPs of the same loss: one written with einsum (the like-for-like baseline) and one
written with `@` (what an expert writes for a matrix chain; NumPy's einsum dispatch alone
costs more than these small products). Medians; not a timed test.
"""
import statistics
import timeit

import numpy as np

from transform import grad

SPEC = "ij,jk,kl->il"


def loss(A, B, C):
    return np.sum(np.einsum(SPEC, A, B, C, optimize=True) ** 2)


def hand_einsum(A, B, C):
    g = 2 * np.einsum(SPEC, A, B, C, optimize=True)
    return (np.einsum("il,jk,kl->ij", g, B, C, optimize=True),
            np.einsum("ij,il,kl->jk", A, g, C, optimize=True),
            np.einsum("ij,jk,il->kl", A, B, g, optimize=True))


def hand_matmul(A, B, C):
    g = 2 * (A @ B @ C)
    return g @ (B @ C).T, A.T @ g @ C.T, (A @ B).T @ g


def main(rounds=9):
    rng = np.random.default_rng(0)
    args = (rng.standard_normal((30, 40)), rng.standard_normal((40, 50)),
            rng.standard_normal((50, 20)))
    ours = grad(loss, wrt=(0, 1, 2))
    for hand in (hand_einsum, hand_matmul):       # the baselines are right before timing
        assert all(np.allclose(x, y) for x, y in zip(ours(*args), hand(*args)))
    fns = {"thunkgrad": ours, "hand einsum VJP": hand_einsum, "hand @ VJP": hand_matmul}
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            times[name].append(min(timeit.repeat(lambda: fn(*args), number=50, repeat=3)) / 50)
    for name in ("hand einsum VJP", "hand @ VJP"):
        ratio = statistics.median(t / h for t, h in zip(times["thunkgrad"], times[name]))
        print(f"einsum {SPEC} (30x40, 40x50, 50x20): thunkgrad / {name} = {ratio:.2f} "
              f"(median of {rounds}; {statistics.median(times['thunkgrad']) * 1e6:.0f} us vs "
              f"{statistics.median(times[name]) * 1e6:.0f} us)")


if __name__ == "__main__":
    main()
