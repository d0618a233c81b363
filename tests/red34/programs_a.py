"""Session 34 red team (red) programs, batch 1: statistics, ML, physics, parameters in objects (tests/red34/programs.py)."""
from dataclasses import dataclass

import numpy as np

from tests.optional_scipy import scipy_module
from transform import stop_gradient

special = scipy_module("special")
linalg = scipy_module("linalg")
stats = scipy_module("stats")



# ---- statistics ----------------------------------------------------------------------
def _linpred(beta, X):
    eta = X @ beta
    return eta, np.exp(eta)


def poisson_loglik(beta, X, y):
    eta, mu = _linpred(beta, X)
    return np.sum(y * eta - mu)


def logistic_nll(w, X, y, lam=0.1):
    z = X @ w
    p = 1.0 / (1.0 + np.exp(-z))
    ll = y * np.log(p) + (1 - y) * np.log(1 - p)
    return -np.sum(ll) + 0.5 * lam * np.dot(w, w)


def gaussian_nll(theta, x):
    mu, log_sigma = theta[0], theta[1]
    sigma = np.exp(log_sigma)
    return np.sum(0.5 * ((x - mu) / sigma) ** 2 + log_sigma) + 0.5 * len(x) * np.log(2 * np.pi)


def student_t_nll(theta, x):
    mu, log_s = theta[0], theta[1]
    nu = 4.0
    return -np.sum(stats.t.logpdf(x, nu, loc=mu, scale=np.exp(log_s)))


def gamma_loglik(params, x):
    a, b = np.exp(params[0]), np.exp(params[1])
    n = len(x)
    return n * (a * np.log(b) - special.gammaln(a)) + (a - 1) * np.sum(np.log(x)) - b * np.sum(x)


def negbin_loglik(log_r, x):
    r = np.exp(log_r)
    p = 0.3
    return np.sum(special.gammaln(x + r) - special.gammaln(r) + r * np.log(1 - p))


def laplace_logdet(beta, X):
    eta = X @ beta
    w = np.exp(eta)
    H = X.T @ (w[:, None] * X) + np.eye(len(beta))
    sign, logdet = np.linalg.slogdet(H)
    return 0.5 * logdet


def mvn_logpdf(mu, x, L):
    cov = L @ L.T + np.eye(len(mu))
    diff = x - mu
    sol = np.linalg.solve(cov, diff)
    return -0.5 * diff @ sol - 0.5 * np.log(np.linalg.det(cov))


def cho_loglik(mu, x, A):
    cov = A @ A.T + 0.5 * np.eye(len(mu))
    c = linalg.cho_factor(cov)
    r = x - mu
    return -0.5 * r @ linalg.cho_solve(c, r) - np.sum(np.log(np.diag(c[0])))


def mixture_nll(params, x):
    w = params["w"]
    total = 0.0
    for k, (m, s) in enumerate(zip(params["mu"], params["s"])):
        total = total + w[k] * np.exp(-0.5 * ((x - m) / s) ** 2) / s
    return -np.sum(np.log(total))


def huber_loss(beta, X, y, delta=1.0):
    r = y - X @ beta
    a = np.abs(r)
    return np.sum(np.where(a < delta, 0.5 * r ** 2, delta * (a - 0.5 * delta)))


def logsumexp_lik(z):
    return special.logsumexp(z) - np.sum(z) / len(z)


def softplus_reg(w, X):
    return np.sum(np.logaddexp(0, X @ w)) + 0.01 * sum(wi ** 2 for wi in w)


# ---- ML --------------------------------------------------------------------------------
def mlp_loss(params, x, y):
    h = x
    n = len(params)
    for i, (W, b) in enumerate(params):
        h = h @ W + b
        if i < n - 1:
            h = np.tanh(h)
    return np.mean((h[:, 0] - y) ** 2)


def mlp_flat(theta, x, y):
    W1 = theta[:6].reshape(2, 3)
    b1 = theta[6:9]
    w2 = theta[9:12]
    h = np.tanh(x @ W1 + b1)
    return np.mean((h @ w2 - y) ** 2)


def softmax_ce(W, X, labels):
    logits = X @ W
    logits = logits - np.max(logits, axis=1, keepdims=True)
    logp = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
    return -np.mean(logp[np.arange(len(labels)), labels])


def attention(q, K, V):
    s = K @ q / np.sqrt(len(q))
    a = np.exp(s - np.max(s))
    a = a / a.sum()
    return a @ V


def rnn_loss(w, xs):
    h = 0.0
    for t, x in enumerate(xs):
        h = np.tanh(w[0] * h + w[1] * x)
        if t % 2 == 0:
            h = h * 0.9
    return h ** 2 + w[2] * h


def layernorm_out(x, g):
    mu = x.mean()
    var = ((x - mu) ** 2).mean()
    return g * (x - mu) / np.sqrt(var + 1e-5)


