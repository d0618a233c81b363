"""red41: habits beyond red40's: functools.reduce and itertools.accumulate, map with a
lambda, sorted with a key, NamedTuple._replace, dataclasses.replace, a callable class
with __call__ and a staticmethod, dict comprehensions of arrays, np.array of a list of
scalars, a generator in sum, reversed/enumerate(start=1), math on floats, walrus,
ternaries, asserts, np.errstate, x.flat-free ravel/reshape(-1), np.stack of a list."""
import dataclasses
import functools
import itertools
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np


def reduce_product_chain(x):
    """functools.reduce multiplying 2x2 rotation-scaling matrices built from x."""
    mats = [np.array([[math.cos(0.3 * i), -v], [v, 1.0]]) for i, v in enumerate(x)]
    M = functools.reduce(lambda a, b: a @ b, mats)
    return np.sum(M ** 2)


def accumulate_running_max_smooth(x, k=5.0):
    """itertools.accumulate with a smooth maximum (log-sum-exp of two)."""
    smax = lambda a, b: np.logaddexp(k * a, k * b) / k
    run = list(itertools.accumulate(x, smax))
    return sum(run)


def map_lambda_features(x):
    feats = list(map(lambda v: np.sin(v) * v, x))
    return np.sum(np.array(feats) ** 2)


def sorted_key_weights(x):
    """a list of (score, array) pairs sorted by a constant key; weights by rank."""
    items = [(i % 3, x[i:i + 2]) for i in range(0, len(x) - 1, 2)]
    items = sorted(items, key=lambda t: t[0])
    return sum((r + 1) * np.sum(a ** 2) for r, (_, a) in enumerate(items))


class Opt(NamedTuple):
    lr: float
    decay: float = 0.9


def namedtuple_replace(x):
    """a momentum loop on a quadratic, the config updated with _replace."""
    cfg = Opt(0.1)
    v = np.zeros_like(x)
    for step in range(5):
        g = 2 * x * np.array([1.0, 3.0, 0.5])
        v = cfg.decay * v + g
        x = x - cfg.lr * v
        cfg = cfg._replace(lr=cfg.lr * 0.8)
    return np.sum(x ** 2)


@dataclass
class Model:
    w: np.ndarray
    scale: float = 1.0

    def predict(self, X):
        return self.scale * np.tanh(X @ self.w)


def dataclass_replace(w, X):
    m = Model(w)
    m2 = dataclasses.replace(m, scale=2.0)
    return np.sum(m.predict(X) * m2.predict(X))


class Polynomial:
    def __init__(self, coefs):
        self.coefs = coefs

    @staticmethod
    def horner(c, x):
        acc = 0.0
        for a in reversed(c):
            acc = acc * x + a
        return acc

    def __call__(self, x):
        return self.horner(self.coefs, x)


def callable_class_static(c, xs):
    p = Polynomial(c)
    return sum(p(x) ** 2 for x in xs)


def dict_comprehension_params(theta):
    names = ["a", "b", "c"]
    P = {n: theta[2 * i:2 * i + 2] for i, n in enumerate(names)}
    total = {k: np.sum(v ** 2) for k, v in P.items()}
    return total["a"] * total["b"] + np.prod(P["c"])


def array_of_scalar_list(x):
    vals = []
    for i in range(len(x) - 1):
        vals.append(x[i] * x[i + 1])
    v = np.array(vals)
    return np.sum(np.exp(-v ** 2))


def enumerate_start_reversed(x):
    total = 0.0
    for k, v in enumerate(reversed(x), start=1):
        total += v ** 2 / k
    return total


def math_on_floats(a, b=2.0):
    """math.exp/log/sqrt/hypot on float arguments."""
    r = math.hypot(a, b)
    return math.exp(-a) * math.log(1 + r) + math.sqrt(r) * math.sin(a)


def walrus_and_ternary(x):
    total = 0.0
    for v in x:
        if (s := v * v) > 0.1:
            total += s if v > 0 else -0.5 * s
        else:
            total += 3 * v
    return total


def assert_and_errstate(x):
    assert x.ndim == 1, "vector expected"
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(np.abs(x) > 1e-8, np.sin(x) / np.where(x == 0, 1.0, x), 1.0)
    return np.sum(r)


def stack_list_of_rows(x):
    rows = []
    for i in range(3):
        rows.append(x[i:i + 3] * (i + 1))
    M = np.stack(rows)
    return np.linalg.det(M + 3 * np.eye(3))


def ravel_reshape(x):
    M = x.reshape(3, -1)
    flat = M.T.ravel()
    return flat @ np.arange(1.0, len(flat) + 1) + np.sum(M.reshape(-1)[::2] ** 3)


def star_args_helper(x):
    def combine(*parts, weight=1.0):
        return weight * sum(np.sum(p ** 2) for p in parts)
    return combine(x[:2], x[2:4], x[4:]) + combine(x, weight=0.5)


def kwargs_defaults_helper(x):
    def energy(v, k=1.0, shift=0.0, **extra):
        return k * np.sum((v - shift) ** 2) + extra.get("bias", 0.0)
    return energy(x) + energy(x, k=2.0, shift=0.3) + energy(x, bias=1.5)


def global_constant_scale(x):
    return np.sum(np.log1p(x ** 2) * SCALE)


SCALE = np.array([1.0, 0.5, 2.0, 0.25, 1.5, 0.75])


def closure_counter(x):
    calls = []

    def f(v):
        calls.append(1)
        return np.cos(v) * len(calls)

    return np.sum(f(x)) + np.sum(f(2 * x))


def in_place_slices_on_copy(x):
    y = x.copy()
    y[1:] -= 0.5 * y[:-1]
    y[::2] *= 2.0
    y[-1] = y[0] * y[1]
    return np.sum(y ** 2)


def early_return_loop(x, tol=1e-3):
    """a Newton iteration on each entry's cube root, returning once converged."""
    r = np.ones_like(x)
    for it in range(50):
        step = (r ** 3 - x) / (3 * r ** 2)
        r = r - step
        if np.max(np.abs(step)) < tol:
            return np.sum(r)
    return np.sum(r)


def zip_strict_pairs(x):
    a, b = x[:3], x[3:]
    return sum(u * v + u ** 2 for u, v in zip(a, b))


def max_of_floats(a):
    """builtin max/min of scalars (smooth away from ties at the test point)."""
    return max(a * a, 0.5) + min(math.sin(a), 0.2) + abs(a - 3.0)


def print_progress_loop(x):
    loss = 0.0
    for i, v in enumerate(x):
        loss += (v - i) ** 2
        if i % 2 == 0:
            print(f"step {i}: loss={loss:.4f}")
    return loss
