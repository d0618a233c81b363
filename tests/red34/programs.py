"""Session 34 red team (red): programs written the way ML, physics-simulation and
statistics users write them, for jvp, jacfwd, jacrev, hessian, hvp and grad of grad.
Helpers returning tuples, slicing and views, print, defaults left out, SciPy, loops with
branches, dicts and dataclasses of parameters, small classes, lambdas, *args, builtins."""
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


# ---- batch 2: mixed partials, stopped values, calls of grad, records -------------------
def quad_form(x, A):
    return 0.5 * x @ A @ x + np.sum(np.sin(x))


def inplace_loop(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] += x[i] ** 2
        if i > 0:
            y[i] = y[i] + x[i - 1] * x[i]
    return np.sum(y ** 2)


def pow_loss(x, p):
    return np.sum(np.abs(x) ** p) ** (1.0 / p)


def norm_loss(x):
    return np.linalg.norm(x) + 0.5 * np.linalg.norm(x) ** 2


def stopped_square(x):
    return np.sum(x ** 2 * np.exp(-x))


def relu_net(w, X):
    h = np.maximum(X @ w, 0.0)
    return np.sum(h ** 2) + np.sum(np.minimum(X @ w, 1.0))


def sort_loss(x):
    s = np.sort(x)
    return np.sum(s * np.arange(1, len(x) + 1) ** 2 * s)


def cumsum_prod(x):
    c = np.cumsum(x)
    return np.sum(c ** 2) + np.prod(x + 2.0)


def einsum_loss(W, x):
    h = np.einsum("ij,j->i", W, x)
    return np.einsum("i,i->", h, h) + np.sum(np.tanh(h))


def inv_det(A):
    return np.trace(np.linalg.inv(A)) + np.log(np.abs(np.linalg.det(A)))


def special_mix(x):
    return np.sum(special.xlogy(x, x) + special.expit(x) + special.log_ndtr(x) + special.gammaln(x + 1))


def digamma_loss(a):
    return np.sum(special.digamma(a) * a)


def comprehension_loss(x):
    terms = [np.sin(v) * (i + 1) for i, v in enumerate(x)]
    return sum(terms) + np.mean([v ** 2 for v in x])


def while_break(x):
    total = 0.0
    k = 0
    while True:
        total = total + np.cos(x * (k + 1))
        k += 1
        if k >= 4:
            break
    return total


def gather_repeat(x):
    idx = np.array([0, 2, 2, 1, 0])
    return np.sum(x[idx] ** 3)


def stack_concat(x):
    a = np.concatenate([x, x ** 2])
    b = np.stack([x, np.cos(x)], axis=1)
    return np.sum(a ** 2) + np.sum(np.outer(b[:, 0], b[:, 1]))


def tril_loss(L):
    T = np.tril(L)
    return np.sum((T @ T.T) ** 2)


def glm_nll(beta, log_sigma, X, y):
    r = y - X @ beta
    s = np.exp(log_sigma)
    return np.sum(0.5 * (r / s) ** 2) + len(y) * log_sigma


class Model:
    def __init__(self, X, y):
        self.X = X
        self.y = y

    def loss(self, w):
        z = self.X @ w
        return np.sum(np.logaddexp(0.0, z) - self.y * z)


def newton_step_value(x, a):
    g = x ** 3 - a
    h = 3 * x ** 2
    x1 = x - g / h
    return x1 ** 2


def f32_loss(w, x):
    return np.sum(np.tanh(x @ w) ** 2)


def float_default(x, scale=2.0, *, shift=0.5):
    return np.sum(np.exp(-scale * (x - shift) ** 2))


def sg_loss(x):
    return np.sum(x ** 2 * stop_gradient(x))


def where_div(x):
    safe = np.where(x > 0, x, 1.0)
    return np.sum(np.where(x > 0, np.log(safe) * x, x ** 2))


def tuple_helper(x):
    def stats(v):
        return np.mean(v), np.std(v)
    m, s = stats(x)
    return (m - 1.0) ** 2 + s ** 2 + m * s


def fstring_print(w, X):
    loss = np.sum((X @ w) ** 2)
    for it in range(2):
        loss = loss + 0.1 * np.sum(w ** 4)
        print(f"iter {it}: loss={loss:.3f}")
    return loss


def abs_max_loss(x):
    return max(abs(v) for v in x) + np.max(np.abs(x) ** 2)


def logdet_chol(L):
    A = L @ L.T + np.eye(L.shape[0])
    C = np.linalg.cholesky(A)
    return 2 * np.sum(np.log(np.diag(C)))


def solve_loss(b, A):
    x = linalg.solve(A, b)
    return x @ x


def sg_fixed(x, c):
    """sg_loss with the stopped value held as the constant c (its reference)."""
    return np.sum(x ** 2 * c)


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
