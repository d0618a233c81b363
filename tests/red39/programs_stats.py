"""red39: statistics as outside users write it: Newton and IRLS steps for logistic and
Poisson regression, Laplace approximations, Gauss-Newton, Sinkhorn, Cox and
Bradley-Terry likelihoods, with SciPy (expit, gammaln, logsumexp, solve, cho_solve)."""
from functools import partial
from typing import NamedTuple

import numpy as np
from scipy.linalg import cho_factor, cho_solve, solve, solve_triangular
from scipy.special import expit, gammaln, logsumexp


def _logistic_parts(w, X, y):
    """loss, gradient and Hessian of the logistic NLL, written by hand."""
    z = X @ w
    p = expit(z)
    loss = np.sum(np.logaddexp(0.0, z) - y * z)
    g = X.T @ (p - y)
    H = X.T @ (X * (p * (1 - p))[:, None])
    return loss, g, H


def logreg_newton_step(w, X, y):
    """the loss after one damped Newton step from w (solve by scipy.linalg)."""
    _, g, H = _logistic_parts(w, X, y)
    step = solve(H + 0.1 * np.eye(len(w)), g, assume_a="pos")
    loss, _, _ = _logistic_parts(w - step, X, y)
    return loss


def poisson_irls(beta, X, y, iters=2):
    """a couple of IRLS iterations from beta; the deviances of each, stacked."""
    devs = []
    b = beta.copy()
    for it in range(iters):
        eta = X @ b
        mu = np.exp(eta)
        z = eta + (y - mu) / mu
        W = mu
        A = X.T @ (W[:, None] * X)
        b = solve(A, X.T @ (W * z))
        mu_new = np.exp(X @ b)
        devs.append(np.sum(mu_new - y * np.log(mu_new) + gammaln(y + 1)))
    return np.sum(np.stack(devs))


def poisson_nll(beta, X, y):
    eta = X @ beta
    return np.sum(np.exp(eta) - y * eta + gammaln(y + 1.0))


def laplace_evidence(w, X, y, prior_prec=1.0):
    """the Laplace approximation of the log evidence around w: log p(y, w) plus
    -0.5 log det(H / 2pi), with the Cholesky factor from cho_factor."""
    loss, _, H = _logistic_parts(w, X, y)
    H = H + prior_prec * np.eye(len(w))
    c, lower = cho_factor(H, lower=True)
    logdet = 2.0 * np.sum(np.log(np.diag(c)))
    logjoint = -loss - 0.5 * prior_prec * w @ w
    return logjoint - 0.5 * logdet + 0.5 * len(w) * np.log(2 * np.pi)


def laplace_predictive(w, X, y, x_new):
    """predictive variance of a new point under the Laplace posterior (cho_solve)."""
    _, _, H = _logistic_parts(w, X, y)
    fac = cho_factor(H + np.eye(len(w)))
    v = cho_solve(fac, x_new)
    return x_new @ v + np.sum(w ** 2)


def _exp_model(p, t):
    a, k = p[0], p[1]
    r = a * np.exp(-k * t)
    J = np.stack([np.exp(-k * t), -a * t * np.exp(-k * t)], axis=1)
    return r, J


def gauss_newton_exp(p, t, y, steps=2):
    """Gauss-Newton steps on an exponential decay fit; the final squared residual."""
    for _ in range(steps):
        r, J = _exp_model(p, t)
        r = r - y
        p = p - solve(J.T @ J, J.T @ r)
    r, _ = _exp_model(p, t)
    return 0.5 * np.sum((r - y) ** 2)


def softmax_regression(w, X, labels, n_classes=3):
    W = w.reshape(X.shape[1], n_classes)
    logits = X @ W
    lse = logsumexp(logits, axis=1)
    picked = logits[np.arange(len(labels)), labels]
    return np.sum(lse - picked) + 0.01 * np.sum(W * W)


class BetaParams(NamedTuple):
    coef: np.ndarray
    log_phi: float


def beta_regression(theta, X, y):
    """Beta regression with a logit link: mean expit(X coef), precision exp(log_phi)."""
    p = BetaParams(theta[:-1], theta[-1])
    mu = expit(X @ p.coef)
    phi = np.exp(p.log_phi)
    a, b = mu * phi, (1 - mu) * phi
    ll = gammaln(phi) - gammaln(a) - gammaln(b) + (a - 1) * np.log(y) + (b - 1) * np.log1p(-y)
    return -np.sum(ll)


def _unpack_schools(theta):
    return theta[0], theta[1], theta[2:]


def eight_schools(theta, y, sigma):
    """the non-centred eight-schools log density (mu, log tau, eta)."""
    mu, log_tau, eta = _unpack_schools(theta)
    tau = np.exp(log_tau)
    effects = mu + tau * eta
    ll = -0.5 * np.sum(((y - effects) / sigma) ** 2)
    prior = -0.5 * np.sum(eta ** 2) - 0.5 * mu ** 2 / 25.0 + log_tau - tau
    return ll + prior


