"""red40: habits: helpers returning tuples and dicts, small classes with methods and
properties, *args, functools.partial, lambdas in dicts, early returns, while loops with
break, in-place updates on copies, printing progress, keyword arguments, float32."""
from dataclasses import dataclass
from functools import partial, reduce

import numpy as np


def _moments(x):
    m = x.mean()
    return m, ((x - m) ** 2).mean()


def standardise_tuple(x):
    """a helper returning (mean, var), unpacked; z-scores cubed."""
    m, v = _moments(x)
    z = (x - m) / np.sqrt(v)
    return np.sum(z ** 3) / len(x)


def _summary(x):
    return {"mean": x.mean(), "max": x.max(), "norm": np.sqrt(x @ x)}


def dict_summary(x):
    s = _summary(x)
    keys = sorted(s)
    return sum(s[k] ** 2 for k in keys) + s["mean"] * s["norm"]


class Polynomial:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    @property
    def degree(self):
        return len(self.coeffs) - 1

    def __call__(self, x):
        out = np.zeros_like(x)
        for c in self.coeffs[::-1]:
            out = out * x + c
        return out

    def derivative(self):
        return Polynomial(self.coeffs[1:] * np.arange(1, self.degree + 1))


def polynomial_class(c, x):
    p = Polynomial(c)
    dp = p.derivative()
    return np.sum(p(x) ** 2) + np.sum(dp(x) ** 2)


def star_args_sum(x):
    def total(*parts, scale=1.0):
        return scale * sum(np.sum(p ** 2) for p in parts)
    return total(x[:2], x[2:4], x[4:], scale=0.5) + total(x)


def partial_chain(x):
    """functools.partial around np.clip, np.power and a local function, reduce."""
    clip = partial(np.clip, a_min=-2.0, a_max=2.0)
    sq = partial(np.multiply, 1.5)
    fns = [clip, np.sin, sq]
    return np.sum(reduce(lambda acc, f: f(acc), fns, x))


def lambda_dict_dispatch(x, kind="softplus"):
    acts = {
        "relu": lambda z: np.maximum(z, 0),
        "softplus": lambda z: np.log1p(np.exp(z)),
        "tanh": np.tanh,
    }
    h = acts[kind](x)
    return np.sum(h * acts["tanh"](x))


def early_return_norm(x, tol=1e-8):
    n = np.sqrt(x @ x)
    if n < tol:
        return 0.0
    u = x / n
    if u[0] > 0.99:
        return n
    return n * np.sum(u ** 4)


def while_break_series(x):
    """a Taylor series of exp(x) summed until terms are small (while with break)."""
    term = np.ones_like(x)
    total = np.ones_like(x)
    k = 1
    while True:
        term = term * x / k
        total = total + term
        if np.max(np.abs(term)) < 1e-14 or k > 60:
            break
        k += 1
    return np.sum(np.log(total))


def inplace_on_copy(x):
    """updates on a copy: y = x.copy(); y[::2] *= 2; y += 1; y[y > 1] -= 0.5 (no kink)."""
    y = x.copy()
    y[::2] *= 2.0
    y += 1.0
    y[1] = y[0] * y[2]
    return np.sum(y ** 2)


def print_progress(w, X, y):
    """gradient steps printing the loss each few iterations."""
    loss = None
    for it in range(6):
        r = X @ w - y
        loss = r @ r
        if it % 3 == 0:
            print(f"iter {it}: loss {loss:.4f}")
        w = w - 0.05 * X.T @ r
    return loss


@dataclass
class Scaler:
    mean: np.ndarray
    scale: np.ndarray

    @classmethod
    def fit(cls, X):
        return cls(X.mean(axis=0), X.std(axis=0))

    def transform(self, X):
        return (X - self.mean) / self.scale


def scaler_classmethod(X, w):
    Z = Scaler.fit(X).transform(X)
    return np.sum(np.tanh(Z @ w))


def views_and_slices(x):
    """reshape views, transposes, negative strides, np.newaxis."""
    M = x.reshape(3, 4)
    top, bottom = M[:1], M[1:]
    rev = M[:, ::-1]
    out = top.T * bottom[np.newaxis, 0].T
    return np.sum(out) + np.sum(rev[1] * M[2]) + np.trace(M[:, :3])


def kwargs_splat(x, **opts):
    cfg = {"power": 3, "scale": 0.5}
    cfg.update(opts)
    return cfg["scale"] * np.sum(np.abs(x) ** cfg["power"])


def kwargs_splat_call(x):
    return kwargs_splat(x, power=4) + kwargs_splat(x, **{"scale": 2.0})


class Counter:
    """a class holding mutable state updated by a method."""

    def __init__(self):
        self.total = 0.0
        self.calls = 0

    def add(self, v):
        self.total = self.total + v
        self.calls += 1
        return self


def stateful_accumulator(x):
    acc = Counter()
    for xi in x:
        acc.add(np.exp(-xi ** 2))
    return acc.total / acc.calls


def enumerate_weights(x):
    w = [1.0 / (k + 1) for k in range(len(x))]
    return sum(wk * np.sin(xk) ** 2 for wk, xk in zip(w, x)) + max(w) * x[0]


def nested_tuple_return(x):
    def split(v):
        return (v[:2], (v[2:4], v[4:]))
    a, (b, c) = split(x)
    return a @ a * np.sum(b) + np.prod(c)


def min_builtin_of_arrays(x):
    """the builtin min and max of array scalars and sorted() of a list of floats."""
    vals = [float(np.sum(x[:2] ** 2)), float(np.sum(x[2:] ** 2))]
    return min(vals) + 0.5 * max(vals)


def float32_logreg(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(np.float32(0.0), z) - y * z)


def float32_mlp(theta, X):
    W = theta[:6].reshape(3, 2)
    h = np.tanh(X @ W)
    return np.sum(h ** 2) * np.float32(0.5)