def gelu(x):
    return 0.5 * x * (1 + special.erf(x / np.sqrt(2)))


def gelu_loss(w, x):
    return np.sum(gelu(x * w) ** 2)


# ---- physics ---------------------------------------------------------------------------
def lj_energy(pos, eps=1.0, sigma=1.0):
    n = pos.shape[0]
    E = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            r2 = np.sum(d * d)
            sr6 = (sigma ** 2 / r2) ** 3
            E = E + 4 * eps * (sr6 * sr6 - sr6)
    return E


def morse_energy(x, D=1.0, a=1.5, r0=1.0):
    pos = x.reshape(-1, 2)
    diff = pos[:, None, :] - pos[None, :, :]
    iu = np.triu_indices(len(pos), 1)
    r = np.sqrt(np.sum(diff[iu] ** 2, axis=-1))   # (sqrt before [iu]: NaN, as in JAX)
    return np.sum(D * (1 - np.exp(-a * (r - r0))) ** 2)


def spring_chain(x, k=2.0):
    ext = np.diff(x) - 1.0
    return 0.5 * k * np.sum(ext ** 2) + 0.25 * np.sum(ext ** 4)


def pendulum_lagrangian(q, qd, m=1.0, l=1.0, g=9.81):
    T = 0.5 * m * l ** 2 * qd ** 2
    V = -m * g * l * np.cos(q)
    return T - V


def double_pendulum_L(q, qd):
    t1, t2 = q[0], q[1]
    w1, w2 = qd[0], qd[1]
    T = w1 ** 2 + 0.5 * w2 ** 2 + w1 * w2 * np.cos(t1 - t2)
    V = -2 * 9.81 * np.cos(t1) - 9.81 * np.cos(t2)
    return T - V


def implicit_euler_step(y, dt=0.1, iters=4):
    # y_new = y + dt * f(y_new), by fixed-point iterations
    yn = y.copy()
    for _ in range(iters):
        yn = y + dt * np.array([-yn[0] + yn[1] ** 2, -2.0 * yn[1] + np.sin(yn[0])])
    return yn


def rk4_decay(k, y0, T=1.0, n=10):
    h = T / n
    y = y0
    f = lambda y: -k * y + 0.1 * y ** 2
    for _ in range(n):
        k1 = f(y)
        k2 = f(y + 0.5 * h * k1)
        k3 = f(y + 0.5 * h * k2)
        k4 = f(y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return y


def ode_residuals(theta, ts, data):
    k, y0 = theta[0], theta[1]
    y = y0
    preds = []
    t_prev = 0.0
    for t in ts:
        dt = t - t_prev
        y = y * np.exp(-k * dt)
        preds.append(y)
        t_prev = t
    return np.array(preds) - data


def heat_step(u, alpha=0.2):
    new = u.copy()
    new[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    return new


def elastic_energy(u, *coeffs):
    e = 0.0
    for c in coeffs:
        e = e + c * np.sum(np.diff(u) ** 2)
    return e + np.sum(u ** 4)


# ---- parameters in objects ---------------------------------------------------------------
@dataclass
class Params:
    a: float
    b: np.ndarray


def dc_loss(p, x):
    return np.sum((p.a * x + p.b) ** 2) + np.sin(p.a)


class Potential:
    def __init__(self, k):
        self.k = k

    def energy(self, x):
        return 0.5 * self.k * np.sum(x ** 2) + np.sum(np.cos(x))


def class_energy(x, k):
    pot = Potential(k)
    return pot.energy(x)


def dict_params_loss(p, x):
    pred = p["w"] * x + p["b"]
    return np.sum(np.log1p(pred ** 2))


def builtins_loss(x):
    total = 0.0
    for i, xi in enumerate(x):
        total = total + abs(xi) * (i + 1)
    return total + max(x) ** 2 - min(x) + sum(x * x)


def lambda_loss(x):
    sq = lambda v: v * v
    return np.sum(sq(np.sin(x))) + sq(x[0])


def scalar_newton(x):
    return np.exp(x) - 2 * x + x ** 4 / 4


def erfc_tail(x):
    return np.log(special.erfc(x)) + x ** 2


def expm_loss(A):
    return np.trace(linalg.expm(A)) + np.sum(A ** 2)


def branch_loop(x):
    y = 0.0
    for v in x:
        if v > 0:
            y = y + v ** 3
        elif v > -1:
            y = y + np.sin(v)
        else:
            y = y - v ** 2
    return y


def clip_view_loss(x):
    v = x[::2]
    w = x[1::2]
    return np.sum(np.clip(v * w, -1, 1) ** 2) + np.sum(np.sqrt(x ** 2 + 1.0))


def while_newton_sqrt(a):
    x = a
    it = 0
    while abs(x * x - a) > 1e-12 and it < 50:
        x = 0.5 * (x + a / x)
        it += 1
    return x
