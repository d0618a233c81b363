"""Session 35 red team (red35) programs, statistics and user habits: likelihoods with
scipy.stats, Laplace approximations and Newton loops calling the derivative API, float32
inputs, np.where/np.clip/np.maximum, list accumulation, dict and dataclass parameters."""
import math
from dataclasses import dataclass

import numpy as np

from tests.optional_scipy import scipy_module
from transform import grad, hessian, hvp, stop_gradient, value_and_grad

special = scipy_module("special")
linalg = scipy_module("linalg")
stats = scipy_module("stats")


def norm_nll(theta, x):
    mu, log_s = theta
    return -np.sum(stats.norm.logpdf(x, loc=mu, scale=np.exp(log_s)))


def norm_nll_frozen(theta, x):
    dist = stats.norm(theta[0], np.exp(theta[1]))
    return -dist.logpdf(x).sum()


def weibull_nll(theta, x):
    k, lam = np.exp(theta)
    z = x / lam
    return -np.sum(np.log(k / lam) + (k - 1) * np.log(z) - z ** k)


def gamma_nll(theta, x):
    a, rate = np.exp(theta[0]), np.exp(theta[1])
    return -np.sum(a * np.log(rate) - special.gammaln(a) + (a - 1) * np.log(x) - rate * x)


def beta_binomial(log_ab, k, n):
    a, b = np.exp(log_ab)
    return -np.sum(special.betaln(k + a, n - k + b) - special.betaln(a, b))


def student_t_hand(beta, X, y, nu=4.0):
    r = y - X @ beta
    return np.sum((nu + 1) / 2 * np.log1p(r ** 2 / nu))


def bayes_logreg_post(w, X, y):
    logits = X @ w
    loglik = np.sum(y * logits - np.logaddexp(0, logits))
    logprior = -0.5 * np.sum(w ** 2) / 4.0
    return -(loglik + logprior)


def ar2_nll(phi, x):
    pred = phi[0] * x[1:-1] + phi[1] * x[:-2]
    resid = x[2:] - pred
    return 0.5 * np.sum(resid ** 2) + 0.1 * np.sum(phi ** 2)


def kalman_1d(params, ys):
    q, r = np.exp(params[0]), np.exp(params[1])
    m, P = 0.0, 1.0
    ll = 0.0
    for y in ys:
        P = P + q
        S = P + r
        K = P / S
        ll += -0.5 * (np.log(2 * np.pi * S) + (y - m) ** 2 / S)
        m = m + K * (y - m)
        P = (1 - K) * P
    return -ll


def poisson_glm(beta, X, y):
    eta = np.clip(X @ beta, -20, 20)
    return np.sum(np.exp(eta) - y * eta + special.gammaln(y + 1))


def mvn_chol(mu, x, A):
    S = A @ A.T + np.eye(A.shape[0])
    L = np.linalg.cholesky(S)
    z = np.linalg.solve(L, x - mu)
    return 0.5 * z @ z + np.log(np.diag(L)).sum()


def mvn_scipy(mu, x):
    cov = np.array([[2.0, 0.3], [0.3, 1.0]])
    return -np.sum(stats.multivariate_normal.logpdf(x, mean=mu, cov=cov))


def censored_nll(theta, x, censored):
    mu, s = theta[0], np.exp(theta[1])
    ll_obs = stats.norm.logpdf(x, mu, s)
    ll_cen = stats.norm.logsf(x, mu, s)
    return -np.sum(np.where(censored, ll_cen, ll_obs))


def logistic_mle_scalar(a):
    xs = [0.5, -1.0, 2.0, 0.3]
    ys = [1, 0, 1, 0]
    total = 0.0
    for x, y in zip(xs, ys):
        p = 1 / (1 + math.exp(-a * x))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total


def huber_robust(beta, X, y, delta=1.0):
    r = np.abs(y - X @ beta)
    quad = np.minimum(r, delta)
    return np.sum(0.5 * quad ** 2 + delta * (r - quad))


def laplace_evidence(w, X, y):
    """A user's Laplace approximation: the Hessian formed in plain code."""
    H = X.T @ (X * (special.expit(X @ w) * (1 - special.expit(X @ w)))[:, None]) + np.eye(len(w))
    sign, logdet = np.linalg.slogdet(H)
    return bayes_logreg_post(w, X, y) + 0.5 * logdet


