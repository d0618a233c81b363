"""Functions forward mode is checked on (tests/forward/): each in a file, so the
compiler can read its source."""
import dataclasses

import numpy as np

from runtime import defvjp, rrule


def straight(W, x, b):
    h = np.tanh(W @ x + b)
    return h * np.exp(-x) + np.sum(h ** 2) / 3.0


def readable(x):
    h = np.tanh(x)
    t2 = h ** 2
    return np.sum(t2) + np.sum(np.sum(t2, axis=0)) * np.sum(np.sum(t2, axis=1, keepdims=True))


def looped(x, w):
    s = 0.0
    acc = np.zeros_like(x)
    for i in range(len(x)):
        s = s + w * x[i] ** 2
        acc = acc + s * x
    return acc / (1.0 + s)


def branched(x, y):
    if np.sum(x) > 0:
        z = np.sin(x) * y
    else:
        z = np.cos(y) - x
    if np.max(z) > 10.0:
        z = z / 10.0
    return z


def whiled(x):
    v = x
    n = 0
    while np.sum(v ** 2) < 50.0:
        v = v * 1.5 + np.sin(v)
        n = n + 1
        if n > 20:
            break
    return v


def over_rows(A):
    total = 0.0
    for row in A:
        total = total + np.dot(row, row) * np.log1p(row[0] ** 2)
    return total


def containers(pair, params):
    a, b = pair
    w = params["w"]
    scale = params["scale"]
    out = [a * w, b + scale]
    return (out[0] @ out[1], {"sum": np.sum(a) * scale, "list": out})


def float32_fn(x, k):
    y = np.tanh(x * k) + x ** 2
    return np.sum(y, axis=0) * np.float32(0.5)


def keywords(x, y, axis=0, *, scale=2.0):
    m = np.mean(x * y, axis=axis, keepdims=True)
    z = np.clip(x - m, a_min=-1.0, a_max=1.0)
    return scale * np.sum(z ** 2, axis=axis) + np.linalg.norm(y, ord=2)


def stores(x, y):
    w = x.copy()
    w[0] = y[1] * 3.0
    w[1:] = w[1:] * y[0]
    ys = [np.exp(v) for v in w]
    return np.stack(ys) + w


def linalg(A, b):
    inv = np.linalg.inv(A)
    s = np.linalg.solve(A, b)
    return inv @ s + np.trace(A) * s


def scalars(a, b):
    c = a * b + 2.0
    d = c ** 3 - a / b
    return max(d, c) + abs(a - 4.0)


def matrix_out(x, y):
    return np.outer(np.sin(x), y) + np.diag(x)


def helper(v):
    return v * np.sin(v)


def calls_helper(x):
    return helper(x) + 1.0


def layer(W, x, scale=1.0, *, shift=0.0):
    return np.tanh(W @ x) * scale + shift


def calls_layers(W, x):
    h = layer(W, x, scale=2.0)
    for k in range(2):
        h = layer(W, h, shift=0.5)
    return np.sum(h ** 2) + helper(x[0])


def power(x, n):
    if n == 0:
        return np.ones_like(x)
    return x * power(x, n - 1)


def recursive(x):
    return power(x, 3) + x


# ---- refusals ----------------------------------------------------------------------
def calls_a_value(x):
    fns = [helper, helper]
    return fns[0](x)


def calls_a_closure(x):
    fns = [lambda t: t * x]
    return fns[0](x)


def custom_square(x):
    return x * x


@rrule(custom_square)
def _custom_square_rule(x):
    return x * x, lambda g: (2.0 * g * x,)


def calls_custom(x):
    return custom_square(x) + x


def doubled(x):
    return 2.0 * x


defvjp(doubled, "x", "2.0 * g")     # (no jvp=: a rule without a forward-mode term)


def calls_sign(A):
    s = doubled(A)          # (np.sign has a JVP since session 33)
    return np.sum(s * A)


def takes_varargs(*xs):
    return xs[0] * 2.0


def complex_inside(x):
    z = x * 1j
    return np.real(z * z)


def complex_abs(x):
    return np.sum(np.abs(x * 1j))


class Model:
    def __init__(self, w):
        self.w = w

    def energy(self, x):
        return np.sum(self.w * x ** 2)


def lists(xs, y):
    xs.append(y * 2.0)
    xs.extend([y, np.sin(y)])
    return sum(xs) * xs[0]


def inplace(x, y):
    w = x * 1.0
    w += y
    w[1] = w[2] * y[0] ** 2
    d = {"a": w}
    d["b"] = np.cos(y)
    acc = [w, y]
    acc[1] = acc[1] * 3.0
    return d["a"] * d["b"] + acc[1]


def tuple_outputs(x, y):
    q, r = divmod(x, y)
    mantissa, exponent = np.frexp(x * y)
    return r * 2.0 + q + mantissa * exponent


@dataclasses.dataclass
class Params:
    w: np.ndarray
    b: float
    name: str = "p"


def records(x, b):
    p = Params(w=x * 2.0, b=b)
    q = Params(np.sin(p.w), p.b * 3.0, "q")
    return np.sum(q.w * p.w) + q.b * b


def unpacking_loops(xs, ys):
    s = 0.0
    for i, v in enumerate(xs):
        s = s + v * i
    for a, b in zip(xs, ys):
        s = s + a * np.sin(b)
    return s


def record_argument(p, x):
    return np.sum(np.tanh(p.w * x) * p.b)


@dataclasses.dataclass
class Spring:
    k: float
    x0: np.ndarray

    @property
    def energy_scale(self):
        return self.k ** 2 * np.sum(self.x0)


def property_read(k, x):
    s = Spring(k * 2.0, np.sin(x))
    return s.energy_scale * x


def sorted_values(x, ys):
    s = sorted(x)                       # an array's entries: matched by value
    t = sorted(ys, reverse=True)        # a list's: by identity
    return s[0] * 2.0 + s[-1] ** 2 + t[0] * t[1]


def apply_twice(f, x):
    return f(f(x))


def passes_a_function(x):
    return apply_twice(helper, x) + apply_twice(np.tanh, x)
