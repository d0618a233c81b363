"""red38: dataclasses with __post_init__ (forward mode, hvp), np.piecewise, custom rules
declared with `jvp=lambda ...`, and straight-line / range-loop programs for
lowering="plain"."""
from dataclasses import dataclass

import numpy as np

from transform import rrule


@dataclass
class Gaussian:
    mu: np.ndarray
    log_sigma: np.ndarray

    def __post_init__(self):
        self.sigma = np.exp(self.log_sigma)


def gaussian_nll(theta, x):
    g = Gaussian(theta[:2], theta[2:])
    z = (x[:, None] - g.mu) / g.sigma
    return np.sum(0.5 * z ** 2 + g.log_sigma)


@dataclass
class Spring:
    k: float
    rest: float

    def __post_init__(self):
        self.k2 = self.k * self.k

    def energy(self, d):
        return 0.5 * self.k2 * (d - self.rest) ** 2


def spring_chain(k, pos):
    s = Spring(k, 1.0)
    d = pos[1:] - pos[:-1]
    return float(np.sum(s.energy(d)))


@dataclass
class Layer:
    W: np.ndarray
    scale: float = 1.0

    def __post_init__(self):
        self.Ws = self.W * self.scale

    def __call__(self, x):
        return np.tanh(self.Ws @ x)


def layer_loss(w, x):
    layer = Layer(w.reshape(2, 3), 0.5)
    return np.sum(layer(x) ** 2)


@dataclass
class Prior:
    loc: float
    scale: float

    def __post_init__(self):
        if self.scale <= 0:
            raise ValueError("scale")
        self.prec = 1.0 / self.scale ** 2


def map_objective(w, X, y):
    p = Prior(0.0, 2.0)
    r = X @ w - y
    return 0.5 * r @ r + 0.5 * p.prec * np.sum((w - p.loc) ** 2)


def huber_piecewise(x):
    a = np.abs(x)
    h = np.piecewise(x, [a <= 1.0, a > 1.0],
                     [lambda t: 0.5 * t ** 2, lambda t: np.abs(t) - 0.5])
    return np.sum(h * x)


def softplus_piecewise(x):
    y = np.piecewise(x, [x < 0.0], [lambda t: np.log1p(np.exp(t)),
                                     lambda t: t + np.log1p(np.exp(-t))])
    return np.sum(y ** 2)


def piecewise_scaled(x, c):
    y = np.piecewise(x, [x < 0.0, x >= 0.0], [lambda t: c * t ** 3, lambda t: np.sin(t)])
    return np.sum(y) * c


def gelu_like(x):
    return x * np.tanh(0.8 * x)


@rrule(gelu_like, jvp=lambda t, x: t[0] * (np.tanh(0.8 * x)
                                          + 0.8 * x * (1 - np.tanh(0.8 * x) ** 2)))
def _gelu_like_rule(x):
    th = np.tanh(0.8 * x)
    return x * th, lambda g: (g * (th + 0.8 * x * (1 - th ** 2)),)


def mlp_custom_act(w, X):
    h = gelu_like(X @ w.reshape(3, 2))
    return np.sum(h ** 2)


def logistic_loss_fn(z, y):
    return np.log1p(np.exp(-y * z))


@rrule(logistic_loss_fn, jvp=lambda t, z, y: (0.0 if t[0] is None else
                                              -y * t[0] / (1 + np.exp(y * z)))
       + (0.0 if t[1] is None else -z * t[1] / (1 + np.exp(y * z))))
def _logistic_rule(z, y):
    s = 1 / (1 + np.exp(y * z))
    return logistic_loss_fn(z, y), lambda g: (-g * y * s, -g * z * s)


def logreg_custom(w, X, y):
    return np.sum(logistic_loss_fn(X @ w, y)) + 0.01 * w @ w


def plain_straight(x, y):
    a = np.sin(x) * y
    b = np.exp(-a ** 2)
    c = np.sum(b * x) + np.dot(a, y)
    return c * c


def plain_range_sim(x0, k):
    x = x0
    v = 0.0
    for _ in range(8):
        a = -k * np.sin(x)
        v = v + 0.1 * a
        x = x + 0.1 * v
    return x * x + v


def plain_rnn(W, xs):
    h = np.zeros(3)
    for t in range(4):
        h = np.tanh(W @ h + xs[t])
    return np.sum(h ** 2)


def plain_branch(x):
    s = np.sum(x)
    if s > 0:
        y = np.exp(-x) * s
    else:
        y = x ** 2
    return np.sum(y)
