"""Round 29 red team, second batch: simulations with periodic boundaries and spectral
steps, optimiser loops with in-place parameter updates, stateful objects, fixed-point
iterations, and the NumPy/SciPy calls that come with them."""
import functools
import math

import numpy as np
import scipy.linalg
import scipy.signal

from .case import case, floats, refused


def _make(*parts):
    def make(rng):
        return [p(rng) for p in parts]
    return make


def _normal(*shape, scale=1.0):
    return lambda rng: scale * rng.standard_normal(shape)


@case(_make(_normal(12, scale=0.5), lambda rng: 0.15), wrt=(0, 1))
def periodic_heat_with_roll(u0, alpha):
    u = u0
    for _ in range(10):
        u = u + alpha * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
    return np.sum(u[:4] ** 2) + np.max(u)


@case(_make(_normal(6, 6, scale=0.5), lambda rng: 0.1), wrt=(0, 1))
def heat_2d_neumann_boundaries(T0, k):
    T = T0.copy()
    for _ in range(6):
        Tn = T.copy()
        T[1:-1, 1:-1] = Tn[1:-1, 1:-1] + k * (Tn[2:, 1:-1] + Tn[:-2, 1:-1] + Tn[1:-1, 2:]
                                             + Tn[1:-1, :-2] - 4 * Tn[1:-1, 1:-1])
        T[0, :] = T[1, :]
        T[-1, :] = T[-2, :]
        T[:, 0] = T[:, 1]
        T[:, -1] = T[:, -2]
    return np.sum(T * np.linspace(0, 1, 6))


@case(_make(_normal(16, scale=0.5), lambda rng: 0.05), wrt=(0, 1))
def spectral_heat_with_rfft(u0, nu):
    k = np.fft.rfftfreq(16, d=1.0 / 16) * 2 * np.pi / 16
    u_hat = np.fft.rfft(u0)
    for _ in range(3):
        u_hat = u_hat * np.exp(-nu * k ** 2)
    u = np.fft.irfft(u_hat, n=16)
    return np.sum(u ** 2) + u[3]


@case(_make(_normal(5, 5), _normal(3, 3, scale=0.5)), wrt=(0, 1))
def conv2d_with_scipy_signal(img, kern):
    out = scipy.signal.convolve2d(img, kern, mode="valid")
    return np.sum(np.tanh(out) ** 2)


@case(_make(_normal(3), lambda rng: 0.1), wrt=(0, 1))
def sgd_inner_loop_with_inplace_dict_updates(w0, lr):
    params = {"w": w0.copy(), "b": np.zeros(1)}
    X = np.array([[1.0, 0.5, -0.2], [0.3, -1.0, 0.8], [0.0, 0.4, 1.5]])
    y = np.array([1.0, -1.0, 0.5])
    for step in range(4):
        r = X @ params["w"] + params["b"] - y
        grads = {"w": X.T @ r, "b": np.sum(r, keepdims=True)}
        for k in params:
            params[k] = params[k] - lr * grads[k]
    return 0.5 * np.sum((X @ params["w"] + params["b"] - y) ** 2)


@case(_make(_normal(4), lambda rng: 0.05), wrt=(0, 1))
def momentum_optimiser_unrolled(w0, lr):
    A = np.diag([1.0, 2.0, 3.0, 4.0])
    w, v = w0, np.zeros(4)
    for _ in range(6):
        g = A @ w
        v = 0.9 * v + g
        w = w - lr * v
    return 0.5 * w @ A @ w


class RNN:
    def __init__(self, W, U):
        self.W, self.U = W, U
        self.h = np.zeros(W.shape[0])

    def step(self, x):
        self.h = np.tanh(self.W @ self.h + self.U @ x)
        return self.h


@refused(_make(_normal(3, 3, scale=0.5), _normal(3, 2), _normal(4, 2)),
         "a method assigns to an attribute (self.h = ...)", wrt=(0, 1))
def stateful_object_updated_in_a_method(W, U, xs):
    rnn = RNN(W, U)
    total = 0.0
    for x in xs:
        total = total + np.sum(rnn.step(x) ** 2)
    return total + np.sum(rnn.h)


@case(_make(_normal(3, 3, scale=0.2), _normal(3)), wrt=(0, 1))
def fixed_point_iteration_while_loop(W, b):
    x = np.zeros(3)
    it = 0
    while it < 50:
        x_new = np.tanh(W @ x + b)
        if np.max(np.abs(x_new - x)) < 1e-12:
            break
        x = x_new
        it += 1
    return np.sum(x ** 2)


@case(_make(_normal(4, 3), _normal(3)), wrt=(0, 1))
def enumerate_zip_and_float_item(X, w):
    ys = [0.5, -1.0, 2.0, 0.0]
    loss = 0.0
    for i, (x, y) in enumerate(zip(X, ys)):
        pred = float(x @ w)
        loss += (pred - y) ** 2 * (1.0 + 0.1 * i)
    return loss + math.exp(-abs(w.sum().item()))


@case(_make(_normal(4, 4, scale=0.5), _normal(4)), wrt=(0, 1))
def gaussian_slogdet_and_cho_solve(B, x):
    S = B @ B.T + np.eye(4)
    sign, logdet = np.linalg.slogdet(S)
    c, low = scipy.linalg.cho_factor(S)
    sol = scipy.linalg.cho_solve((c, low), x)
    return 0.5 * (logdet + x @ sol)


@case(_make(_normal(3, 3, scale=0.3)), wrt=0)
def matrix_exponential_and_eigh(A):
    E = scipy.linalg.expm(A - A.T)
    S = A + A.T
    w, V = np.linalg.eigh(S)
    return np.sum(E[0] * np.arange(3)) + w[-1] + np.sum(w ** 2)


