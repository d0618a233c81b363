"""red36: more habits: local helpers in tests, iterators, NamedTuples, properties,
__call__, inheritance, itertools, printing progress, early stopping."""
import itertools
import math
from typing import NamedTuple

import numpy as np


def early_stopping(w0, X, y):
    loss = lambda w: np.mean((X @ w - y) ** 2)  # noqa: E731
    w, best = w0, None
    for epoch in range(6):
        g = 2 * X.T @ (X @ w - y) / len(y)
        w = w - 0.1 * g
        if best is not None and loss(w) > best - 1e-9:
            break
        best = loss(w)
    return loss(w)


def tolerance_while(a):
    def residual(x):
        return x ** 3 + x - a
    x = 0.0
    while abs(residual(x)) > 1e-10:
        x = x - residual(x) / (3 * x ** 2 + 1)
    return x


def filtered_energy(x):
    is_big = lambda v: abs(v) > 0.5  # noqa: E731
    kept = [v ** 2 for v in x if is_big(v)]
    return sum(kept) + sum(v for v in x if not is_big(v))


def progress_print(w, X):
    total = 0.0
    for i, row in enumerate(X):
        total = total + np.tanh(row @ w)
        if i % 2 == 0:
            print(f"step {i}: {float(total):.3f}")
    return total


class Params(NamedTuple):
    w: np.ndarray
    b: float


def namedtuple_loss(p, X, y):
    pred = X @ p.w + p.b
    return np.mean(np.logaddexp(0.0, -y * pred))


class Layer:
    def __init__(self, W):
        self.W = W

    def __call__(self, x):
        return np.tanh(self.W @ x)


class ScaledLayer(Layer):
    def __init__(self, W, scale):
        super().__init__(W)
        self.scale = scale

    def __call__(self, x):
        return self.scale * super().__call__(x)

    @property
    def norm(self):
        return np.sum(self.W ** 2)


def inherited_call(W, x):
    layer = ScaledLayer(W, 2.0)
    return np.sum(layer(x) ** 2) + 0.1 * layer.norm


def itertools_accumulate(x):
    running = list(itertools.accumulate(x))
    return sum(r * r for r in running)


def pairwise_distances(x):
    pts = x.reshape(-1, 2)
    total = 0.0
    for p, q in itertools.combinations(range(len(pts)), 2):
        total += np.sqrt(np.sum((pts[p] - pts[q]) ** 2))
    return total


def iter_next(x):
    it = iter(x)
    first = next(it)
    rest = sum(v * first for v in it)
    return rest + first ** 2


def generator_zip(x, w):
    squares = (v * v for v in x)
    return sum(s * c for s, c in zip(squares, w))


def dict_comprehension_loss(x):
    feats = {f"p{k}": x ** k for k in range(1, 4)}
    return sum(np.sum(v) / (i + 1) for i, v in enumerate(feats.values()))


def sorted_key_lambda(x):
    pts = [x[i:i + 2] for i in range(0, len(x), 2)]
    order = sorted(pts, key=lambda p: float(p[0]))
    return sum(float(k + 1) * np.sum(p ** 2) for k, p in enumerate(order))


def math_module(x):
    return math.exp(x) * math.sin(x) + math.log1p(x * x) + math.sqrt(1 + x * x)


def static_and_class_methods(x):
    return Scaler.apply(x) + Scaler.default().scale * np.sum(x)


class Scaler:
    def __init__(self, scale):
        self.scale = scale

    @staticmethod
    def apply(x):
        return np.sum(np.exp(-x ** 2))

    @classmethod
    def default(cls):
        return cls(1.5)


def while_else_flag(x):
    y, k = x, 0
    while k < 5:
        y = np.cos(y)
        k += 1
    else:
        y = y * 2
    return np.sum(y)


def nested_loops_break(x):
    total = 0.0
    for i in range(len(x)):
        for j in range(len(x)):
            if j > i:
                break
            total += x[i] * x[j]
    return total


def local_def_in_loop_test(x):
    def converged(a, b):
        return np.max(np.abs(a - b)) < 1e-8
    y = x
    for _ in range(100):
        y_new = 0.5 * (y + x / y)
        if converged(y, y_new):
            break
        y = y_new
    return y_new


def kwargs_helper_call(x):
    def helper(v, **opts):
        return np.sum(v ** opts.get("power", 2)) * opts.get("scale", 1.0)
    return helper(x, power=3, scale=0.5) + helper(x)


def two_lambdas_swap(x):
    f, g = (lambda v: v * 2), (lambda v: v ** 2)
    if np.sum(x) > 0:
        f, g = g, f
    return np.sum(f(x) + g(g(x)))


def ode_event_bisect(v0):
    """time a ball thrown up reaches height 1, by bisection on the closed form, then
    the velocity there (the time's derivative flows through the last bracket)."""
    h = lambda t: v0 * t - 4.9 * t * t  # noqa: E731
    lo, hi = 0.0, v0 / 9.8
    for _ in range(12):
        mid = 0.5 * (lo + hi)
        if h(mid) < 1.0:
            lo = mid
        else:
            hi = mid
    t = 0.5 * (lo + hi)
    return v0 - 9.8 * t