def kalman_2d(q, ys):
    """a constant-velocity Kalman filter's log likelihood as a function of the
    process noise q (a float); innovations accumulated in a list."""
    F = np.array([[1.0, 1.0], [0.0, 1.0]])
    H = np.array([1.0, 0.0])
    m = np.zeros(2)
    P = np.eye(2)
    terms = []
    for y in ys:
        m = F @ m
        P = F @ P @ F.T + q * np.eye(2)
        S = H @ P @ H + 0.5
        K = P @ H / S
        e = y - H @ m
        m = m + K * e
        P = P - np.outer(K, H @ P)
        terms.append(-0.5 * (np.log(2 * np.pi * S) + e * e / S))
    return float(np.sum(np.array(terms)))


def arma11(params, y):
    """ARMA(1,1) conditional sum of squares; residuals written into a buffer."""
    phi, theta = params
    e = np.zeros_like(y)
    for t in range(1, len(y)):
        e[t] = y[t] - phi * y[t - 1] - theta * e[t - 1]
    return 0.5 * np.sum(e[1:] ** 2)


def logreg_fit_lam(lam, X, y, tol=1e-12, max_iter=20):
    """the training loss of the ridge logistic MLE as a function of lam: Newton until
    the step is tiny (while loop), the implicit sensitivity by unrolling."""
    w = np.zeros(X.shape[1])
    it = 0
    while it < max_iter:
        _, g, H = _logistic_parts(w, X, y)
        step = solve(H + lam * np.eye(len(w)), g + lam * w)
        w = w - step
        it += 1
        if np.max(np.abs(step)) < tol:
            break
    loss, _, _ = _logistic_parts(w, X, y)
    return loss


def poisson_backtracking(beta, X, y):
    """one Newton step with backtracking (halve until the NLL decreases)."""
    f0 = poisson_nll(beta, X, y)
    mu = np.exp(X @ beta)
    g = X.T @ (mu - y)
    H = X.T @ (mu[:, None] * X)
    d = solve(H, g)
    t = 1.0
    while poisson_nll(beta - t * d, X, y) > f0 and t > 1e-4:
        t = t / 2
    return poisson_nll(beta - t * d, X, y)


def cox_partial(beta, X):
    """Cox partial likelihood, times sorted, risk sets by reversed cumulative sums."""
    eta = X @ beta
    risk = np.log(np.cumsum(np.exp(eta)[::-1])[::-1])
    return -np.sum(eta - risk)


def bradley_terry(s, winners, losers):
    d = s[winners] - s[losers]
    return np.sum(np.logaddexp(0.0, -d)) + 0.5 * np.sum(s ** 2)


def dirichlet_nll(theta, P):
    alpha = np.exp(theta)
    lognorm = gammaln(np.sum(alpha)) - np.sum(gammaln(alpha))
    return -np.sum(lognorm + np.sum((alpha - 1) * np.log(P), axis=1))


def mvn_tril(theta, Y):
    """a multivariate normal with a Cholesky factor built from theta (tril entries,
    exp on the diagonal, written into a copy), solve_triangular for the whitening."""
    L = np.zeros((3, 3))
    L[np.tril_indices(3)] = theta
    d = np.diag(L).copy()
    L[np.diag_indices(3)] = np.exp(d)
    Z = solve_triangular(L, Y.T, lower=True)
    return 0.5 * np.sum(Z ** 2) + Y.shape[0] * np.sum(d)


def sinkhorn_cost(eps, C, a, b, iters=20):
    """entropic optimal transport by log-domain Sinkhorn; the transport cost as a
    function of eps (a float)."""
    f = np.zeros(len(a))
    g = np.zeros(len(b))
    for _ in range(iters):
        f = eps * np.log(a) - eps * logsumexp((g[None, :] - C) / eps, axis=1)
        g = eps * np.log(b) - eps * logsumexp((f[:, None] - C) / eps, axis=0)
    P = np.exp((f[:, None] + g[None, :] - C) / eps)
    return np.sum(P * C)


def sinkhorn_cost_c(c, a, b):
    return sinkhorn_cost(0.5, c.reshape(len(a), len(b)), a, b, iters=10)


def _nll_terms(w, X, y, link):
    z = X @ w
    return link(z, y)


def glm_partial(w, X, y):
    """the per-row loss picked by functools.partial with a keyword."""
    def link(z, y, scale=1.0):
        return scale * (np.logaddexp(0.0, z) - y * z)
    terms = _nll_terms(w, X, y, partial(link, scale=0.5))
    return np.sum(terms)
