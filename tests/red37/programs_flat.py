"""red37: callees forward over reverse runs through its own flat gradient: helpers with
early returns in loops, helpers returning tuples unpacked in loops, helpers taking an
int count or a string mode, list building and popping, nested helpers, a helper called
with the same array twice."""
import numpy as np


def _clipped_step(x, g, limit):
    step = 0.1 * g
    n = np.sqrt(np.sum(step ** 2))
    if n > limit:
        return x - step * (limit / n)
    return x - step


def clipped_gd(w):
    for _ in range(4):
        g = 4 * w ** 3 - 2 * w
        w = _clipped_step(w, g, 0.05)
    return np.sum(w ** 4 - w ** 2)


def _stats(v):
    m = np.mean(v)
    return m, np.mean((v - m) ** 2)


def running_stats_loop(x):
    total = 0.0
    for k in range(2, len(x) + 1):
        m, var = _stats(x[:k])
        total = total + m * var
    return total


def _activation(h, kind="tanh", count=2):
    for _ in range(count):
        if kind == "tanh":
            h = np.tanh(h)
        else:
            h = h / (1 + np.exp(-h))
    return h


def mode_and_count(W, X):
    h = _activation(X @ W, "swish", 1)
    return np.sum(_activation(h, count=3) ** 2)


def stack_push_pop(x):
    stack = []
    for k in range(len(x)):
        stack.append(x[k] * (k + 1))
    total = 0.0
    while stack:
        v = stack.pop()
        total = total * 0.5 + np.sin(v)
    return total


def _pairwise(a, b):
    return np.sum((a[:, None] - b[None, :]) ** 2)


def same_array_twice(x):
    return _pairwise(x, x) + _pairwise(x, np.tanh(x))


def _outer(x):
    def inner(v):
        return np.exp(-v * v)
    return np.sum(inner(x) * inner(2 * x))


def nested_helper_def(x):
    return _outer(x) + _outer(x[::-1] * 0.5)


def _residual(z, x):
    return z ** 3 + z - x


def _solve(x):
    z = x / 2
    for _ in range(20):
        z = z - _residual(z, x) / (3 * z ** 2 + 1)
    return z


def solve_per_entry(x):
    zs = [_solve(v) for v in x]
    return sum(z * z for z in zs)


def _softplus_sum(v, beta=1.0):
    return np.sum(np.log1p(np.exp(beta * v))) / beta


def keyword_beta_differentiated(w):
    return _softplus_sum(w, beta=1.0 + w[0] ** 2) + _softplus_sum(w * 2)
