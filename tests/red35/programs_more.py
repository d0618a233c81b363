"""Session 35 red team (red35) programs, batch 2: array methods and views, masked and
sliced stores, arrays built from scalars, small linear algebra built from entries, FFT
and convolution losses, recurrences, dict comprehension updates, fixed-point loops."""
import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from tests.optional_scipy import scipy_module

special = scipy_module("special")
integrate = scipy_module("integrate")


def methods_mix(x):
    return x.sum() * x.mean() + x.max() + x.dot(x) + x.clip(-0.5, 0.5).prod() + x.var()


def leaky_masked(x):
    y = x.copy()
    y[y < 0] *= 0.1
    return np.sum(y ** 2 * np.arange(1.0, len(x) + 1))


def relu_masked_assign(x):
    y = x * 1.0
    y[y < 0] = 0.0
    return y * np.cos(x)


def from_scalars(x):
    A = np.array([[x[0], x[1]], [x[1], x[2] + 2.0]])
    return np.log(np.linalg.det(A)) + np.trace(np.linalg.inv(A))


def solve_built(x):
    A = np.diag(x) + 0.5 * np.ones((len(x), len(x)))
    b = np.arange(1.0, len(x) + 1)
    return np.linalg.solve(A, b)


def fft_power(x):
    X = np.fft.rfft(x)
    return np.sum(np.abs(X) ** 2 * np.arange(len(X)))


def smooth_conv(x):
    k = np.array([0.25, 0.5, 0.25])
    y = np.convolve(x, k, mode="same")
    return y[1:-1] ** 2


def trapz_energy(a):
    t = np.linspace(0.0, 1.0, 11)
    y = np.exp(-a * t) * np.sin(3 * t)
    return np.trapezoid(y ** 2, t)


def lstm_cell(x, h, c, W):
    z = W @ np.concatenate([x, h])
    i, f, o, g = np.split(z, 4)
    c = special.expit(f) * c + special.expit(i) * np.tanh(g)
    h = special.expit(o) * np.tanh(c)
    return h, c


def lstm_loss(W, xs):
    h, c = np.zeros(2), np.zeros(2)
    for x in xs:
        h, c = lstm_cell(x, h, c, W)
    return np.sum(h ** 2) + 0.1 * np.sum(c)


def dict_sgd(params, X, y, lr=0.1):
    for step in range(2):
        pred = X @ params["w"] + params["b"]
        r = pred - y
        grads = {"w": X.T @ r / len(y), "b": np.mean(r)}
        params = {k: v - lr * grads[k] for k, v in params.items()}
    return np.mean((X @ params["w"] + params["b"] - y) ** 2)


def sorted_keys(params):
    total = 0.0
    for name in sorted(params):
        total = total + np.sum(np.sin(params[name]) * len(name))
    return total


@dataclass
class Config:
    scale: float
    shift: np.ndarray
    name: str = "cfg"


def dc_replace(cfg, x):
    cfg2 = dataclasses.replace(cfg, scale=cfg.scale * 2)
    return np.sum((cfg2.scale * x + cfg2.shift) ** 2)


def fixed_point(a):
    x = 0.5
    for _ in range(100):
        x_new = np.cos(a * x)
        if abs(x_new - x) < 1e-13:
            break
        x = x_new
    return x_new


def builtin_clamp(x):
    total = 0.0
    for v in x:
        total += min(max(v, -0.5), 0.8) ** 2 + abs(v) * v
    return total


def outer_kron(x):
    return np.sum(np.outer(x, x[::-1]) * np.kron(np.eye(2), np.ones((2, 2)))[: len(x), : len(x)])


def tuple_axis(x, y):
    return np.sum(np.exp(x[:, None] * y[None, :]), axis=(0, 1)) + np.sum(x.reshape(2, -1).mean(axis=0, keepdims=True))


def prealloc_loop(x):
    out = np.empty(len(x))
    prev = 0.0
    for i in range(len(x)):
        prev = 0.5 * prev + x[i] ** 2
        out[i] = prev
    return out


def append_hstack(x):
    out = np.array([])
    for i in range(3):
        out = np.append(out, x[i] * x[(i + 1) % 3])
    return np.hstack([out, np.vstack([x, x ** 2]).sum(axis=0)])


def dropout_fixed_seed(w, x):
    rng = np.random.default_rng(0)
    mask = rng.uniform(size=w.shape) > 0.3
    return np.sum(np.tanh((w * mask / 0.7) @ x) ** 2)


def polyval_coef(c, x):
    return np.sum(np.polyval(c, x) ** 2)


def take_put(x):
    idx = np.array([2, 0, 1, 2])
    y = np.take(x, idx)
    return np.sum(y * np.cumprod(y))


def count_weighted(x):
    n_pos = np.sum(x > 0)
    return n_pos * np.sum(x ** 2) + float(n_pos) * np.mean(x)


def odeint_decay(k):
    t = np.linspace(0.0, 1.0, 5)
    sol = integrate.odeint(lambda y, t, k: -k * y, 1.0, t, args=(k,))
    return np.sum(sol ** 2)


def float_conversion(x):
    s = float(np.sum(x ** 2))
    return s * np.sin(x[0].item()) + math.sqrt(s)


def swap_transpose(A):
    B = A.reshape(2, 3, 2).swapaxes(0, 2)
    C = np.transpose(A.reshape(3, 4))
    return np.sum(B ** 2 * np.arange(3.0)[None, :, None]) + np.sum(C[:, 0] * C[:, 1])


def softmax_temperature(T, logits=(1.0, -0.5, 2.0)):
    z = np.array(logits) / T
    p = np.exp(z - np.max(z))
    p = p / p.sum()
    return -np.sum(p * np.log(p))


def loop_power(x):
    total = 0.0
    for k in range(1, 4):
        total = total + np.sum(x ** k) / k
    return total


def inner_matmul(A, b):
    return np.inner(np.matmul(A, b), b) + np.dot(A, A).trace()


def implicit_newton(p):
    """x solves x + p x**3 = 1, by a Newton loop; its derivative in p through the loop."""
    x = np.ones_like(p)
    for _ in range(20):
        x = x - (x + p * x ** 3 - 1.0) / (1.0 + 3 * p * x ** 2)
    return x


def hist_dict(x):
    hist = {"loss": []}
    for i in range(3):
        hist["loss"].append(np.sum((x - i) ** 2))
    return min(hist["loss"]) + np.mean(hist["loss"])


def while_counter(x):
    i = 0
    total = 0.0
    while i < len(x):
        if x[i] < -1.0:
            i += 1
            continue
        total = total + np.exp(-x[i] ** 2)
        i += 1
    return total


def norm_axis_inf(x):
    M = x.reshape(2, 3)
    return np.sum(np.linalg.norm(M, axis=0)) + np.linalg.norm(M, ord="fro") + np.linalg.norm(x, 1)
