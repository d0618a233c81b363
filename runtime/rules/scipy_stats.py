"""scipy.stats: registered only when SciPy imports (runtime/rules/__init__.py).

A continuous family here is a location-scale family: with z = (x - loc) / scale,
logpdf(x) = L(z, shapes) - log(scale). So every method's derivative follows from two
facts per family, L's slope in z and its derivatives in the shape parameters:

    logpdf:  d/dx = L'(z) / scale    d/dloc = -L'(z) / scale    d/dscale = -(z L'(z) + 1) / scale
    cdf:     d/dx = p(z) / scale     (p = exp(L), the standard density), and so on.

The cdf family (cdf, logcdf, sf, logsf) has no closed form in the shape parameters: its
slope there is integrated (scipy_stats_shapes.py, adaptive quadrature to 1e-11
relative). Frozen distributions (`stats.norm(mu, s).logpdf(x)`) reuse these rules
(scipy_stats_more.py).
"""
import math

import numpy as np
import scipy.special as sc
from scipy import stats

from ..complex_safety import RuleRefused
from ..helpers import unbroadcast
from ..registry import DIAGONAL, NONE, defvjp, template_helper
from .scipy_stats_shapes import cdf_shape_slope

LOG_2PI = math.log(2 * math.pi)


def _t_shape(z, df):
    return (0.5 * (sc.psi((df + 1) / 2) - sc.psi(df / 2)) - 0.5 / df
            - 0.5 * np.log1p(z * z / df) + (df + 1) * z * z / (2 * df * (df + z * z)),)


# family: (shape names, L(z, *shapes), L'(z, *shapes), (dL/dshape for each shape))
CONTINUOUS = {
    "norm": ((), lambda z: -0.5 * z * z - 0.5 * LOG_2PI, lambda z: -z, None),
    "laplace": ((), lambda z: -np.abs(z) - math.log(2), lambda z: -np.sign(z), None),
    "logistic": ((), lambda z: -z - 2 * np.log1p(np.exp(-z)), lambda z: -np.tanh(z / 2), None),
    "cauchy": ((), lambda z: -math.log(math.pi) - np.log1p(z * z),
               lambda z: -2 * z / (1 + z * z), None),
    "expon": ((), lambda z: -z, lambda z: -np.ones_like(z), None),
    "uniform": ((), lambda z: np.zeros_like(z), lambda z: np.zeros_like(z), None),
    "t": (("df",), lambda z, df: stats.t.logpdf(z, df), lambda z, df: -(df + 1) * z / (df + z * z),
          _t_shape),
    "gamma": (("a",), lambda z, a: stats.gamma.logpdf(z, a), lambda z, a: (a - 1) / z - 1,
              lambda z, a: (np.log(z) - sc.psi(a),)),
    "beta": (("a", "b"), lambda z, a, b: stats.beta.logpdf(z, a, b),
             lambda z, a, b: (a - 1) / z - (b - 1) / (1 - z),
             lambda z, a, b: (np.log(z) - sc.psi(a) + sc.psi(a + b),
                              np.log1p(-z) - sc.psi(b) + sc.psi(a + b))),
    "lognorm": (("s",), lambda z, s: stats.lognorm.logpdf(z, s),
                lambda z, s: -1 / z - np.log(z) / (s * s * z),
                lambda z, s: (-1 / s + np.log(z) ** 2 / s ** 3,)),
}


