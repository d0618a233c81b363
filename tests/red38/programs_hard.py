"""red38, second batch: the same features with the habits that break optimiser
assumptions: an accumulator read inside its own loop, `-=`, np.outer(x, x), slices of
the accumulator, buffers reused across iterations; __post_init__ rewriting a field or
calling a method; np.piecewise with `args=` and constants; custom rules in loops;
plain lowering with in-place updates, stepped ranges and branches in loops."""
from dataclasses import dataclass, field

import numpy as np

from transform import rrule


def outer_read_in_loop(W, X):
    """the accumulator is read each iteration (no batching of the products)."""
    acc = np.zeros_like(W)
    s = 0.0
    for i in range(X.shape[0]):
        acc += np.outer(W @ X[i], X[i])
        s = s + np.sum(np.tanh(acc))
    return s


def outer_minus_self(w, X):
    """a covariance built with -= and np.outer(x, x)."""
    C = np.eye(w.shape[0])
    for i in range(X.shape[0]):
        z = X[i] * w
        C -= 0.05 * np.outer(z, z)
    return np.sum(C ** 2) + np.log(np.linalg.det(C))


def outer_into_slice(W, X):
    acc = np.zeros((W.shape[0], W.shape[1] + 1))
    for i in range(X.shape[0]):
        acc[:, :-1] += np.outer(np.sin(W @ X[i]), X[i])
        acc[:, -1] += W @ X[i]
    return np.sum(acc ** 2)


def outer_conditional_scale(W, X):
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        g = W @ X[i]
        if np.sum(g) > 0:
            acc += np.outer(g, X[i])
        else:
            acc += 0.5 * np.outer(g ** 2, X[i])
    return np.sum(acc * W)


def outer_break_after_read(W, X):
    acc = np.zeros_like(W)
    for i in range(X.shape[0]):
        acc += np.outer(W @ X[i], X[i])
        if np.sum(acc ** 2) > 4.0:
            break
    return np.sum(acc ** 3)


def buffer_reused(x):
    """one buffer overwritten each step, its old value read first."""
    buf = np.zeros_like(x)
    total = 0.0
    for k in range(4):
        prev = buf.copy()
        buf[:] = np.sin(x * (k + 1)) + 0.5 * prev
        total = total + np.sum(buf * prev) + np.sum(buf)
    return total


def while_continue_mix(x):
    k, s = 0, 0.0
    while k < 6:
        k += 1
        if k % 2 == 0:
            continue
        s = s + np.sum(np.exp(-x * k))
        if k > 4:
            break
    return s


def kalman_scalar(q, ys):
    """a scalar Kalman filter's log likelihood in the process noise q."""
    m, P, ll = 0.0, 1.0, 0.0
    for t in range(ys.shape[0]):
        P = P + q
        S = P + 0.5
        K = P / S
        ll = ll - 0.5 * (np.log(2 * np.pi * S) + (ys[t] - m) ** 2 / S)
        m = m + K * (ys[t] - m)
        P = (1 - K) * P
    return ll


@dataclass
class Standardizer:
    x: np.ndarray
    eps: float = 1e-3

    def __post_init__(self):
        self.x = self.x - np.mean(self.x)
        self.scale = np.sqrt(np.mean(self.x ** 2) + self.eps)

    def z(self):
        return self.x / self.scale


def standardized_energy(x):
    s = Standardizer(x)
    return np.sum(np.cos(s.z()) * s.z())


@dataclass
class Orbit:
    r: float
    v: float
    mu: float = 1.0
    energy: float = field(init=False)

    def __post_init__(self):
        self.energy = self.kinetic() - self.mu / self.r

    def kinetic(self):
        return 0.5 * self.v ** 2


def orbit_energy(r):
    o = Orbit(r, 0.8)
    return o.energy * o.r


@dataclass(frozen=True)
class Box:
    lo: np.ndarray
    hi: np.ndarray

    def __post_init__(self):
        if np.any(self.hi < self.lo):
            raise ValueError("box")


def box_penalty(x):
    b = Box(x - 1.0, x + 1.0)
    return np.sum((b.hi - b.lo) * np.sin(b.lo) ** 2)


def piecewise_args(x, c):
    y = np.piecewise(x, [x < 0.0], [lambda t, a: a * t ** 3, lambda t, a: np.sin(a * t)], c)
    return np.sum(y ** 2)


def piecewise_constant(x):
    y = np.piecewise(x, [x < -1.0, x > 1.0], [-1.0, 1.0, lambda t: t * (1.5 - 0.5 * t * t)])
    return np.sum(y * np.exp(0.3 * x))


def smooth_l1(r, beta):
    return np.where(np.abs(r) < beta, 0.5 * r * r / beta, np.abs(r) - 0.5 * beta)


@rrule(smooth_l1, jvp=lambda t, r, beta: (0.0 if t[0] is None else
                                          np.where(np.abs(r) < beta, r / beta, np.sign(r)) * t[0]))
def _smooth_l1_rule(r, beta):
    d = np.where(np.abs(r) < beta, r / beta, np.sign(r))
    return smooth_l1(r, beta), lambda g: (g * d, None)


def robust_regression_loop(w, X, y):
    total = 0.0
    for i in range(X.shape[0]):
        total = total + np.sum(smooth_l1(X[i] @ w - y[i], 1.0))
    return total + 0.1 * np.sum(w ** 2)


def plain_inplace(x):
    y = x * 1.0
    y += np.sin(x)
    y *= 2.0
    return np.sum(y ** 2)


def plain_stepped_range(x, a):
    s = 0.0
    for k in range(1, 9, 2):
        s = s + np.sin(a * k) * x ** k / k
    return s


def plain_branch_in_loop(x):
    s = 0.0
    for i in range(5):
        if i % 2 == 0:
            s = s + np.sum(np.sin(x * i))
        else:
            s = s * 0.5 + np.sum(x ** 2)
    return s


def plain_array_index_loop(x):
    s = 0.0
    for i in range(x.shape[0] - 1):
        s = s + (x[i + 1] - x[i]) ** 2 * np.exp(x[i])
    return s
