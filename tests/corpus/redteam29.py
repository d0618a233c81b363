"""Programs a red team wrote the way users write them (round 29): small ML models and
simulations with the habits that come with them (dicts and NamedTuples of parameters,
helpers returning tuples, `print` progress, in-place stencil updates, copies, closures,
defaults left out, SciPy calls; the statistical models are in redteam29_stats.py). Each
is compared with finite differences under every policy like the rest of the corpus."""
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.special
from scipy.special import logsumexp

from .case import case, refused


def _make(*parts):
    """Inputs maker from callables rng -> value (ints and dicts allowed)."""
    def make(rng):
        return [p(rng) for p in parts]
    return make


def _normal(*shape, scale=1.0):
    return lambda rng: scale * rng.standard_normal(shape)


def _ints(high, *shape):
    return lambda rng: rng.integers(0, high, size=shape)


def _params(**shapes):
    return lambda rng: {k: 0.5 * rng.standard_normal(s) for k, s in shapes.items()}


# ---- ML -----------------------------------------------------------------------------------

def _dense(x, W, b, act=None):
    z = x @ W + b
    if act is None:
        return z
    return act(z)


def _relu(z):
    return np.maximum(z, 0.0)


def _softmax_xent(logits, y):
    logits = logits - np.max(logits, axis=1, keepdims=True)
    logp = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
    return -np.mean(logp[np.arange(len(y)), y])


@case(_make(_params(W1=(3, 5), b1=(5,), W2=(5, 4), b2=(4,)), _normal(6, 3), _ints(4, 6)),
      wrt="params")
def mlp_dict_params_softmax_xent(params, X, y):
    h = _dense(X, params["W1"], params["b1"], act=np.tanh)
    logits = _dense(h, params["W2"], params["b2"])
    reg = sum(np.sum(params[k] ** 2) for k in params if k.startswith("W"))
    return _softmax_xent(logits, y) + 1e-3 * reg


@case(_make(_normal(6, 6), _normal(6), _normal(3)), wrt=(0, 2))
def mlp_leaky_relu_with_onehot(W, x, v):
    onehot = np.eye(3)[[0, 2, 1, 0]]
    h = np.where(W @ x > 0, W @ x, 0.1 * (W @ x))
    logits = np.outer(np.ones(4), h[:3] * v)
    p = np.exp(logits - logsumexp(logits, axis=1, keepdims=True))
    return -np.sum(onehot * np.log(p)) / 4


def _im2col(img, k):
    H, W = img.shape
    cols = []
    for i in range(H - k + 1):
        for j in range(W - k + 1):
            cols.append(img[i:i + k, j:j + k].ravel())
    return np.stack(cols)


@case(_make(_normal(5, 5), _normal(2, 9, scale=0.3), _normal(2)), wrt=(1, 2))
def cnn_im2col_two_filters(img, filters, bias):
    cols = _im2col(img, 3)                   # (9, 9)
    out = cols @ filters.T + bias            # (9, 2)
    act = _relu(out)
    pooled = act.reshape(3, 3, 2).max(axis=(0, 1))
    return np.sum(pooled ** 2) + 0.5 * np.sum(np.tanh(out))


def _layer_norm(x, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps)


@case(_make(_normal(4, 6), _params(Wq=(6, 3), Wk=(6, 3), Wv=(6, 3))), wrt=(0, 1))
def self_attention_with_causal_mask(X, p):
    Q, K, V = X @ p["Wq"], X @ p["Wk"], X @ p["Wv"]
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    mask = np.triu(np.ones((4, 4)), k=1).astype(bool)
    scores = np.where(mask, -1e9, scores)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=-1, keepdims=True)
    out = _layer_norm(w @ V)
    return np.sum(out[:, 0] * np.arange(4)) + np.mean(out ** 2)


@case(_make(_normal(8, 3), _normal(3), _normal(3)), wrt=(0, 1, 2))
def batchnorm_with_running_stats_in_a_dict(X, gamma, beta):
    state = {"mean": np.zeros(3), "var": np.ones(3), "steps": 0}
    total = 0.0
    for k in range(3):
        xb = X * (1.0 + 0.1 * k)
        mu = xb.mean(axis=0)
        var = xb.var(axis=0)
        state["mean"] = 0.9 * state["mean"] + 0.1 * mu
        state["var"] = 0.9 * state["var"] + 0.1 * var
        state["steps"] += 1
        xhat = (xb - mu) / np.sqrt(var + 1e-5)
        total += np.sum((gamma * xhat + beta) ** 2)
    test = (X - state["mean"]) / np.sqrt(state["var"] + 1e-5)
    return total / state["steps"] + np.sum(gamma * test)


def _lstm_cell(x, h, c, W):
    z = np.concatenate([x, h]) @ W
    i, f, o, g = np.split(z, 4)
    sig = lambda t: 1.0 / (1.0 + np.exp(-t))  # noqa: E731
    c = sig(f) * c + sig(i) * np.tanh(g)
    h = sig(o) * np.tanh(c)
    return h, c