@template_helper
def stats_vjp(slopes, answer, family, method, wrt, x, shapes, loc, scale):
    """Cotangent of `wrt` ("x", "loc", "scale" or a shape's index) in
    scipy.stats.<family>.<method>(x, *shapes, loc, scale)."""
    names, logp, slope, shape_grads = CONTINUOUS[family]
    x = np.asarray(x, dtype=float)
    z = (x - loc) / scale
    if method in ("logpdf", "pdf"):
        dz = slope(z, *shapes)
        d = {"x": dz / scale, "loc": -dz / scale, "scale": -(z * dz + 1) / scale}
        if isinstance(wrt, int):
            d[wrt] = shape_grads(z, *shapes)[wrt]
        coefficient = d[wrt] * (answer if method == "pdf" else 1)
    else:                           # cdf, logcdf, sf, logsf: d/dz is +-p(z) (/ the value)
        shape = isinstance(wrt, int)    # a shape: its slope by quadrature
        p = cdf_shape_slope(family, shape_grads, z, shapes, wrt) if shape else \
            np.exp(logp(z, *shapes))
        p = p * (-1 if method in ("sf", "logsf") else 1)
        if method in ("logcdf", "logsf"):
            p = p / np.exp(answer)
        coefficient = p if shape else {"x": p / scale, "loc": -p / scale,
                                       "scale": -p * z / scale}[wrt]
    target = {"x": x, "loc": loc, "scale": scale}.get(wrt, shapes[wrt] if isinstance(wrt, int)
                                                       else None)
    return unbroadcast(slopes * coefficient, target)


def _register_continuous(family, names, has_shape_grads):
    dist = getattr(stats, family)
    shapes = ", ".join(names)
    signature = f"x, {shapes + ', ' if shapes else ''}loc=0, scale=1"
    packed = f"({shapes}{',' if len(names) == 1 else ''})"
    for method in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"):
        def template(wrt):
            return f"stats_vjp(g, ans, {family!r}, {method!r}, {wrt!r}, x, {packed}, loc, scale)"
        shape_templates = [template(k) if has_shape_grads else NONE for k in range(len(names))]
        defvjp(getattr(dist, method), signature, template("x"), *shape_templates,
               template("loc"), template("scale"), name=f"scipy.stats.{family}.{method}",
               jvp=DIAGONAL)


for _family, (_names, _logp, _slope, _shape_grads) in CONTINUOUS.items():
    _register_continuous(_family, _names, _shape_grads is not None)

# discrete families, in their probability parameter (the count k and loc carry none;
# j = k - loc is the count the distribution sees)
defvjp(stats.poisson.logpmf, "k, mu, loc=0", None,
       "unbroadcast(g * ((k - loc) / mu - 1), mu)", None, name="scipy.stats.poisson.logpmf",
       jvp=DIAGONAL)
defvjp(stats.bernoulli.logpmf, "k, p, loc=0", None,
       "unbroadcast(g * ((k - loc) / p - (1 - (k - loc)) / (1 - p)), p)", None,
       name="scipy.stats.bernoulli.logpmf",
       jvp=DIAGONAL)
defvjp(stats.binom.logpmf, "k, n, p, loc=0", None, None,
       "unbroadcast(g * ((k - loc) / p - (n - (k - loc)) / (1 - p)), p)", None,
       name="scipy.stats.binom.logpmf",
       jvp=DIAGONAL)
defvjp(stats.poisson.pmf, "k, mu, loc=0", None,
       "unbroadcast(g * ans * ((k - loc) / mu - 1), mu)", None, name="scipy.stats.poisson.pmf",
       jvp=DIAGONAL)
defvjp(stats.bernoulli.pmf, "k, p, loc=0", None,
       "unbroadcast(g * ans * ((k - loc) / p - (1 - (k - loc)) / (1 - p)), p)", None,
       name="scipy.stats.bernoulli.pmf",
       jvp=DIAGONAL)
defvjp(stats.binom.pmf, "k, n, p, loc=0", None, None,
       "unbroadcast(g * ans * ((k - loc) / p - (n - (k - loc)) / (1 - p)), p)", None,
       name="scipy.stats.binom.pmf",
       jvp=DIAGONAL)

# multivariate normal: x - mean = r, P = inv(cov): d/dx = -P r, d/dmean = P r,
# d/dcov = (P r r^T P - P) / 2 (for x of shape (d,) or (n, d))
defvjp(stats.multivariate_normal.logpdf, "x, mean=None, cov=1",
       "mvn_vjp(g, 'x', x, mean, cov)", "mvn_vjp(g, 'mean', x, mean, cov)",
       "mvn_vjp(g, 'cov', x, mean, cov)", name="scipy.stats.multivariate_normal.logpdf",
       jvp=tuple(f"mvn_jvp(t_{p}, ans, {p!r}, x, mean, cov)" for p in ("x", "mean", "cov")))


