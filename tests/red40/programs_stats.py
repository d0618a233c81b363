"""red40: statistics: GLMs (Poisson with exposure, gamma, negative binomial, probit
through scipy.stats), Student-t likelihoods by hand and through scipy.stats, non-centred
hierarchical models, kernel density bandwidths, Gaussian-process marginal likelihoods
by Cholesky (np.linalg and scipy.linalg), censored Weibull, quantile regression, GARCH."""
import numpy as np
from scipy import linalg as sla
from scipy import stats
from scipy.special import gammaln


def poisson_exposure(beta, X, y, exposure):
    eta = X @ beta + np.log(exposure)
    mu = np.exp(eta)
    return np.sum(mu - y * eta + gammaln(y + 1))


def gamma_glm_inverse(beta, X, y, shape=2.0):
    """a gamma GLM with the canonical inverse link (mu = 1/eta)."""
    mu = 1.0 / (X @ beta)
    return -np.sum(shape * np.log(shape / mu) - shape * y / mu + (shape - 1) * np.log(y)
                   - gammaln(shape))


def negbin_log_alpha(theta, X, y):
    """NB2 regression: beta and log alpha in one vector, gammaln terms."""
    beta, alpha = theta[:-1], np.exp(theta[-1])
    mu = np.exp(X @ beta)
    r = 1.0 / alpha
    ll = (gammaln(y + r) - gammaln(r) - gammaln(y + 1) + r * np.log(r / (r + mu))
          + y * np.log(mu / (r + mu)))
    return -ll.sum()


def probit_stats(beta, X, y):
    eta = X @ beta
    return -np.sum(y * stats.norm.logcdf(eta) + (1 - y) * stats.norm.logcdf(-eta))


def student_t_by_hand(params, x):
    """Student-t location/log-scale/log-dof by hand with gammaln."""
    mu, log_s, log_nu = params
    s, nu = np.exp(log_s), np.exp(log_nu)
    z = (x - mu) / s
    ll = (gammaln((nu + 1) / 2) - gammaln(nu / 2) - 0.5 * np.log(nu * np.pi) - log_s
          - (nu + 1) / 2 * np.log1p(z ** 2 / nu))
    return -np.sum(ll)


def student_t_stats(params, x):
    """the same through scipy.stats.t.logpdf with keywords."""
    return -np.sum(stats.t.logpdf(x, df=4.0, loc=params[0], scale=np.exp(params[1])))


def t_regression_nu(nu, X, y, beta):
    """robust regression's dof differentiated (a float)."""
    r = y - X @ beta
    return -np.sum(gammaln((nu + 1) / 2) - gammaln(nu / 2) - 0.5 * np.log(nu)
                   - (nu + 1) / 2 * np.log1p(r * r / nu))


def noncentered_hierarchy(theta, y, sigma):
    """eight-schools-like, non-centred: theta_j = mu + tau * eta_j."""
    mu, log_tau, eta = theta[0], theta[1], theta[2:]
    tau = np.exp(log_tau)
    th = mu + tau * eta
    lp = -0.5 * np.sum(((y - th) / sigma) ** 2)
    lp += -0.5 * np.sum(eta ** 2) - 0.5 * mu ** 2 / 25 + log_tau - tau
    return -lp


class Hierarchy:
    """group means pooled towards a global mean; methods and a property."""

    def __init__(self, groups, y):
        self.groups = groups
        self.y = y

    @property
    def n_groups(self):
        return int(self.groups.max()) + 1

    def logp(self, params):
        mu, log_s = params[0], params[1]
        alphas = params[2:2 + self.n_groups]
        resid = self.y - alphas[self.groups]
        lp = -0.5 * np.sum(resid ** 2)
        lp -= 0.5 * np.sum((alphas - mu) ** 2) / np.exp(2 * log_s) + self.n_groups * log_s
        return lp


def hierarchy_method(params, groups, y):
    return -Hierarchy(groups, y).logp(params)


def kde_loo_bandwidth(h, x):
    """leave-one-out log likelihood of a Gaussian KDE; the diagonal removed by a mask."""
    n = len(x)
    d = (x[:, None] - x[None, :]) / h
    K = np.exp(-0.5 * d ** 2) / np.sqrt(2 * np.pi) / h
    K = K * (1 - np.eye(n))
    return -np.sum(np.log(K.sum(axis=1) / (n - 1)))


