"""red36: statistics: GLMs, Gaussian processes with Cholesky, MCMC log densities,
SciPy's stats, special and linalg."""
import numpy as np
from tests.optional_scipy import scipy_module

sla = scipy_module("linalg")      # SciPy is optional: the module imports without it
special = scipy_module("special")
stats = scipy_module("stats")


def gamma_glm_log_link(beta, X, y):
    eta = X @ beta
    mu = np.exp(eta)
    shape = 2.0
    return -np.sum(stats.gamma.logpdf(y, a=shape, scale=mu / shape))


def negbin_glm(beta, X, y, r=3.0):
    mu = np.exp(X @ beta)
    ll = special.gammaln(y + r) - special.gammaln(r) - special.gammaln(y + 1) \
        + r * np.log(r / (r + mu)) + y * np.log(mu / (r + mu))
    return -ll.sum()


def probit_nll(beta, X, y):
    eta = X @ beta
    p = stats.norm.cdf(eta)
    return -np.sum(y * np.log(p) + (1 - y) * np.log1p(-p))


def probit_logcdf(beta, X, s):
    return -np.sum(special.log_ndtr(s * (X @ beta)))


def _kernel(X1, X2, ls, var):
    d2 = np.sum((X1[:, None, :] - X2[None, :, :]) ** 2, axis=-1)
    return var * np.exp(-0.5 * d2 / ls ** 2)


def gp_cholesky_nll(log_params, X, y):
    ls, var, noise = np.exp(log_params)
    K = _kernel(X, X, ls, var) + noise * np.eye(len(X))
    L = np.linalg.cholesky(K)
    alpha = sla.cho_solve((L, True), y)
    return 0.5 * y @ alpha + np.sum(np.log(np.diag(L))) + 0.5 * len(y) * np.log(2 * np.pi)


def gp_predict_mean(Xs, X, y):
    K = _kernel(X, X, 1.0, 1.0) + 0.1 * np.eye(len(X))
    L = np.linalg.cholesky(K)
    a = sla.solve_triangular(L, y, lower=True)
    a = sla.solve_triangular(L.T, a, lower=False)
    return _kernel(Xs, X, 1.0, 1.0) @ a


def gp_variance(Xs, X):
    K = _kernel(X, X, 0.8, 1.0) + 0.1 * np.eye(len(X))
    Ks = _kernel(Xs, X, 0.8, 1.0)
    L = np.linalg.cholesky(K)
    V = np.linalg.solve(L, Ks.T)
    return 1.0 - np.sum(V ** 2, axis=0)


def gp_slogdet(log_ls, X, y):
    K = _kernel(X, X, np.exp(log_ls), 1.0) + 0.05 * np.eye(len(X))
    sign, logdet = np.linalg.slogdet(K)
    return 0.5 * logdet + 0.5 * y @ np.linalg.solve(K, y)


def hierarchical_logdensity(theta, y, sigma):
    mu, log_tau = theta[0], theta[1]
    eta = theta[2:]
    tau = np.exp(log_tau)
    lp = stats.norm.logpdf(mu, 0, 5) + stats.norm.logpdf(log_tau, 0, 1)
    lp += np.sum(stats.norm.logpdf(eta, 0, 1))
    lp += np.sum(stats.norm.logpdf(y, mu + tau * eta, sigma))
    return lp + log_tau


def banana_logp(x):
    return -0.5 * (x[0] ** 2 / 4 + (x[1] - 0.5 * x[0] ** 2) ** 2)


def mala_proposal_logq(x, eps=0.1):
    """MALA: the log density of a fixed proposal under the Langevin kernel from x."""
    xp = np.array([0.3, -0.2])
    g = np.array([-x[0] / 4 + (x[1] - 0.5 * x[0] ** 2) * x[0], -(x[1] - 0.5 * x[0] ** 2)])
    mean = x + 0.5 * eps ** 2 * g
    return -np.sum((xp - mean) ** 2) / (2 * eps ** 2) + banana_logp(x)


def hmc_leapfrog_logp(q0, p0, eps=0.1):
    def grad_u(q):
        return q * np.array([1.0, 4.0])
    q, p = q0, p0 - 0.5 * eps * grad_u(q0)
    for i in range(5):
        q = q + eps * p
        if i < 4:
            p = p - eps * grad_u(q)
    p = p - 0.5 * eps * grad_u(q)
    H = 0.5 * np.sum(q ** 2 * np.array([1.0, 4.0])) + 0.5 * p @ p
    return H


def dirichlet_multinomial(alpha_log, counts):
    a = np.exp(alpha_log)
    A, N = a.sum(), counts.sum()
    return (special.gammaln(A) - special.gammaln(N + A)
            + np.sum(special.gammaln(counts + a) - special.gammaln(a)))


def student_t_scipy(params, x):
    loc, log_scale = params
    return -np.sum(stats.t.logpdf(x, df=4.0, loc=loc, scale=np.exp(log_scale)))


def beta_logpdf_scipy(ab, x):
    return np.sum(stats.beta.logpdf(x, np.exp(ab[0]), np.exp(ab[1])))