@case(_make(_normal(5, 2), _normal(5, 12, scale=0.4)), wrt=1)
def lstm_with_a_cell_helper(xs, W):
    h, c = np.zeros(3), np.zeros(3)
    outs = []
    for x in xs:
        h, c = _lstm_cell(x, h, c, W)
        outs.append(h)
    H = np.array(outs)
    return np.sum(H[-1]) + 0.1 * np.sum(H ** 2)


# ---- simulations --------------------------------------------------------------------------

@case(_make(lambda rng: np.sin(np.linspace(0, np.pi, 12)) + 0.1 * rng.standard_normal(12),
            lambda rng: 0.2), wrt=(0, 1))
def heat_equation_explicit_with_copy(u0, alpha):
    u = u0.copy()
    for step in range(20):
        un = u.copy()
        u[1:-1] += alpha * (un[2:] - 2 * un[1:-1] + un[:-2])
        u[0] = u[-1] = 0.0
        if step % 10 == 0:
            print("step", step, "energy", float(np.sum(u ** 2)))
    return np.sum(u ** 2)


def _wave_step(u, u_prev, c2):
    lap = np.zeros_like(u)
    lap[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
    return 2 * u - u_prev + c2 * lap, u


@case(_make(_normal(10, scale=0.3), lambda rng: 0.25), wrt=(0, 1))
def wave_leapfrog_helper_returns_tuple(u0, c2):
    u, u_prev = u0, u0.copy()
    for _ in range(15):
        u, u_prev = _wave_step(u, u_prev, c2)
    return np.sum(u[3:7] ** 2) + np.dot(u, u_prev)


def _forces(pos, masses, soft=0.1):
    diff = pos[None, :, :] - pos[:, None, :]
    dist2 = np.sum(diff ** 2, axis=-1) + soft ** 2
    inv3 = dist2 ** -1.5 * (1.0 - np.eye(len(pos)))
    return np.sum(diff * (inv3 * masses[None, :])[:, :, None], axis=1)


@case(_make(_normal(4, 2), _normal(4, 2, scale=0.1), lambda rng: rng.uniform(0.5, 1.5, 4)),
      wrt=(0, 1, 2))
def nbody_leapfrog_with_energy(pos, vel, masses):
    dt = 0.01
    acc = _forces(pos, masses)
    for _ in range(10):
        vel = vel + 0.5 * dt * acc
        pos = pos + dt * vel
        acc = _forces(pos, masses)
        vel = vel + 0.5 * dt * acc
    kinetic = 0.5 * np.sum(masses[:, None] * vel ** 2)
    return kinetic + np.sum(pos[0] * pos[1])


def _pendulum(state, g, length):
    theta, omega = state
    return np.array([omega, -(g / length) * np.sin(theta)])


def _rk4(f, y, dt, g, length):
    k1 = f(y, g, length)
    k2 = f(y + 0.5 * dt * k1, g, length)
    k3 = f(y + 0.5 * dt * k2, g, length)
    k4 = f(y + dt * k3, g, length)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def _rk4_star(f, y, dt, *args):
    k1 = f(y, *args)
    k2 = f(y + 0.5 * dt * k1, *args)
    return y + dt * k2


@case(_make(lambda rng: np.array([0.8, 0.0]), lambda rng: 9.81, lambda rng: 1.3),
      wrt=(0, 1, 2))
def pendulum_rk4_helper_returns_array(y0, g, length):
    y = y0
    traj = [y]
    for _ in range(25):
        y = _rk4(_pendulum, y, 0.05, g, length)
        traj.append(y)
    thetas = np.array([s[0] for s in traj])
    return np.mean(thetas ** 2) + y[1]


@dataclass
class Oscillator:
    k: float
    damping: float
    mass: float = 1.0


@case(_make(lambda rng: Oscillator(2.0, 0.3), lambda rng: np.array([1.0, 0.0])), wrt=(0, 1))
def damped_oscillator_euler_dataclass(p, y0):
    x, v = y0[0], y0[1]
    dt = 0.02
    xs = []
    for _ in range(30):
        a = (-p.k * x - p.damping * v) / p.mass
        x, v = x + dt * v, v + dt * a
        xs.append(x)
    return sum(xi ** 2 for xi in xs) * dt


@case(_make(lambda rng: np.array([1.0, 0.5]), lambda rng: np.array([1.1, 0.4, 0.1, 0.4])),
      wrt=(0, 1))
def lotka_volterra_midpoint(z0, theta):
    a, b, c, d = theta
    z = z0.copy()
    h = 0.05
    for i in range(40):
        prey, pred = z
        k = np.array([a * prey - b * prey * pred, d * prey * pred - c * pred])
        mid = z + 0.5 * h * k
        k2 = np.array([a * mid[0] - b * mid[0] * mid[1], d * mid[0] * mid[1] - c * mid[1]])
        z = z + h * k2
    return np.log(z[0]) + z[1]


# ---- Python habits ---------------------------------------------------------------------------

class LinearParams(NamedTuple):
    W: np.ndarray
    b: np.ndarray


@case(_make(lambda rng: LinearParams(rng.standard_normal((3, 2)), rng.standard_normal(2)),
            _normal(4, 3), _normal(4, 2)), wrt="p")
def namedtuple_params_huber_loss(p, X, Y, delta=1.0):
    r = X @ p.W + p.b - Y
    a = np.abs(r)
    return np.sum(np.where(a < delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def _total(a, b, weight=1.0, **unused):
    return weight * (np.sum(a ** 2) + np.sum(a * b))


@case(_make(_normal(3), _normal(3)), wrt=(0, 1))
def star_spread_and_kwargs_into_a_helper(a, b):
    pair = (a, np.sin(b))
    extra = {"weight": 0.5, "tag": "run1"}
    return _total(*pair) + _total(b, a, **extra)


# ---- refused: ordinary code the compiler does not differentiate yet (round 29 report) ---

def _sum_all(*terms):
    return sum(terms)


@case(_make(_normal(3), _normal(3)))      # session 30: a helper's *args is differentiated
def differentiated_values_into_star_args(a, b):
    return _sum_all(np.sum(a ** 2), np.sum(a * b))


@case(_make(lambda rng: np.array([0.8, 0.0]), lambda rng: 9.81, lambda rng: 1.3),
      wrt=(0, 1, 2))                      # session 30: a helper's *args is differentiated
def pendulum_midpoint_with_star_args(y0, g, length):
    y = y0
    for _ in range(5):
        y = _rk4_star(_pendulum, y, 0.05, g, length)
    return np.sum(y ** 2)


@case(_make(_normal(3, 3)), wrt=0)     # session 40 (red41): a subscript write now
def fill_diagonal_of_a_computed_matrix(A):
    B = A @ A.T
    np.fill_diagonal(B, 0.0)
    return np.sum(B ** 2)


class Polynomial:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    def __call__(self, x):
        out = 0.0
        for c in reversed(self.coeffs):
            out = out * x + c
        return out

    def derivative_at(self, x):
        n = len(self.coeffs)
        return sum(k * self.coeffs[k] * x ** (k - 1) for k in range(1, n))


@case(_make(_normal(4), _normal(7)), wrt=(0, 1))
def class_with_call_and_methods(coeffs, xs):
    poly = Polynomial(coeffs)
    return np.sum(poly(xs) ** 2) + np.sum(poly.derivative_at(xs))


@case(_make(_normal(4, 3), _normal(3)), wrt=(0, 1))
def builtin_sum_over_rows_and_comprehension(A, w):
    rowsum = sum(A * w)                       # sum over axis 0, an array of 3
    dots = [np.dot(row, w) for row in A if row[0] > -10]
    return np.sum(rowsum ** 2) + sum(d ** 2 for d in dots) + max(dots)


def _make_loss(target, scale=2.0):
    def loss(x):
        return scale * np.sum((x - target) ** 2)
    return loss


@case(_make(_normal(3), _normal(3)), wrt=(0, 1))
def closure_factory_and_default_left_out(x, t):
    f = _make_loss(t)
    g = _make_loss(t * 0.5, scale=1.0)
    return f(x) + g(np.tanh(x))


@case(_make(lambda rng: 0.1, _normal(3)), wrt=(0, 1))
def unrolled_gradient_descent_learning_rate(lr, w0):
    A = np.array([[3.0, 0.5, 0.0], [0.5, 2.0, 0.2], [0.0, 0.2, 1.0]])
    b = np.array([1.0, -1.0, 0.5])
    w = w0
    history = {}
    for it in range(8):
        g = A @ w - b
        w = w - lr * g
        history[it] = 0.5 * w @ A @ w - b @ w
    return history[7] + 0.1 * sum(history.values())


@case(_make(_normal(5), _normal(5)), wrt=(0, 1))
def scipy_special_expit_and_softplus(x, y):
    p = scipy.special.expit(x)
    sp = np.logaddexp(0, y)
    return np.sum(scipy.special.xlogy(p, p) + sp * p) + scipy.special.logsumexp(x * y)


@case(_make(_normal(3), _normal(6)), wrt=(0, 1))
def polyval_fit_with_vander(c, x):
    V = np.vander(x, 3)
    resid = V @ c - np.polyval(c[::-1], x)
    return np.sum(resid ** 2) + np.sum(np.polyval(c, x))


@case(_make(_normal(5), _normal(5, scale=0.1)), wrt=(0, 1))
def spring_chain_verlet_in_place(x0, v0):
    x = x0.copy()
    v = v0.copy()
    dt = 0.05
    for step in range(12):
        f = np.zeros_like(x)
        f[:-1] += x[1:] - x[:-1]
        f[1:] -= x[1:] - x[:-1]
        v += dt * f
        x += dt * v
    return np.sum(x * np.arange(5)) + 0.5 * np.sum(v ** 2)