def mvn_dimension(mean, cov):
    """The dimension SciPy reads from the parameters: the mean's size, else the
    covariance matrix's order (1 for a number or a vector, as in SciPy)."""
    if mean is not None:
        return np.size(mean)
    cov = np.asarray(cov)
    return 1 if cov.ndim < 2 else cov.shape[0]


@template_helper
def mvn_vjp(g, wrt, x, mean, cov):
    """Cotangent of x, mean or cov in multivariate_normal.logpdf (cov a matrix, a
    diagonal as a vector, or a number times the identity; one dimension included)."""
    dim = mvn_dimension(mean, cov)
    points = np.asarray(x, dtype=float)      # (..., dim); with dim 1 also a number or a vector
    given_cov, mean = cov, np.zeros(dim) if mean is None else mean
    cov = np.asarray(cov, dtype=float)
    cov = cov * np.eye(dim) if cov.ndim == 0 else np.diag(cov) if cov.ndim == 1 else cov
    mvn_symmetric(cov)
    r = np.reshape(points - np.ravel(mean), (-1, dim))     # (n, d): one row a point
    pr = np.linalg.solve(cov, r.T).T                      # rows P r_i
    weights = np.broadcast_to(np.asarray(g, dtype=float).reshape(-1), (r.shape[0],))
    if wrt == "x":
        return (-weights[:, None] * pr).reshape(np.shape(x))
    if wrt == "mean":
        return np.sum(weights[:, None] * pr, axis=0).reshape(np.shape(mean))
    grad = (pr.T @ (weights[:, None] * pr) - np.sum(weights) * np.linalg.inv(cov)) / 2
    if np.ndim(given_cov) == 2:
        return grad
    return np.diag(grad) if np.ndim(given_cov) == 1 else float(np.trace(grad))


def mvn_symmetric(cov):
    """Refuse a covariance matrix that is not symmetric: SciPy reads its lower triangle,
    these rules the whole matrix (an asymmetric one gave a silently wrong gradient)."""
    if not np.allclose(cov, cov.T, rtol=1e-8, atol=1e-12 * np.max(np.abs(cov))):
        raise RuleRefused("scipy.stats.multivariate_normal's derivative rules take a "
                          "symmetric cov (SciPy reads its lower triangle). Instead: pass "
                          "a symmetric matrix, such as (c + c.T) / 2")


def mvn_full_cov(cov, dim):
    """cov as a matrix: a number times the identity, a diagonal as a vector, a matrix."""
    cov = np.asarray(cov, dtype=float)
    return cov * np.eye(dim) if cov.ndim == 0 else np.diag(cov) if cov.ndim == 1 else cov


@template_helper
def mvn_jvp(t, ans, wrt, x, mean, cov):
    """Tangent of multivariate_normal.logpdf from x, mean or cov (in cov's form; a
    matrix's symmetric part, as SciPy reads one triangle): per point, -P r . dx,
    P r . dmean and ((P r)^T dcov P r - tr(P dcov)) / 2."""
    dim = mvn_dimension(mean, cov)
    cov = mvn_full_cov(cov, dim)
    mvn_symmetric(cov)
    r = np.reshape(np.asarray(x, dtype=float) - np.ravel(0 if mean is None else mean), (-1, dim))
    pr = np.linalg.solve(cov, r.T).T                      # rows P r_i
    if wrt == "x":
        out = -np.sum(pr * np.reshape(t, r.shape), axis=-1)
    elif wrt == "mean":
        out = np.sum(pr * np.ravel(t), axis=-1)
    else:
        T = mvn_full_cov(t, dim)
        T = (T + T.T) / 2
        out = (np.sum((pr @ T) * pr, axis=-1) - np.trace(np.linalg.solve(cov, T))) / 2
    return np.reshape(out, np.shape(ans))
