"""Programs calling scipy.special the way user code does (for tests/rules/test_scipy_special.py)."""
import numpy as np
import scipy.linalg
import scipy.special as sc
from scipy import stats
from scipy.special import logsumexp


def lse(x):
    return logsumexp(x)


def lse_axis(x):
    return np.sum(logsumexp(x, axis=1) ** 2)


def lse_keepdims(x):
    return np.sum(np.sin(logsumexp(x, axis=0, keepdims=True) * x))


def lse_weighted(x, w):
    return logsumexp(x, b=w)


def softmax_loss(x):
    return np.sum(sc.softmax(x, axis=-1) * np.arange(x.shape[-1]))


def log_softmax_loss(x):
    return np.sum(sc.log_softmax(x, axis=0) ** 2)


def classifier(W, X, y):
    logits = X @ W
    return -np.mean(sc.log_softmax(logits, axis=1)[np.arange(len(y)), y])


def beta_binomial(a, b):
    return sc.betaln(a + 2.0, b + 1.0) - sc.betaln(a, b) + np.sum(sc.gammaln(a * b))


def bessel_order_differentiated(v):
    return sc.jv(v, 2.3)


def unknown_ufunc(x):
    return sc.hyp2f1(1.0, 2.0, 3.0, x)


def unknown_python_function(x):
    return np.sum(stats.exponweib.logpdf(x + 1.0, 1.5, 2.0))


def unknown_module_function(x):
    return np.sum(scipy.linalg.signm(x))


def frozen_distribution_held_in_a_local(x):
    dist = stats.norm(0.0, 1.0)          # frozen: its ppf has no rule, refused
    return np.sum(dist.ppf(x))


def constant_from_scipy(x):
    z = stats.norm.ppf(0.975)        # no differentiated value reaches it: runs as it is
    return np.sum(x * z)


def constant_special_function(x):
    return np.sum(x * sc.hyp2f1(1.0, 2.0, 3.0, 0.5))