def kde_density_points(q, data, h=0.4):
    """a KDE's log density at query points q (differentiated)."""
    d = q[:, None] - data[None, :]
    logk = -0.5 * (d / h) ** 2 - np.log(h * np.sqrt(2 * np.pi))
    m = logk.max(axis=1, keepdims=True)
    return np.sum(m[:, 0] + np.log(np.mean(np.exp(logk - m), axis=1)))


def gp_marginal_np(log_params, X, y):
    """GP negative log marginal likelihood: RBF kernel, np.linalg.cholesky, two
    triangular solves by np.linalg.solve, log det from the diagonal."""
    ell, sf, sn = np.exp(log_params)
    d2 = np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)
    K = sf ** 2 * np.exp(-0.5 * d2 / ell ** 2) + (sn ** 2 + 1e-8) * np.eye(len(X))
    L = np.linalg.cholesky(K)
    a = np.linalg.solve(L, y)
    return 0.5 * a @ a + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2 * np.pi)


def gp_matern_scipy(log_params, X, y):
    """a Matern-3/2 kernel with scipy.linalg.cholesky and solve_triangular."""
    ell, sn = np.exp(log_params)
    r = np.sqrt(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1) + 1e-12)
    s = np.sqrt(3.0) * r / ell
    K = (1 + s) * np.exp(-s) + sn ** 2 * np.eye(len(X))
    L = sla.cholesky(K, lower=True)
    alpha = sla.solve_triangular(L, y, lower=True)
    return 0.5 * alpha @ alpha + np.log(np.diag(L)).sum()


def gp_cho_solve(log_params, X, y):
    """GP with scipy.linalg.cho_factor/cho_solve and a periodic kernel."""
    ell, p = np.exp(log_params)
    d = np.abs(X[:, None] - X[None, :]) + 0.0
    K = np.exp(-2 * np.sin(np.pi * d / p) ** 2 / ell ** 2) + 0.1 * np.eye(len(X))
    c, low = sla.cho_factor(K)
    alpha = sla.cho_solve((c, low), y)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(c)))


def weibull_censored(params, t, event):
    k, lam = np.exp(params)
    z = (t / lam) ** k
    logh = np.log(k / lam) + (k - 1) * np.log(t / lam)
    return -np.sum(event * logh - z)


def quantile_smooth(beta, X, y, tau=0.7, s=0.1):
    """a smoothed pinball loss: s * softplus(r / s) replaces max(r, 0)."""
    r = y - X @ beta
    sp = lambda z: s * np.logaddexp(0.0, z / s)
    return np.mean(tau * sp(r) + (1 - tau) * sp(-r))


def garch11_nll(params, r):
    """GARCH(1,1) Gaussian likelihood with a variance recursion in a Python loop."""
    omega, a, b = np.exp(params)
    var = np.var(r)
    nll = 0.0
    for t in range(len(r)):
        nll = nll + 0.5 * (np.log(var) + r[t] ** 2 / var)
        var = omega + a * r[t] ** 2 + b * var
    return nll


def mc_marginal_fixed_draws(theta, y, z):
    """a random-intercept model's marginal likelihood by Monte Carlo with fixed draws z."""
    mu, log_tau = theta
    u = mu + np.exp(log_tau) * z
    ll = -0.5 * (y[None, :] - u[:, None]) ** 2
    per_draw = ll.sum(axis=1)
    m = per_draw.max()
    return -(m + np.log(np.mean(np.exp(per_draw - m))))


def cauchy_location_scale(params, x):
    loc, log_scale = params
    return -np.sum(stats.cauchy.logpdf(x, loc, np.exp(log_scale)))


def ar2_conditional(phi, x):
    pred = phi[0] * x[1:-1] + phi[1] * x[:-2]
    resid = x[2:] - pred
    return 0.5 * np.sum(resid ** 2) + 0.5 * (phi @ phi)


def bayes_logreg_prior(w, X, y, prior_scale=2.0):
    logits = X @ w
    ll = np.sum(y * logits - np.logaddexp(0.0, logits))
    return -(ll + np.sum(stats.norm.logpdf(w, scale=prior_scale)))


def zero_truncated_poisson(log_lam, y):
    lam = np.exp(log_lam)
    return -np.sum(y * log_lam - lam - gammaln(y + 1) - np.log1p(-np.exp(-lam)))
