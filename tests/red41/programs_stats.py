"""red41: statistics as people write it, beyond red36-red40's: a GP marginal likelihood
by scipy's cholesky and solve_triangular, a Kalman filter's log likelihood (a local
level model in a NamedTuple), item response theory, multinomial and nested logit,
random-intercept models by Woodbury, variogram fitting, kriging, beta regression,
Dirichlet-multinomial, ARMA(1,1), Poisson GLM with offsets and an L-BFGS-free Newton."""
import math
from typing import NamedTuple

import numpy as np
from scipy.linalg import cholesky, solve_triangular
from scipy.special import expit, gammaln, betaln, logsumexp
from scipy import stats


def gp_loglik_triangular(log_params, X, y):
    """squared exponential kernel, K = L L' by scipy.linalg.cholesky(lower=True),
    alpha by two triangular solves, the negative log marginal likelihood."""
    ell, sf, sn = np.exp(log_params)
    d2 = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)
    K = sf ** 2 * np.exp(-0.5 * d2 / ell ** 2) + (sn ** 2 + 1e-8) * np.eye(len(X))
    L = cholesky(K, lower=True)
    z = solve_triangular(L, y, lower=True)
    alpha = solve_triangular(L.T, z, lower=False)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2 * np.pi)


def gp_predictive_mean(log_params, X, y, Xs):
    """the posterior mean at test points, a separate kernel helper returning a tuple."""
    def kernels(A, B, ell, sf):
        d2 = ((A[:, None] - B[None, :]) ** 2)
        return sf ** 2 * np.exp(-0.5 * d2 / ell ** 2), d2
    ell, sf, sn = np.exp(log_params)
    K, _ = kernels(X, X, ell, sf)
    Ks, _ = kernels(Xs, X, ell, sf)
    L = np.linalg.cholesky(K + sn ** 2 * np.eye(len(X)))
    alpha = solve_triangular(L.T, solve_triangular(L, y, lower=True))
    return np.sum((Ks @ alpha) ** 2)


class LocalLevel(NamedTuple):
    q: float      # state noise variance
    r: float      # observation noise variance


def kalman_loglik(log_qr, y):
    """local level model: predict, update, the innovation log likelihood; defaults for
    the initial state left as a large prior variance."""
    m = LocalLevel(*np.exp(log_qr))
    a, P = 0.0, 1e3
    ll = 0.0
    for obs in y:
        P = P + m.q
        F = P + m.r
        v = obs - a
        ll -= 0.5 * (np.log(2 * np.pi * F) + v * v / F)
        K = P / F
        a = a + K * v
        P = P * (1 - K)
    return -ll


