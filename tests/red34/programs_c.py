"""Session 34 red team (red) programs, batch 3-4: views, stores, modulo, masks, cutoffs, norms, solvers (tests/red34/programs.py)."""
import math
from dataclasses import dataclass

import numpy as np

from tests.optional_scipy import scipy_module
from transform import grad, value_and_grad

special = scipy_module("special")
linalg = scipy_module("linalg")
stats = scipy_module("stats")


# ---- batch 3: views written through, stores, modulo, masks -----------------------------
def view_scale(x):
    y = x.copy()
    v = y[1:3]
    v *= 2.0
    return y * x


def view_assign(x):
    y = np.zeros(4)
    top = y[:2]
    top[:] = x[:2] ** 2
    y[2:] = np.sin(x[2:])
    return y


def empty_fill(x):
    out = np.empty(len(x))
    for i in range(len(x)):
        out[i] = np.exp(-x[i]) * x[i]
    return np.sum(out ** 2)


def mod_loss(x):
    frac = x % 1.0
    wrapped = np.mod(x * 3.0, 2.0)
    return np.sum(frac ** 2 + np.sin(wrapped)) + np.sum(np.floor(x) * x)


def mask_loss(x):
    pos = x[x > 0]
    return np.sum(pos ** 3) + np.sum(np.sign(x) * x ** 2)


def fill_diag(d, A):
    M = A.copy()
    np.fill_diagonal(M, d ** 2)
    return np.sum(M @ M)


def list_store(x):
    acc = [x[0], x[1], 0.0]
    acc[2] += x[0] * x[1]
    acc[0] *= acc[1]
    return acc[0] + acc[1] ** 2 + acc[2] ** 3


def dict_update(x):
    d = {"a": x[0], "b": x[1]}
    d["a"] = d["a"] * d["b"] + x[2]
    d["c"] = np.tanh(d["a"])
    return sum(v ** 2 for v in d.values())


def interp_poly(x):
    xp = np.array([-2.0, 0.0, 1.0, 3.0])
    fp = np.array([1.0, -1.0, 2.0, 0.5])
    return np.sum(np.interp(x, xp, fp) * x) + np.sum(np.polyval([1.0, -2.0, 0.5], x) ** 2)


def arg_inplace(x):
    x = x * 1.0
    x += np.cos(x)
    x[0] = x[0] ** 2
    return np.sum(x ** 3)


def eigh_loss(A):
    S = A + A.T
    w, V = np.linalg.eigh(S)
    return np.sum(w ** 3) + w[-1]


def reuse_loopvar(x):
    for i in range(3):
        y = x * (i + 1)
    return np.sum(y * np.sin(x)) + i


def beta_fn(a):
    return np.sum(special.betaln(a, 2.0) + special.gamma(a))


def stack_rows(x):
    rows = []
    for k in range(3):
        rows.append(x * k + np.sin(x * k))
    M = np.vstack(rows)
    return np.sum(M.T @ M)


def where_scalar(x):
    return np.sum(np.where(x > 0.2, x ** 2, 0.0) + np.where(x < 0, 1.0, np.exp(x)))


def reshape_methods(x):
    M = x.reshape(2, 3)
    return (M.T @ M).sum() + M.mean(axis=0).dot(M.max(axis=0)) + M.prod()


def global_const(x):
    return np.sum(SCALE * x ** 2) + OFFSET * np.sum(x)


SCALE = np.array([1.0, 2.0, 3.0])
OFFSET = 0.5


def tuple_return_jac(x):
    return np.sin(x), np.sum(x ** 2)


def int_exponent_loop(x):
    total = 0.0
    for n in range(1, 4):
        total = total + x ** n / n
    return total


# ---- batch 4: cutoffs, periodic images, norms, solvers inside -------------------------
def lj_cutoff(pos, rc=1.6):
    E = 0.0
    n = len(pos)
    for i in range(n - 1):
        for j in range(i + 1, n):
            r = np.sqrt(np.sum((pos[i] - pos[j]) ** 2))
            if r < rc:
                E = E + 4.0 * (r ** -12 - r ** -6) - 4.0 * (rc ** -12 - rc ** -6)
    return E