@case(_make(_normal(6)), wrt=0)
def sort_cumsum_and_clip(x):
    s = np.sort(x)[::-1]
    c = np.cumsum(s)
    top = x[np.argsort(x)[-2:]]
    return np.sum(np.clip(c, -1.0, 1.5)) + np.sum(top ** 2) + np.cumprod(1 + 0.1 * x)[-1]


@case(_make(_normal(5, 3), _normal(3)), wrt=(0, 1))
def method_chains_and_inplace_operators(X, w):
    z = X.dot(w)
    z *= 2.0
    z -= z.mean()
    m = X.mean(0)
    m /= m.std() + 1.0
    return z.max() + (z ** 2).sum() + m.sum() + np.linalg.norm(X, axis=1).sum()


@case(_make(lambda rng: rng.standard_normal((3, 2)).astype(np.float32),
            lambda rng: rng.standard_normal(2).astype(np.float32)),
      wrt=(0, 1), rtol=2e-3, atol=1e-3)
def float32_parameters_softplus(W, b):
    x = np.array([[0.5, -0.2, 1.0], [1.0, 0.0, -1.0]], dtype=np.float32)
    z = x @ W + b
    return np.mean(np.log1p(np.exp(-np.abs(z))) + np.maximum(z, 0))


@case(_make(_normal(4)), wrt=0)
def generator_expression_and_reduce(x):
    prod = functools.reduce(lambda a, b: a * b, [1.0 + 0.1 * xi for xi in x])
    return sum(xi ** 2 * k for k, xi in enumerate(x, start=1)) + prod


@case(_make(_normal(6, scale=0.5)), wrt=0)      # refused until session 30 (lib30)
def add_at_histogram(x):
    idx = np.array([0, 1, 0, 2, 1, 0])
    out = np.zeros(3)
    np.add.at(out, idx, x ** 2)
    return np.sum(out * np.array([1.0, 2.0, 3.0]))


@case(_make(_normal(6, scale=0.5)), wrt=0)
def bincount_with_weights_scatter_add(x):
    idx = np.array([0, 1, 0, 2, 1, 0])
    return np.sum(np.bincount(idx, weights=x ** 2, minlength=4) * np.arange(1.0, 5.0))


# ---- training-loop idioms (x: 12 parameters, reshaped as the model needs) ----------------


@case(floats((12,), scale=0.5, offset=0.1))
def embedding_dup_lookup(x):
    E = x.reshape(4, 3)
    idx = np.array([0, 2, 2, 3, 0])
    h = E[idx].mean(axis=0)
    return np.sum(np.tanh(h) * np.array([1.0, -2.0, 0.5]))


@case(floats((12,), scale=0.5, offset=0.1))
def multihead_reshape(x):
    X = x.reshape(4, 3)
    Wq = np.linspace(-1, 1, 12).reshape(3, 4)
    Q = (X @ Wq).reshape(4, 2, 2).transpose(1, 0, 2)
    S = Q @ Q.transpose(0, 2, 1) / np.sqrt(2)
    A = np.exp(S - S.max(-1, keepdims=True))
    A = A / A.sum(-1, keepdims=True)
    O = (A @ Q).transpose(1, 0, 2).reshape(4, 4)
    return np.sum(O ** 2)


@case(floats((12,), scale=0.5, offset=0.1))
def grad_clip_and_adam(x):
    w = x.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, 4):
        g = 2 * w + np.sin(w)
        n = np.linalg.norm(g)
        g = g * min(1.0, 1.0 / n)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g ** 2
        mh = m / (1 - 0.9 ** t)
        vh = v / (1 - 0.999 ** t)
        w = w - 0.1 * mh / (np.sqrt(vh) + 1e-8)
    return np.sum(w ** 2)


@case(floats((12,), scale=0.5, offset=0.1))
def label_smoothing_xent(x):
    logits = x.reshape(4, 3)
    y = np.array([0, 2, 1, 1])
    eps = 0.1
    t = np.full((4, 3), eps / 3)
    t[np.arange(4), y] += 1 - eps
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    return -np.mean(np.sum(t * logp, axis=1))


@case(floats((12,), scale=0.5, offset=0.1))
def gru_cell_loop(x):
    W = x.reshape(3, 4)[:, :3]
    h = np.zeros(3)
    sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731
    for t in range(3):
        inp = np.array([np.sin(t), np.cos(t), 0.5])
        z = sig(W @ inp + h)
        r = sig(W.T @ inp - h)
        hh = np.tanh(W @ (r * h) + inp)
        h = (1 - z) * h + z * hh
    return np.sum(h ** 2)


@case(floats((12,), scale=0.5, offset=0.1))
def weight_decay_dict_values(x):
    params = {"W": x.reshape(3, 4), "b": x[:3]}
    wd = 0.5 * sum(np.sum(p ** 2) for p in params.values())
    out = params["W"] @ np.ones(4) + params["b"]
    return np.sum(out ** 2) + 0.01 * wd


@case(floats((12,), scale=0.5, offset=0.1))
def dropout_fixed_mask(x):
    rng = np.random.default_rng(0)
    mask = rng.random(12) > 0.3
    h = np.where(mask, x / 0.7, 0.0)
    return np.sum(np.tanh(h) ** 2)


@case(floats((12,), scale=0.5, offset=0.1))
def one_hot_index_assign(x):
    logits = x.reshape(4, 3)
    y = np.array([0, 2, 1, 1])
    oh = np.zeros((4, 3))
    oh[np.arange(4), y] = 1.0
    p = np.exp(logits) / np.exp(logits).sum(axis=1)[:, None]
    return -np.sum(oh * np.log(p)) / 4
