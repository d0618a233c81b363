"""Session 32 red team (fix), round 3: particles updated in place on a copy, one-hot
labels from np.eye, np.convolve and np.roll, leapfrog steps, a recursive Horner
polynomial in a generator sum, a dict of statistics with math on scalars, hstack/vstack
of rows built in a loop, `y[idx] += v` with a repeated index (each index once, as NumPy
buffers), an optimizer object with state built inside the loss, a bootstrap with a
seeded generator; round 4: an rfft band power, a fixed point iterated until converged,
minibatches from a generator, functools.partial with map, mask/negative/step writes,
inv and det, enumerate(start=1), lambdas binding a loop variable as a default, assert
with an f-string. All passed; they keep guarding."""
import functools
import math

import numpy as np

from .case import case, floats


@case(floats((4,), (4,)), wrt=(0, 1))
def particles_in_place(pos0, vel, dt=0.1, steps=5):
    pos = pos0.copy()
    for _ in range(steps):
        pos += vel * dt
        vel = vel - 0.1 * pos * dt
    return np.sum(pos ** 2) + np.sum(vel ** 2)


def _labels(rng):
    return [rng.integers(0, 4, size=12)]


def _softmax_inputs(rng):
    return [rng.standard_normal((3, 4)), rng.standard_normal((12, 3))] + _labels(rng)


@case(_softmax_inputs, wrt=0)
def softmax_one_hot_eye(W, X, labels):
    Y = np.eye(W.shape[1])[labels]
    Z = X @ W
    Z = Z - Z.max(axis=1, keepdims=True)
    P = np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)
    return -np.sum(Y * np.log(P)) / len(labels)


@case(floats((8,), (3,)), wrt=(0, 1))
def convolve_then_roll_laplacian(u, kernel):
    s = np.convolve(u, kernel, mode="same")
    lap = np.roll(s, 1) - 2 * s + np.roll(s, -1)
    return np.sum(lap ** 2) + 0.1 * np.sum(s ** 2)


@case(floats((3,), (3,)), wrt=(0, 1))
def leapfrog_half_steps(q0, p0, eps=0.1, L=5):
    q, p = q0, p0
    p = p - 0.5 * eps * q
    for i in range(L):
        q = q + eps * p
        if i != L - 1:
            p = p - eps * q
    p = p - 0.5 * eps * q
    return 0.5 * np.sum(q ** 2) + 0.5 * np.sum(p ** 2)


def _horner(coeffs, x):
    if len(coeffs) == 1:
        return coeffs[0]
    return coeffs[0] + x * _horner(coeffs[1:], x)


@case(floats((3,), (5,), (5,)), wrt=0)
def recursive_horner_fit(coeffs, xs, ys):
    return sum((_horner(coeffs, x) - y) ** 2 for x, y in zip(xs, ys))


@case(floats((6,)), wrt=0)
def stats_dict_with_math(x):
    stats = {}
    stats["mean"] = np.mean(x)
    stats["var"] = np.mean((x - stats["mean"]) ** 2)
    stats["sd"] = math.sqrt(stats["var"])
    return stats["sd"] + math.exp(-stats["mean"] ** 2)


@case(floats((2,), (3,)), wrt=(0, 1))
def hstack_rows_then_vstack(a, b):
    rows = []
    for k in range(3):
        rows.append(np.hstack([a * k, b[:1] * (k + 1)]))
    M = np.vstack(rows)
    return np.sum(M @ M.T)


@case(floats((3,), (4,)), wrt=(0, 1))
def repeated_index_added_once(x, v):
    y = x.copy()
    idx = np.array([0, 2, 2, 1])
    y[idx] += v
    return np.sum(y ** 2)


class _Adam:
    def __init__(self, n, lr=0.1):
        self.m = np.zeros(n)
        self.v = np.zeros(n)
        self.lr = lr

    def step(self, w, g):
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.99 * self.v + 0.01 * g * g
        return w - self.lr * self.m / (np.sqrt(self.v) + 1e-3)


@case(floats((3,), (3,)), wrt=(0, 1))
def unrolled_adam_object(w0, target):
    opt = _Adam(len(w0))
    w = w0
    for _ in range(3):
        g = 2 * (w - target)
        w = opt.step(w, g)
    return np.sum((w - target) ** 2)


@case(floats((6,)), wrt=0)
def bootstrap_seeded(x):
    rng = np.random.default_rng(1)
    total = 0.0
    for _ in range(5):
        idx = rng.integers(0, len(x), size=len(x))
        total += np.mean(x[idx]) ** 2
    return total / 5


# ---- round 4 (passed) -------------------------------------------------------------------

SCALE = 0.5


@case(floats((8,), (8,)), wrt=(0, 1))
def rfft_band_power(x, w):
    spec = np.abs(np.fft.rfft(x * w)) ** 2
    return np.sum(spec[1:4]) / len(x)


@case(floats((), scale=0.2, offset=0.7), wrt=0)
def fixed_point_until_converged(a, x0=0.0):
    x = x0
    err = 1.0
    it = 0
    while err > 1e-10 and it < 200:
        x_new = np.cos(a * x)
        err = abs(x_new - x)
        x = x_new
        it += 1
    return x


def _batches(X, y, size):
    for i in range(0, len(y), size):
        yield X[i:i + size], y[i:i + size]


@case(floats((3,), (12, 3), (12,)), wrt=0)
def minibatches_from_a_generator(w, X, y):
    total = 0.0
    for xb, yb in _batches(X, y, 4):
        total += SCALE * np.sum((xb @ w - yb) ** 2)
    return total


def _sq_err(w, x, y):
    return (x @ w - y) ** 2


@case(floats((3,), (12, 3), (12,)), wrt=0)
def partial_mapped_losses(w, X, y):
    f = functools.partial(_sq_err, w)
    return sum(map(f, X, y)) / len(y)


@case(floats((7,)), wrt=0)
def mask_negative_and_step_writes(x):
    y = x.copy()
    y[y < 0] = 0.1 * y[y < 0]
    y[-1] = y[-1] * 3.0
    y[::2] = y[::2] + 1.0
    return np.sum(y ** 2)


@case(floats((3, 3)), wrt=0)
def inverse_trace_log_det(A):
    B = A @ A.T + np.eye(A.shape[0])
    return np.trace(np.linalg.inv(B)) + np.log(np.linalg.det(B))


@case(floats((6,), ()), wrt=(0, 1))
def discounted_from_one(rewards, gamma):
    total = 0.0
    for t, r in enumerate(rewards, start=1):
        total += gamma ** t * r
    return total


@case(floats((4,)), wrt=0)
def lambdas_binding_loop_defaults(x):
    fs = []
    for k in range(3):
        fs.append(lambda t, k=k: np.sin(k * t))
    return sum(np.sum(f(x)) for f in fs)


@case(floats((4,)), wrt=0)
def assert_and_fstring(x):
    assert x.ndim == 1, f"bad shape {x.shape}"
    msg = f"norm {np.linalg.norm(x):.2f}"
    return np.sum(x ** 3) + len(msg) * 0.0
