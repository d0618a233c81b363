"""Small functions the golden tests compile: one per optimiser pass (the smallest input
on which the pass has something to do), then whole functions a reviewer reads."""
import math

import numpy as np


# ---- one per pass --------------------------------------------------------------------
def rebound(x):
    y = x * 2.0
    y = y * x            # rebinding y resets its adjoint
    return y


def sine_steps(x):
    for i in range(3):
        x = np.sin(x) * 0.5
    return x


def shifted_ratio(x, y):
    return y / (1.0 + x * x)


def damped(x):
    return x * 0.999 + 0.001 * math.sin(x)


def tanh_total(a):
    return np.sum(np.tanh(a))


def second_difference(u):
    lap = u[2:] - 2 * u[1:-1]
    return np.sum(np.sin(lap))


def scaled_steps(x, n):
    for i in range(n):
        x = x * 0.999
    return x


def tanh_layer_loop(W, b, x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.tanh(W @ x + b))
    return s


def first_rows(W, xs):
    s = 0.0
    for x in xs:
        s = s + (W @ x)[0]
    return s


def first_rows_complex(W, xs):
    s = 0.0
    for x in xs:                  # a complex value around: shapes read back are kept
        s = s + np.real((W @ x)[0] * (1 + 1j))
    return s


def lazy_product(x, y):
    return np.sum(x * y) * np.sum(y)


def unused_steps(x, n):
    s = 0.0
    for i in range(n):
        t = 2.0 * i
        s = s + x
    return s


def squares_total(h):
    return np.sum(h ** 2) * 0.1


def self_product(W, x):
    return np.sum(W @ x) + np.sum(W * W)


def two_sums(x, W):
    t = x * W
    y = np.sum(t)
    z = y * y
    return z + 1.0


# ---- whole functions ------------------------------------------------------------------
def mlp_loss(W1, b1, W2, b2, x, y):
    h = np.tanh(x @ W1 + b1)
    logits = h @ W2 + b2
    z = logits - np.max(logits, axis=1, keepdims=True)
    logp = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.mean(np.sum(logp * y, axis=1))


def rnn_loss(Wh, Wx, b, xs):
    h = np.zeros(Wh.shape[0])
    for x in xs:
        h = np.tanh(Wh @ h + Wx @ x + b)
    return np.sum(h * h)


def piecewise(x):
    if x > 0.0:
        y = x * x
    else:
        y = -x
    return y * 3.0


def newton_sqrt(a):
    x = a
    k = 0
    while k < 4:
        x = 0.5 * (x + a / x)
        k = k + 1
    return x


def norm_of_squares(xs):
    squares = [x * x for x in xs]
    return np.sqrt(np.sum(np.array(squares)))


def sq(v):
    return v * v


def helper_call(x):
    return sq(np.sin(x)) + sq(np.cos(x)) * 2.0


def ridge(w, X, y, lam):
    r = X @ w - y
    return np.sum(r * r) / len(y) + lam * np.sum(w * w)


def running_product(xs):
    p = 1.0
    total = 0.0
    for x in xs:
        p = p * x
        total = total + p
    return total


def softplus_sum(x):
    return np.sum(np.log1p(np.exp(x)))


def logistic_map(r, x, n):
    for i in range(n):
        x = r * x * (1.0 - x)
    return x


def folded_loop(x0, a0):
    x0 = sum(0.5 for v0 in a0)
    return np.sum(x0 + a0)


def readable_sweep(W, x, h):
    """The adjoint a user reads first (docs/benchmarks.md shows it before and after
    constant folding, like-term merging and shapes known from parameters)."""
    a = W @ x + W @ x
    b = np.sum(h ** 2) * 0.1
    c = np.tanh(a) * 0.5
    return np.sum(c) + b + np.sum(W * W)


def pair_forces(q, m):
    """N-body accelerations: an unbroadcast per broadcast operand, a spread per partial sum."""
    d = q[:, None, :] - q[None, :, :]
    inv3 = (np.sum(d ** 2, axis=2) + 0.01) ** -1.5
    a = np.sum(m[None, :, None] * d * inv3[:, :, None], axis=1)
    return np.sum(a ** 2)


def joined_steps(u, k, n):
    """Heat steps joined with np.concatenate: the join's cotangent is cut from a buffer
    the backward loop owns, and goes back into it (ReuseCutBuffers)."""
    for _ in range(n):
        lap = u[2:] - 2 * u[1:-1] + u[:-2]
        u = np.concatenate([u[:1], u[1:-1] + k * lap, u[-1:]])
    return np.sum(u ** 2)
