"""red37: statistics: GLMs, mixture log-likelihoods with logsumexp, Laplace
approximations (Hessians of log posteriors), SciPy special functions."""
import numpy as np
from tests.optional_scipy import scipy_module

special = scipy_module("special")
stats = scipy_module("stats")


def logsumexp_np(a, axis=None):
    m = np.max(a, axis=axis, keepdims=True)
    out = m + np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True))
    return np.squeeze(out, axis=axis) if axis is not None else out.item()


def gmm_loglik(means, x, log_w=None):
    if log_w is None:
        log_w = np.log(np.full(len(means), 1.0 / len(means)))
    lp = log_w[None, :] - 0.5 * (x[:, None] - means[None, :]) ** 2 - 0.5 * np.log(2 * np.pi)
    return np.sum(logsumexp_np(lp, axis=1))


def gmm_scipy_logsumexp(params, x):
    means, logits = params[:2], np.array([params[2], 0.0])
    log_w = logits - special.logsumexp(logits)
    lp = log_w - 0.5 * (x[:, None] - means) ** 2
    return special.logsumexp(lp, axis=1).sum()


def gmm_weights(params, x):
    log_w = params - special.logsumexp(params)
    means = np.array([-1.0, 0.0, 1.5])
    lp = log_w + stats.norm.logpdf(x[:, None], loc=means, scale=0.7)
    return np.sum(special.logsumexp(lp, axis=1))


def poisson_glm(beta, X, y):
    eta = X @ beta
    return -np.sum(y * eta - np.exp(eta) - special.gammaln(y + 1))


def logistic_laplace(beta, X, y, prior_var=4.0):
    """the negative log posterior (its Hessian at the mode is the Laplace covariance)."""
    eta = X @ beta
    ll = np.sum(y * eta - np.logaddexp(0.0, eta))
    return -ll + 0.5 * beta @ beta / prior_var


def laplace_logdet(beta, X):
    p = special.expit(X @ beta)
    H = X.T @ (X * (p * (1 - p))[:, None]) + np.eye(X.shape[1])
    sign, logdet = np.linalg.slogdet(H)
    return 0.5 * logdet


def softmax_regression(W, X, labels):
    logits = X @ W
    logits = logits - logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -np.mean(logp[np.arange(len(labels)), labels])


def student_t_regression(beta, X, y, nu=4.0):
    r = y - X @ beta
    return -np.sum(special.gammaln((nu + 1) / 2) - special.gammaln(nu / 2)
                   - 0.5 * (nu + 1) * np.log1p(r ** 2 / nu))


def beta_binomial(ab, k, n):
    a, b = np.exp(ab[0]), np.exp(ab[1])
    return -np.sum(special.betaln(k + a, n - k + b) - special.betaln(a, b))


def weibull_loglik(theta, t):
    k, lam = np.exp(theta[0]), np.exp(theta[1])
    z = t / lam
    return np.sum(np.log(k / lam) + (k - 1) * np.log(z) - z ** k)


def digamma_moments(log_alpha):
    alpha = np.exp(log_alpha)
    e_log = special.digamma(alpha) - special.digamma(np.sum(alpha))
    return np.sum(e_log * np.array([1.0, 2.0, 0.5]))


def erfc_tail(x):
    return np.sum(special.erfc(x) * x) + np.sum(special.log_ndtr(x))


def gamma_prior_logpost(theta, y):
    mu, log_tau = theta[0], theta[1]
    tau = np.exp(log_tau)
    lp = stats.gamma.logpdf(tau, a=2.0, scale=1.0) + log_tau
    lp += stats.norm.logpdf(mu, 0.0, 3.0)
    lp += np.sum(stats.norm.logpdf(y, mu, 1.0 / np.sqrt(tau)))
    return -lp


def mixture_em_loop(means, x):
    """E steps as responsibilities, held fixed (as numbers) for the M step's Q."""
    q = 0.0
    for _ in range(2):
        lp = -0.5 * (x[:, None] - means) ** 2
        resp = np.exp(lp - logsumexp_np(lp, axis=1)[:, None])
        q = np.sum(resp * lp)
        means = (resp * x[:, None]).sum(0) / resp.sum(0)
    return q


def hierarchical_loop_list(theta, groups):
    mu, log_s = theta[0], theta[1]
    s = np.exp(log_s)
    terms = []
    for g in groups:
        m = np.mean(g)
        terms.append(-0.5 * ((m - mu) / s) ** 2 - log_s)
    return -sum(terms)


def ordered_probit(theta, eta_x, y):
    cuts = np.concatenate([[-np.inf], np.cumsum(np.exp(theta)), [np.inf]])
    cuts[1] = theta[0]
    upper = special.ndtr(cuts[y + 1] - eta_x)
    lower = special.ndtr(cuts[y] - eta_x)
    return -np.sum(np.log(upper - lower))


def glm_family_dispatch(beta, X, y, family="poisson"):
    eta = X @ beta
    if family == "poisson":
        return np.sum(np.exp(eta) - y * eta)
    elif family == "bernoulli":
        return np.sum(np.logaddexp(0, eta) - y * eta)
    return 0.5 * np.sum((y - eta) ** 2)


def glm_family_bernoulli(beta, X, y):
    return glm_family_dispatch(beta, X, (y > 0).astype(float), family="bernoulli")


def von_mises_mle(theta, x):
    mu, kappa = theta[0], np.exp(theta[1])
    return -np.sum(kappa * np.cos(x - mu)) + len(x) * np.log(2 * np.pi * special.i0(kappa))


def kl_gaussians(m, s):
    """KL(N(m, s^2) || N(0, 1)) summed, with s as a vector of log-scales in a tuple."""
    mu, log_s = m, s
    return np.sum(0.5 * (np.exp(2 * log_s) + mu ** 2 - 1) - log_s)


def multinomial_logit_where(theta, x):
    z = np.where(x > 0, theta * x, 0.5 * theta * x ** 2)
    return special.logsumexp(z) - z[0]


def xlogy_poisson(lam, k):
    rate = np.exp(lam)
    return -np.sum(special.xlogy(k, rate) - rate - special.gammaln(k + 1))
