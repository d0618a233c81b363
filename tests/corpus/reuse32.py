"""Joins whose cotangent is cut from a buffer the backward loop owns (session 32, heat):
ReuseCutBuffers keeps that buffer where the views would be written back into fresh
zeros at their own places (the first block: the rewrite applies), and leaves the code
alone where a view is read after other writes, a part is not at its own place, or the
buffer is not owned (the second block). Each runs against finite differences under
every policy like the rest of the corpus."""
import numpy as np

from .case import case, floats


# ---- the rewrite applies ------------------------------------------------------------------

@case(floats((7,), ()), wrt=(0, 1))
def heat_join_weighted(u, k):
    for _ in range(3):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 3 * np.arange(u.shape[0]))


@case(floats((3, 6), ()), wrt=(0, 1))
def heat_join_rows(A, k):
    for _ in range(2):
        lap = A[:, 2:] - 2 * A[:, 1:-1] + A[:, :-2]
        A = np.concatenate([A[:, :1], A[:, 1:-1] + k * lap, A[:, -1:]], axis=1)
    return np.sum(np.sin(A) * A)


# ---- the rewrite must not apply -----------------------------------------------------------

@case(floats((6,), ()), wrt=(0, 1))
def heat_join_then_scaled(u, k):
    for _ in range(3):
        lap = u[2:] - u[1:-1]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
        u = u * 0.9                 # the join's cotangent: `u * 0.9`'s self-update
    return np.sum(u ** 2)


@case(floats((6,), ()), wrt=(0, 1))
def heat_join_edge_reused(u, k):
    for _ in range(3):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap + u[:1], u[-1:]])
    return np.sum(u ** 2)


@case(floats((6,), ()), wrt=(0, 1))
def heat_join_rotated(u, k):
    for _ in range(3):
        u = np.concatenate([u[-1:], u[:-1] * k])
    return np.sum(u ** 2 * np.arange(6))


@case(floats((6,), ()), wrt=(0, 1))
def heat_join_summed(u, k):
    for _ in range(3):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u)