def kalman_2d(theta, ys):
    """constant-velocity tracker with matrices; the negative log likelihood."""
    dt = 1.0
    A = np.array([[1.0, dt], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    Q = np.exp(theta[0]) * np.array([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    R = np.exp(theta[1])
    x = np.zeros(2)
    P = np.eye(2) * 10.0
    nll = 0.0
    for y in ys:
        x = A @ x
        P = A @ P @ A.T + Q
        S = (H @ P @ H.T)[0, 0] + R
        v = y - (H @ x)[0]
        K = (P @ H.T)[:, 0] / S
        x = x + K * v
        P = P - np.outer(K, H @ P)
        nll += 0.5 * (np.log(S) + v ** 2 / S)
    return nll


def irt_2pl(theta, responses):
    """two-parameter logistic IRT: abilities, log discriminations, difficulties."""
    n_people, n_items = responses.shape
    ability = theta[:n_people]
    log_a = theta[n_people:n_people + n_items]
    b = theta[n_people + n_items:]
    eta = np.exp(log_a)[None, :] * (ability[:, None] - b[None, :])
    ll = responses * eta - np.logaddexp(0, eta)
    return -ll.sum() + 0.5 * np.sum(ability ** 2)


def multinomial_logit_choice(beta, X, choice):
    """conditional logit: utilities X[n, alt, feat] @ beta, log_softmax over alternatives."""
    U = X @ beta
    logp = U - logsumexp(U, axis=1, keepdims=True)
    return -np.sum(logp[np.arange(len(choice)), choice])


def nested_logit(theta, X, choice, nests=((0, 1), (2, 3))):
    """two nests with a dissimilarity parameter each (lambda = expit)."""
    beta = theta[:2]
    lam = expit(theta[2:4])
    V = X @ beta
    ll = 0.0
    for n in range(len(choice)):
        ivs, within = [], {}
        for k, nest in enumerate(nests):
            v = V[n, list(nest)] / lam[k]
            iv = logsumexp(v)
            ivs.append(lam[k] * iv)
            for j, alt in enumerate(nest):
                within[alt] = (k, v[j] - iv)
        ivs = np.array(ivs)
        k, lw = within[int(choice[n])]
        ll += lw + ivs[k] - logsumexp(ivs)
    return -ll


def random_intercept_marginal(theta, y, groups, X):
    """y = X beta + u_g + e: the marginal likelihood with V = s2 I + t2 Z Z' per group,
    inverted by the Woodbury/Sherman-Morrison formula by hand."""
    beta = theta[:2]
    s2, t2 = np.exp(theta[2]), np.exp(theta[3])
    nll = 0.0
    for g in np.unique(groups):
        idx = groups == g
        r = y[idx] - X[idx] @ beta
        n = idx.sum()
        logdet = n * np.log(s2) + np.log(1 + n * t2 / s2)
        quad = (r @ r - t2 / (s2 + n * t2) * r.sum() ** 2) / s2
        nll += 0.5 * (logdet + quad)
    return nll


def variogram_fit(theta, h, gamma_hat, counts):
    """exponential variogram nugget + sill (1 - exp(-h / range)), weighted least squares
    (Cressie's weights)."""
    nugget, sill, rng = np.exp(theta)
    model = nugget + sill * (1 - np.exp(-h / rng))
    return np.sum(counts * (gamma_hat / model - 1) ** 2)


def ordinary_kriging(log_range, pts, z, x0):
    """ordinary kriging weights from the bordered system; the prediction variance."""
    a = np.exp(log_range)
    cov = lambda d: np.exp(-d / a)
    D = np.sqrt(np.sum((pts[:, None] - pts[None]) ** 2, axis=-1))
    n = len(pts)
    M = np.ones((n + 1, n + 1))
    M[:n, :n] = cov(D)
    M[n, n] = 0.0
    c0 = np.append(cov(np.sqrt(np.sum((pts - x0) ** 2, axis=1))), 1.0)
    w = np.linalg.solve(M, c0)
    return 1.0 - w[:n] @ c0[:n] - w[n] + (w[:n] @ z) ** 2


def beta_regression(theta, X, y):
    """mean by logit link, precision phi = exp; the beta log density by betaln."""
    mu = expit(X @ theta[:-1])
    phi = np.exp(theta[-1])
    a, b = mu * phi, (1 - mu) * phi
    return -np.sum((a - 1) * np.log(y) + (b - 1) * np.log1p(-y) - betaln(a, b))


def dirichlet_multinomial(log_alpha, counts):
    """over-dispersed counts per row, the log likelihood by gammaln."""
    alpha = np.exp(log_alpha)
    A = alpha.sum()
    n = counts.sum(axis=1)
    ll = (gammaln(A) - gammaln(n + A)
          + np.sum(gammaln(counts + alpha) - gammaln(alpha), axis=1))
    return -np.sum(ll)


def arma11_css(theta, y):
    """ARMA(1,1) conditional sum of squares, residuals accumulated in a list."""
    phi, th = np.tanh(theta[0]), np.tanh(theta[1])
    e = [0.0]
    for t in range(1, len(y)):
        e.append(y[t] - phi * y[t - 1] - th * e[-1])
    e = np.array(e[1:])
    return 0.5 * len(e) * np.log(np.mean(e ** 2))


def poisson_offset_newton(beta0, X, y, log_exposure, steps=3):
    """Poisson GLM with an offset: three Newton steps from beta0 (the fitted beta is
    a function of the start), the deviance at the end."""
    beta = beta0
    for _ in range(steps):
        mu = np.exp(X @ beta + log_exposure)
        g = X.T @ (y - mu)
        H = X.T @ (mu[:, None] * X)
        beta = beta + np.linalg.solve(H, g)
    mu = np.exp(X @ beta + log_exposure)
    return 2 * np.sum(mu - y + y * np.log(np.where(y > 0, y, 1.0) / mu) * (y > 0))


def hurdle_poisson(theta, X, y):
    """a logistic zero part and a zero-truncated Poisson for positive counts."""
    pi0 = expit(X @ theta[:2])
    lam = np.exp(X @ theta[2:])
    pos = y > 0
    ll_zero = np.log(pi0[~pos]).sum()
    lp = lam[pos]
    ll_pos = np.sum(np.log1p(-pi0[pos]) + y[pos] * np.log(lp) - lp - gammaln(y[pos] + 1)
                    - np.log1p(-np.exp(-lp)))
    return -(ll_zero + ll_pos)


def skew_normal_nll(theta, x):
    """skew-normal by scipy.stats.skewnorm.logpdf with loc, scale, shape."""
    loc, log_scale, a = theta
    return -np.sum(stats.skewnorm.logpdf(x, a, loc=loc, scale=np.exp(log_scale)))


def gamma_mixture_em_step(theta, x):
    """one EM-flavoured objective: responsibilities held as data? no: the mixture's
    log likelihood by logsumexp over two gamma components (stats.gamma.logpdf)."""
    w = expit(theta[0])
    k1, k2 = np.exp(theta[1:3])
    lp = np.stack([np.log(w) + stats.gamma.logpdf(x, k1, scale=1.0),
                   np.log1p(-w) + stats.gamma.logpdf(x, k2, scale=2.0)])
    return -np.sum(logsumexp(lp, axis=0))


def bootstrap_mean_var(theta, data, idx):
    """the variance of a weighted mean over fixed bootstrap resamples (idx rows)."""
    w = np.exp(theta)
    means = [np.sum(w[i] * data[i]) / np.sum(w[i]) for i in idx]
    m = sum(means) / len(means)
    return sum((mi - m) ** 2 for mi in means) / (len(means) - 1)