def periodic_harmonic(pos, L=3.0, k=1.5):
    E = 0.0
    for i in range(len(pos)):
        for j in range(i):
            d = pos[i] - pos[j]
            d = d - L * np.round(d / L)
            E += 0.5 * k * np.dot(d, d) ** 1.5
    return E


def norm_springs(pos, rest=1.0):
    E = 0.0
    for i in range(len(pos) - 1):
        r = np.linalg.norm(pos[i + 1] - pos[i])
        E = E + (r - rest) ** 2
    return E


def cube_root_newton(a):
    x = 1.0
    for _ in range(30):
        x = x - (x ** 3 - a) / (3 * x ** 2)
    return x * np.sin(a)


def gauss_newton_step(theta, ts, data):
    """One Gauss-Newton step for the exponential-decay fit: J by the user's formula."""
    k, y0 = theta[0], theta[1]
    pred = y0 * np.exp(-k * ts)
    r = pred - data
    J = np.stack([-ts * pred, pred / y0], axis=1)
    step = np.linalg.solve(J.T @ J + 1e-3 * np.eye(2), J.T @ r)
    return theta - step


def coulomb_soft(q, pos):
    E = 0.0
    for i, (qi, pi) in enumerate(zip(q, pos)):
        for j in range(i):
            E = E + qi * q[j] / np.sqrt(np.sum((pi - pos[j]) ** 2) + 0.1)
    return E


def langevin_loglik(gamma, xs, dt=0.1):
    ll = 0.0
    for a, b in zip(xs[:-1], xs[1:]):
        mu = a - gamma * a * dt
        ll = ll - 0.5 * (b - mu) ** 2 / dt
    return ll


def kl_gauss(mu, log_var):
    return 0.5 * np.sum(np.exp(log_var) + mu ** 2 - 1.0 - log_var)


def ar1_nll(params, y):
    phi, log_s = params
    s2 = np.exp(2 * log_s)
    resid = y[1:] - phi * y[:-1]
    return 0.5 * np.sum(resid ** 2) / s2 + (len(y) - 1) * log_s


def vmap_like(W, xs):
    outs = [np.tanh(W @ x) for x in xs]
    return np.sum(np.array(outs) ** 2)


def ridge_closed_form(lam, X, y):
    A = X.T @ X + lam * np.eye(X.shape[1])
    w = np.linalg.solve(A, X.T @ y)
    return np.sum((X @ w - y) ** 2) + lam * w @ w


def bfgs_like_update(x):
    g = np.array([2 * x[0] + x[1], x[0] + 4 * x[1] ** 3])
    s = -0.1 * g
    return np.sum((x + s) ** 2) + np.prod(np.cos(x))


def norm_one(x):
    return np.linalg.norm(x, 1) * np.sum(x ** 2)


def labelled_dict(x, cfg):
    d = {"a": x[0], "n": 3, "label": "pair", "b": x[1] * x[0]}
    t = 0.0
    for k, v in d.items():
        if k in ("a", "b"):
            t = t + v ** 2 * cfg["w"]
    return t


# ---- batch 5: helpers called twice, keywords, conversions, math ------------------------
def _pair(r, k=1.0, r0=1.0):
    return 0.5 * k * (r - r0) ** 2 + 0.1 * (r - r0) ** 4


def chain_energy(x, k):
    return _pair(x[1] - x[0], k) + _pair(x[2] - x[1], k=k, r0=1.2) + _pair(x[2] - x[0])


def _summary(v):
    return {"m": np.mean(v), "q": np.sum(v ** 2)}


def dict_helper(x):
    s = _summary(x)
    t = _summary(np.sin(x))
    return s["m"] * t["q"] + s["q"]


def conversions(x):
    a = float(x[0])
    b = x[1].item()
    c = np.float64(x[2])
    return a * b + math.exp(c) + math.sin(a) * np.sqrt(x[0] ** 2 + 1)


