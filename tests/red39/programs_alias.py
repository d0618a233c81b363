"""red39: habits where forward mode's tangents must follow the primal: writes through
views of copies, closures over parameters, conversions (float, item, tolist, list()),
rows iterated, builtins (sum, max, min over lists), np.array of scalars, tuple swaps,
np.add.at, in-place sorts of copies, dict accumulation."""
import math

import numpy as np


def view_write_column(theta, X):
    """a column view of a copy scaled in place (`col *= ...` writes Z)."""
    Z = X.copy()
    col = Z[:, 1]
    col *= theta[0]
    Z[:, 0] += theta[1] * Z[:, 1]
    return np.sum(np.sin(Z) * X)


def transposed_view_write(w):
    """writing through a transpose view of a fresh array."""
    A = np.outer(w, w) + np.eye(len(w))
    At = A.T
    At[0] *= 2.0
    return np.sum(A * A) + A[0, 1] * w[1]


def closure_model(params, t, y):
    """a nested def closing over the differentiated parameters, called twice."""
    a, k, c = params

    def model(tt):
        return a * np.exp(-k * tt) + c

    r = model(t) - y
    r0 = model(0.0) - 1.0
    return r @ r + r0 * r0


def float_conversion_scale(x):
    """float() of a differentiated value used as a scale (the tangent must survive
    or the conversion be refused)."""
    s = float(np.sum(x ** 2))
    return s * x[0] + math.sqrt(s)


def item_and_tolist(x):
    first = x[0].item() if hasattr(x[0], "item") else x[0]
    vals = x.tolist()
    return first * sum(v * v for v in vals) + max(vals) ** 2


def rows_iterated(W, X):
    """`for row in W:` over a differentiated matrix, builtin sum of a list."""
    outs = []
    for row in W:
        outs.append(np.tanh(X @ row))
    return sum(np.sum(o ** 2) for o in outs)


def array_of_scalars(p):
    """np.array of differentiated scalars and a Python list of them."""
    a, b = p[0], p[1]
    M = np.array([[a, b], [b, a * b]])
    v = np.array([a ** 2, np.sin(b)])
    return v @ M @ v + min([a, b, 0.3]) ** 2


def tuple_swap(x):
    y = x.copy()
    y[0], y[2] = y[2], y[0]
    y[1], y[3] = 2.0 * y[3], y[1]
    return np.sum(y * np.arange(1.0, 5.0) * x)


def add_at_histogram(w, idx):
    """np.add.at scatter of weighted values into bins, a smooth loss of the bins."""
    bins = np.zeros(3)
    np.add.at(bins, idx, np.exp(w))
    return np.sum(np.log1p(bins) ** 2)


def sorted_copy_inplace(x):
    """sort a copy in place (no ties), weight by rank."""
    y = x.copy()
    y.sort()
    return np.sum(y * np.arange(len(y))) + np.sum(y ** 3)


def dict_accumulate(theta, groups):
    """per-group sums kept in a dict with .get, then a loss over the dict's values."""
    acc = {}
    for i, g in enumerate(groups):
        acc[g] = acc.get(g, 0.0) + theta[i] ** 2
    return sum(np.sqrt(v) for v in acc.values())


def inplace_on_argument_copy(x):
    """`x = x.copy()` then in-place ops on the rebound name."""
    x = x.copy()
    x *= 2.0
    x[1:] -= x[:-1] * 0.5
    x **= 2
    return np.sum(x)


def overlapping_iadd(x):
    """`a += a[::-1]`: numpy reads the reversed view before writing."""
    a = x * 1.0
    a += a[::-1]
    return np.sum(a ** 2 * x)


def where_both_sides(x):
    return np.sum(np.where(x > 0, x ** 3, np.sin(x) * x))


def matrix_inplace_matmul(w):
    """`A @= B` on a fresh matrix and a diagonal write."""
    A = w.reshape(2, 2) + 2.0 * np.eye(2)
    B = np.array([[1.0, 0.5], [0.0, 1.0]])
    A @= B
    d = np.diagonal(A).copy()
    A[np.arange(2), np.arange(2)] = np.exp(d)
    return np.sum(A ** 2)


def running_max_loop(x):
    """a running maximum by a Python loop with comparisons (no ties), values kept."""
    best = x[0]
    total = 0.0
    for v in x[1:]:
        if v > best:
            best = v
        total = total + best * v
    return total


def scalar_list_stack(a):
    """a float argument pushed through a list of scalars then np.stack."""
    vals = []
    x = a
    for k in range(4):
        x = x * np.cos(x) + 0.1 * k
        vals.append(x)
    v = np.stack(vals)
    return float(np.sum(v ** 2))


def weights_and_bias(W, b, X, y):
    """a linear-softplus layer with two differentiated arguments."""
    z = X @ W + b
    return np.sum(np.logaddexp(0.0, z) * y[:, None]) + 0.1 * np.sum(W ** 2) + np.sum(b ** 4)


def energy_two_args(pos, k, rest=1.0):
    """a spring chain energy, differentiated in positions and stiffness together."""
    d = np.diff(pos)
    return 0.5 * k * np.sum((d - rest) ** 2) + 0.01 * k * k