def newton_with_grad(w, X, y):
    """One Newton step with grad called inside, the hessian hand-written."""
    g = grad(bayes_logreg_post)(w, X, y)
    p = special.expit(X @ w)
    H = X.T @ (X * (p * (1 - p))[:, None]) + 0.25 * np.eye(len(w))
    w1 = w - np.linalg.solve(H, g)
    return bayes_logreg_post(w1, X, y)


def newton_with_hessian(w, X, y):
    """One Newton step with hessian called inside the differentiated function."""
    g = grad(bayes_logreg_post)(w, X, y)
    H = hessian(bayes_logreg_post)(w, X, y)
    return bayes_logreg_post(w - np.linalg.solve(H, g), X, y)


def newton_with_hvp(w, X, y):
    v = grad(bayes_logreg_post)(w, X, y)
    Hv = hvp(bayes_logreg_post, (w, X, y), (v,))
    step = (v @ v) / (v @ Hv)
    return bayes_logreg_post(w - step * v, X, y)


def vg_inside(w, X, y):
    val, g = value_and_grad(bayes_logreg_post)(w, X, y)
    return val + 0.5 * np.sum(g ** 2)


def newton_loop_scalar(a):
    """Solve x**3 + a x = 1 by Newton with a while loop and break; derivative in a."""
    x = 1.0
    it = 0
    while True:
        fx = x ** 3 + a * x - 1.0
        x = x - fx / (3 * x ** 2 + a)
        it += 1
        if abs(fx) < 1e-12 or it > 30:
            break
    return x


def f32_loss(w, X):
    h = np.tanh(X @ w)
    return np.sum(h ** 2) + np.float32(0.1) * np.sum(w ** 2)


def f32_vec(x):
    return np.exp(0.5 * x) * np.cos(x[::-1])


@dataclass
class Prior:
    mu: float
    tau: float


def dc_prior_nll(theta, prior, x):
    lik = 0.5 * np.sum((x - theta) ** 2)
    return lik + 0.5 * (theta - prior.mu) ** 2 / prior.tau ** 2


def dict_hyper(h, x):
    s = np.exp(h["log_s"])
    return np.sum(((x - h["mu"]) / s) ** 2) / 2 + len(x) * h["log_s"]


def list_accumulate(x):
    terms = []
    for i in range(len(x) - 1):
        terms.append((x[i + 1] - x[i] ** 2) ** 2)
        if i % 2 == 0:
            terms.append((1 - x[i]) ** 2)
    return sum(terms)


def where_max(x):
    y = np.where(x > 0, x ** 2, 0.5 * x)
    z = np.maximum(y, 0.1 * x)
    return np.sum(z * np.clip(x, -1, 1))


def views_loss(A):
    B = A.reshape(3, 4)
    C = B.T[::2]
    return np.sum(C ** 2) + np.sum(B[:, 1:] * B[:, :-1])


def norm_losses(x):
    return np.linalg.norm(x) + np.linalg.norm(x.reshape(2, 3)) ** 2 / 3 + np.linalg.norm(x[:3])


def norm_vec_out(x):
    return x / np.linalg.norm(x)


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def tuple_helper_stats(x):
    def moments(v):
        m = v.mean()
        return m, ((v - m) ** 2).mean()
    m, s2 = moments(x)
    return np.log(s2) + m ** 2


def sorted_trimmed(x):
    xs = np.sort(x)
    return np.mean(xs[1:-1] ** 2)


def cumsum_logit(x):
    c = np.cumsum(x)
    return np.sum(special.expit(c) * x)


def softplus_barrier(x, t=10.0):
    return np.sum(x ** 2) - np.sum(np.log(np.maximum(1.0 - x, 1e-8))) / t


def quantile_like(x):
    s = sorted(x.tolist())
    return s[0] * s[-1] + sum(s) ** 2


def sg_normalise(x):
    n = stop_gradient(np.linalg.norm(x))
    return np.sum((x / n) ** 3)


def sg_fixed_norm(x, n):
    return np.sum((x / n) ** 3)


def scalar_special(a):
    return special.gammaln(a) + a * np.log(a) - special.digamma(a) ** 2


def scalar_erf(s):
    return math.erf(s) * math.exp(-s * s) + math.atan(s) ** 2


def multi_output_tuple(x):
    return np.sum(x ** 2), np.prod(x[:2])


def enumerate_weights(w):
    total = 0.0
    for i, wi in enumerate(w):
        total += (i + 1) * wi ** 2 * np.exp(-wi)
    return total


def piecewise_branch(x):
    if x > 1.0:
        return x ** 3
    elif x > 0.0:
        return np.sin(x) * x
    return -x