def scalar_math(t):
    return math.exp(-t) * math.cos(3 * t) + math.log1p(t * t) + abs(t - 0.2) ** 3


def ternary_loop(x):
    total = 0.0
    for v in x:
        total += v ** 2 if v > 0 else -v ** 3
    return total


def nested_helpers(w, x):
    def act(z):
        return np.tanh(z) * z
    h = act(x @ w)
    return np.sum(act(h) ** 2)


def zip_two(w, xs, ys):
    loss = 0.0
    for x, y in zip(xs, ys):
        loss = loss + (w[0] * x + w[1] * np.sin(x) - y) ** 2
    return loss / len(xs)


def minmax_builtin(a, b):
    return max(a, b) ** 2 + min(a * b, 1.0) + max(a ** 2, b ** 2, 0.5)


def reversed_scan(x):
    acc = 0.0
    out = []
    for v in reversed(list(x)):
        acc = 0.9 * acc + v
        out.append(acc)
    return np.sum(np.array(out) ** 2)


def gmm_loglik(mu, x, w):
    """A 1-D Gaussian mixture: logsumexp over components with weights b=w."""
    d = x[:, None] - mu[None, :]
    logp = -0.5 * d ** 2 - 0.5 * np.log(2 * np.pi)
    return np.sum(special.logsumexp(logp, axis=1, b=w))


# ---- batch 6: gradients inside the program (MAML, force matching, implicit steps) -----
def _mse(w, X, y):
    return np.mean((np.tanh(X @ w) - y) ** 2)


_mse_grad = grad(_mse)
_mse_value_grad = value_and_grad(_mse)


def maml_loss(w, X, y, Xq, yq, lr=0.5):
    """One inner gradient step on the support set, the loss on the query set."""
    for _ in range(2):
        w = w - lr * _mse_grad(w, X, y)
    return _mse(w, Xq, yq)


def vg_inside(w, X, y):
    value, g = _mse_value_grad(w, X, y)
    return value + 0.5 * np.sum(g ** 2)


def _pot(x):
    return np.sum(np.cos(x) + 0.1 * x ** 4)


_force = grad(_pot)


def verlet(x0, v0, dt=0.1, steps=4):
    x, v = x0, v0
    a = -_force(x)
    for _ in range(steps):
        x = x + dt * v + 0.5 * dt ** 2 * a
        a_new = -_force(x)
        v = v + 0.5 * dt * (a + a_new)
        a = a_new
    return x


def kw_loss(w, X, y, *, lam=0.1):
    return np.sum((X @ w - y) ** 2) + lam * np.sum(w ** 4) + lam ** 3


@dataclass
class Pairs:
    """A record with its own `.items()` (forward mode reads tangents by key only from
    dicts: refused when the loop runs)."""
    a: float
    b: float

    def items(self):
        return [("a", self.a), ("b", self.b)]


def pairs_loss(p):
    t = 0.0
    for k, v in p.items():
        t = t + v ** 2
    return t


def standardize_loss(X, w):
    """Batch standardization (np.std, np.var along axis 0) before a linear layer."""
    Z = (X - X.mean(axis=0)) / np.std(X, axis=0)
    return np.sum(np.tanh(Z @ w) ** 2) + np.var(X @ w) + np.std(X)


def row_products(X):
    """Products along rows and along (0, 2), an entry zero: np.prod's second derivative."""
    return np.sum(np.prod(X, axis=1) ** 2) + np.sum(X.prod(axis=(0, 2), keepdims=True) * X)


def gp_nll(log_ell, x, y):
    """A Gaussian process's negative log marginal likelihood through a Cholesky factor."""
    ell = np.exp(log_ell)
    d = x[:, None] - x[None, :]
    K = np.exp(-0.5 * d ** 2 / ell ** 2) + 0.1 * np.eye(len(x))
    L = np.linalg.cholesky(K)
    alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L)))