def lognormal_mle(params, x):
    mu, s = params[0], np.exp(params[1])
    return -np.sum(stats.lognorm.logpdf(x, s, scale=np.exp(mu)))


def expit_logit_chain(x):
    p = special.expit(x)
    return np.sum(special.logit(0.5 * p + 0.25) ** 2)


def xlogy_entropy(logits):
    p = special.softmax(logits)
    return -np.sum(special.xlogy(p, p))


def bessel_vonmises(kappa_log, theta):
    kappa = np.exp(kappa_log)
    return -np.sum(kappa * np.cos(theta)) + len(theta) * np.log(2 * np.pi * special.i0(kappa))


def ordinal_logit(params, x, y, cuts=np.array([-0.5, 0.5])):
    eta = x * params[0] + params[1]
    c = np.concatenate([[-np.inf], cuts, [np.inf]])
    upper = special.expit(c[y + 1] - eta)
    lower = special.expit(c[y] - eta)
    return -np.sum(np.log(upper - lower))


def zero_inflated_poisson(params, y):
    logit_pi, log_lam = params
    pi, lam = special.expit(logit_pi), np.exp(log_lam)
    ll_zero = np.log(pi + (1 - pi) * np.exp(-lam))
    ll_pos = np.log(1 - pi) + y * log_lam - lam - special.gammaln(y + 1)
    return -np.sum(np.where(y == 0, ll_zero, ll_pos))


def mixture_em_q(mu, x):
    w = np.array([0.4, 0.6])
    dens = np.stack([w[k] * np.exp(-0.5 * (x - mu[k]) ** 2) for k in range(2)])
    resp = dens / dens.sum(axis=0)
    return np.sum(resp * np.log(dens))


def robust_cauchy(beta, X, y):
    r = y - X @ beta
    return np.sum(np.log1p(r ** 2))


def weighted_ls_lstsq(w, X, y):
    Xw = X * np.sqrt(w)[:, None]
    coef = np.linalg.lstsq(Xw, y * np.sqrt(w), rcond=None)[0]
    return coef


def ridge_closed_form(lam, X, y):
    A = X.T @ X + lam * np.eye(X.shape[1])
    b = np.linalg.solve(A, X.T @ y)
    return np.sum((X @ b - y) ** 2)


def bayes_linreg_evidence(log_alpha, X, y):
    alpha = np.exp(log_alpha)
    n = len(y)
    C = np.eye(n) * 0.5 + X @ X.T / alpha
    L = np.linalg.cholesky(C)
    z = np.linalg.solve(L, y)
    return 0.5 * z @ z + np.log(np.diag(L)).sum()


def kde_loglik(log_h, x, data):
    h = np.exp(log_h)
    z = (x[:, None] - data[None, :]) / h
    dens = np.exp(-0.5 * z ** 2).mean(axis=1) / (h * np.sqrt(2 * np.pi))
    return np.sum(np.log(dens))


def copula_gauss(rho, u):
    z = stats.norm.ppf(u)
    a, b = z[:, 0], z[:, 1]
    return np.sum(-0.5 * np.log(1 - rho ** 2)
                  - (rho ** 2 * (a ** 2 + b ** 2) - 2 * rho * a * b) / (2 * (1 - rho ** 2)))


def mvn_logpdf_scipy_mean(mu, X):
    cov = np.array([[1.0, 0.3], [0.3, 2.0]])
    return np.sum(stats.multivariate_normal.logpdf(X, mean=mu, cov=cov))


def logsumexp_mixture(w, x):
    means = np.array([-1.0, 1.0, 2.5])
    comp = w[:, None] - 0.5 * (x[None, :] - means[:, None]) ** 2
    return np.sum(special.logsumexp(comp, axis=0)) - len(x) * special.logsumexp(w)


def expm_propagator(q):
    Q = np.array([[-q[0], q[0]], [q[1], -q[1]]])
    P = sla.expm(0.5 * Q)
    return np.log(P[0, 1]) + np.log(P[1, 1])


def huber_scipy(beta, X, y):
    r = y - X @ beta
    return np.sum(special.huber(1.0, r))


def erf_quantile_loss(mu, xs):
    z = (xs - mu) / np.sqrt(2)
    return np.sum((0.5 * (1 + special.erf(z)) - 0.5) ** 2)


def gammainc_cdf(log_k, x):
    k = np.exp(log_k)
    return np.sum(special.gammainc(k, x))


def ar1_stationary(params, y):
    phi, log_s = np.tanh(params[0]), params[1]
    s2 = np.exp(2 * log_s)
    ll = -0.5 * np.log(2 * np.pi * s2 / (1 - phi ** 2)) - 0.5 * y[0] ** 2 * (1 - phi ** 2) / s2
    resid = y[1:] - phi * y[:-1]
    ll += np.sum(-0.5 * np.log(2 * np.pi * s2) - 0.5 * resid ** 2 / s2)
    return -ll


def bootstrap_fixed_weights(mu, x):
    r = np.random.default_rng(0)
    total = 0.0
    for _ in range(3):
        idx = r.integers(0, len(x), size=len(x))
        total += np.mean((x[idx] - mu) ** 2)
    return total / 3
