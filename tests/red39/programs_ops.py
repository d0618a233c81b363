"""red39: realistic programs leaning on the numerical library's wider surface under
forward mode and second order: arctan2 and hypot kinematics, np.interp, np.trapezoid,
np.polyval, np.convolve, np.diff(n=2), np.average with weights, std with ddof,
scipy.special (log_ndtr, ndtr, xlog1py, softmax, log_softmax, entr, logit),
det and slogdet, tensordot, cumprod."""
import numpy as np
from scipy.special import entr, log_ndtr, log_softmax, logit, ndtr, softmax, xlog1py


def arm_reach(angles, target=np.array([1.2, 0.8]), lengths=np.array([1.0, 0.7, 0.4])):
    """a planar robot arm: cumulative joint angles, hypot distance to the target."""
    phi = np.cumsum(angles)
    x = np.sum(lengths * np.cos(phi))
    y = np.sum(lengths * np.sin(phi))
    return np.hypot(x - target[0], y - target[1]) ** 2 + 0.01 * np.sum(angles ** 2)


def heading_error(xy):
    """headings by arctan2 between consecutive waypoints (a smooth path)."""
    pts = xy.reshape(-1, 2)
    d = np.diff(pts, axis=0)
    head = np.arctan2(d[:, 1], d[:, 0])
    return np.sum(np.diff(head) ** 2) + 0.1 * np.sum(d ** 2)


def interp_field(shift, xq):
    """sampling a tabulated field at shifted points with np.interp (a float shift)."""
    grid = np.linspace(-2.0, 2.0, 9)
    table = np.tanh(grid) + 0.1 * grid ** 2
    vals = np.interp(xq + shift, grid, table)
    return np.sum(vals ** 2)


def work_integral(p):
    """work along a path by np.trapezoid with the path's x differentiated too."""
    x = np.cumsum(np.exp(p))
    force = np.sin(x) + x
    return np.trapezoid(force, x)


def polytrend(coef, t, y):
    """a polynomial trend by np.polyval, a squared loss."""
    return np.sum((np.polyval(coef, t) - y) ** 2)


def smooth_conv(signal, kernel=np.array([0.25, 0.5, 0.25])):
    sm = np.convolve(signal, kernel, mode="valid")
    return np.sum(sm ** 3) / len(sm)


def curvature_penalty(y):
    """second differences (np.diff(n=2)) of a smooth curve plus a data term."""
    return np.sum(np.diff(y, n=2) ** 2) + np.sum(np.cos(y))


def weighted_stats(x, w=np.array([1.0, 2.0, 0.5, 1.5, 1.0])):
    m = np.average(x, weights=w)
    s = np.std(x, ddof=1)
    return m * s + np.var(x) ** 2


def tobit_nll(beta, X, y, c=0.0):
    """a Tobit (left-censored at c) log likelihood with scipy's log_ndtr."""
    mu = X @ beta
    cens = y <= c
    ll_obs = -0.5 * (y - mu) ** 2 - 0.5 * np.log(2 * np.pi)
    ll_cens = log_ndtr(c - mu)
    return -np.sum(np.where(cens, ll_cens, ll_obs))


def probit_ndtr(beta, X, y):
    p = ndtr(X @ beta)
    return -np.sum(y * np.log(p) + (1 - y) * np.log1p(-p))


def binomial_xlog1py(logit_p, k, n):
    p = 1.0 / (1.0 + np.exp(-logit_p))
    return -np.sum(k * np.log(p) + xlog1py(n - k, -p))


def policy_entropy(theta, feats, actions):
    """a softmax policy: log_softmax for the chosen actions, entr for the entropy bonus."""
    logits = feats @ theta.reshape(3, 3)
    logp = log_softmax(logits, axis=1)
    p = softmax(logits, axis=1)
    chosen = logp[np.arange(len(actions)), actions]
    return -np.sum(chosen) - 0.1 * np.sum(entr(p))


def logit_link(p, y):
    z = logit(p)
    return np.sum((z - y) ** 2)


def det_volume(a):
    """the squared volume spanned by three vectors (det) and a log det barrier."""
    M = a.reshape(3, 3)
    sign, logdet = np.linalg.slogdet(M @ M.T + np.eye(3))
    return np.linalg.det(M) ** 2 - logdet


def tensordot_energy(w, T):
    """a bilinear energy through np.tensordot over two axes."""
    W = w.reshape(2, 3)
    E = np.tensordot(T, W, axes=([1, 2], [0, 1]))
    return np.sum(np.sin(E)) + np.sum(W * W)


def survival_cumprod(h):
    """survival from discrete hazards expit(h) by cumprod, an expected lifetime."""
    q = 1.0 / (1.0 + np.exp(-h))
    S = np.cumprod(1 - q)
    return np.sum(S) + np.log(S[-1])


def max_min_soft(x):
    """max and min at points with no ties, np.maximum against a constant."""
    return np.max(x) ** 2 - np.min(x) * np.sum(np.maximum(x, 0.1) ** 2)


def norm_ord(x):
    """vector norms with ord=3 and a matrix Frobenius norm."""
    M = x.reshape(2, 3)
    return np.linalg.norm(x, ord=3) + np.linalg.norm(M) ** 3 + np.linalg.norm(M, axis=1) @ np.array([1.0, -0.5])


def power_both(x):
    """x ** y with both sides differentiated, np.power and a negative exponent."""
    a, b = x[0], x[1]
    return a ** b + np.power(b, a) + np.sum(x ** -2.0)


def inv_quadratic(v):
    M = np.array([[2.0, 0.3], [0.3, 1.5]]) + np.outer(v, v)
    return v @ np.linalg.inv(M) @ v + np.trace(np.linalg.inv(M))
