"""Session 35 red team (red35) programs, batch 6: Python idioms around arrays: arrays
built from entries, fancy and strided stores into copies, fill and sort in place on a
copy, generator sums with conditions, walrus, math helpers, reductions over axes."""
import functools
import math

import numpy as np

from transform import differentiable

OFFSETS = np.array([0.5, -0.25, 1.0])


def array_from_entries(x):
    v = np.array([x[0] ** 2, x[1], 3.0, x[0] * x[2]])
    return v * np.arange(4.0)


def fancy_store(x):
    y = x.copy()
    y[[0, 2]] = np.sin(x[[2, 0]])
    y[::2] *= 1.5
    return y


def strided_2d(x):
    A = x.reshape(3, 4).copy()
    A[::2, 1:] = A[::2, 1:] ** 2
    A[1, ::3] += A[0, :2]
    return A.ravel()


def fill_scalar(a, x):
    out = np.empty_like(x)
    out.fill(a)
    buf = np.zeros(3)
    buf[:] = a * 2
    return np.sum(out * x) + np.sum(buf ** 2) * a


def sort_inplace_copy(x):
    y = x.copy()
    y.sort()
    return y[::-1] * np.arange(1.0, len(x) + 1)


def gen_sum_cond(x):
    return sum(v ** 2 for v in x if v > 0) + sum([np.exp(v) for v in x if v < 0.5])


def walrus_loop(x):
    total = 0.0
    for v in x:
        if (s := np.sin(v)) > 0:
            total += s * v
    return total


def conditional_expr(x):
    a = np.sum(x ** 2) if x[0] > 0 else np.sum(x)
    b = x[1] if x[1] > x[2] else x[2]
    return a * b


def math_helpers(x):
    return math.hypot(x[0], x[1]) + math.prod([x[0], x[1], 2.0]) + math.fsum([x[2], x[0] ** 2])


def reduce_lambda(x):
    return functools.reduce(lambda a, b: a * 0.5 + b ** 2, x, 0.0)


def sum_of_arrays(X):
    rows = [X[i] * (i + 1) for i in range(X.shape[0])]
    return sum(rows) @ OFFSETS[: X.shape[1]]


def matrix_power_loss(A):
    M = A.reshape(2, 2)
    return np.sum(np.linalg.matrix_power(M, 3)) + np.trace(np.linalg.pinv(M + 2 * np.eye(2)))


def axis_reductions(x):
    T = x.reshape(2, 3, 2)
    return np.sum(np.mean(T, axis=(0, 2)) ** 2) + np.sum(np.max(T, axis=-1)) + np.sum(np.min(T, axis=0) ** 3)


def nearest_distance(p, Y):
    d = np.linalg.norm(Y - p, axis=1)
    return d.min() + np.sort(d)[1]


def round_isclose(x):
    r = np.round(x, 1)
    w = np.where(np.isclose(r, 0.0), 1.0, 2.0)
    return np.sum(w * x ** 2) + np.sum(x.round(2) * x)


def chained_compare(x):
    s = 0.0
    for v in x:
        if -0.5 < v < 0.5:
            s = s + v ** 3
        else:
            s = s + np.tanh(v)
    return s


def zeros_int_promote(x):
    y = np.zeros(3, dtype=int)
    y = y + x
    c = np.array([1, 2, 3])
    return np.sum(c * y ** 2)


def concat_pieces(x):
    pieces = [np.ones(1)]
    for i in range(len(x) - 1):
        pieces.append(x[i:i + 2] * x[i])
    return np.concatenate(pieces)


def diag_write(x):
    M = np.eye(3)
    M[np.diag_indices(3)] = x ** 2
    M[0, 2] = x[1]
    return np.linalg.det(M)


def swap_rows(x):
    A = x.reshape(3, 2).copy()
    A[[0, 1]] = A[[1, 0]]
    return (A * np.array([[1.0, 2.0]])).ravel()


def powers_and_pinvs(x):
    """matrix_power at every kind of exponent and pinv of tall, wide and stacked
    matrices (their JVP helpers differentiated from source by hvp)."""
    M = x[:4].reshape(2, 2) + 2.0 * np.eye(2)
    P = sum(np.sum(np.linalg.matrix_power(M, n) * (n + 3)) for n in (-2, 0, 1, 2))
    tall = x[:6].reshape(3, 2)
    wide = x[2:8].reshape(2, 3)
    stack = x[:12].reshape(2, 3, 2)
    return P + np.sum(np.linalg.pinv(tall) ** 2) + np.sum(np.linalg.pinv(wide) * wide.T) \
        + np.sum(np.sin(np.linalg.pinv(stack)))


@differentiable
def _act(z):
    return np.tanh(z) * z


@differentiable(policy="flat")
def _sq(v):
    return v * v


def deco_helpers(x):
    """Helpers marked @differentiable, as the README's quickstart marks functions (forward
    mode called their *args wrapper before: a TypeError, and hvp refused it)."""
    return np.sum(_act(x) ** 2) + np.sum(_sq(x[::-1]) * x)


def deco_vector(x):
    return _act(x) * _sq(x[0])


def deco_scalar(a):
    return _act(a) * _sq(a) + np.sin(_act(a))
