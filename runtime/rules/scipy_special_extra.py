"""scipy.special, the elementary and Bessel-type functions met in real code (registered
only when SciPy imports).

Softplus and log-sigmoid, exponentials and logarithms, error-function kin, Bessel
functions of integer order and K_v, incomplete gamma and beta functions (in x only:
their slope in a, b has no rule, so a differentiated a or b is refused), exponential
integrals, complete elliptic integrals, Box-Cox transforms and robust losses. Real
arguments only (complex input is refused); binary functions broadcast, so each
cotangent is summed back with `unbroadcast`.
"""
import math
from functools import partial

import numpy as np
import scipy.special as sc

from ..registry import NONE, ZERO, defvjp, nondiff, template_helper
from .shape_helpers import cot_dtype

for _helper in (sc.erf, sc.sindg, sc.cosdg, sc.expit, sc.j0, sc.j1, sc.y0, sc.y1, sc.k0, sc.k1,
                sc.k0e, sc.k1e, sc.kv, sc.kve, sc.yn, sc.kn, sc.expn, sc.ellipk, sc.ellipe,
                sc.eval_chebyt):
    template_helper(_helper)
TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
ufunc = partial(defvjp, elementwise=True)

if hasattr(sc, "softplus"):                                              # SciPy 1.15+
    ufunc(sc.softplus, "x", "g * expit(x)")
ufunc(sc.log_expit, "x", "g * expit(-x)")
ufunc(sc.loggamma, "x", "g * psi(x)")                      # real x > 0 (complex refused)
ufunc(sc.rgamma, "x", "-g * ans * psi(x)")
ufunc(sc.poch, "z, m", "unbroadcast(g * ans * (psi(z + m) - psi(z)), z)",
      "unbroadcast(g * ans * psi(z + m), m)")
ufunc(sc.expm1, "x", "g * (ans + 1)")
ufunc(sc.log1p, "x", "g / (1 + x)")
ufunc(sc.exp2, "x", f"g * ans * {math.log(2)!r}")
ufunc(sc.exp10, "x", f"g * ans * {math.log(10)!r}")
ufunc(sc.cbrt, "x", "g / (3 * ans * ans)")
ufunc(sc.cosm1, "x", "-g * np.sin(x)")
ufunc(sc.sindg, "x", f"g * cosdg(x) * {math.pi / 180!r}")
ufunc(sc.cosdg, "x", f"-g * sindg(x) * {math.pi / 180!r}")

ufunc(sc.erfcx, "x", f"g * (2 * x * ans - {TWO_OVER_SQRT_PI!r})")
ufunc(sc.erfi, "x", f"g * {TWO_OVER_SQRT_PI!r} * np.exp(x * x)")
ufunc(sc.dawsn, "x", "g * (1 - 2 * x * ans)")
ufunc(sc.owens_t, "h, a", f"unbroadcast(-g * np.exp(-h * h / 2) * erf(a * h / {math.sqrt(2)!r})"
      f" / {2 * math.sqrt(2 * math.pi)!r}, h)",
      f"unbroadcast(g * np.exp(-h * h * (1 + a * a) / 2) / ({2 * math.pi!r} * (1 + a * a)), a)")

# Bessel functions: J0' = -J1, J1' = (J0 - J2) / 2, the same for Y; K0' = -K1,
# K_v' = -(K_{v-1} + K_{v+1}) / 2; the scaled forms K_v e^x add their own value
ufunc(sc.j0, "x", "-g * j1(x)")
ufunc(sc.j1, "x", "g * (j0(x) - jv(2, x)) / 2")
ufunc(sc.y0, "x", "-g * y1(x)")
ufunc(sc.y1, "x", "g * (y0(x) - yv(2, x)) / 2")
ufunc(sc.k0, "x", "-g * k1(x)")
ufunc(sc.k1, "x", "-g * (k0(x) + kv(2, x)) / 2")
ufunc(sc.k0e, "x", "g * (ans - k1e(x))")
ufunc(sc.k1e, "x", "g * (ans - (k0e(x) + kve(2, x)) / 2)")
ufunc(sc.kv, "v, z", NONE, "unbroadcast(-g * (kv(v - 1, z) + kv(v + 1, z)) / 2, z)")
ufunc(sc.kve, "v, z", NONE, "unbroadcast(g * (ans - (kve(v - 1, z) + kve(v + 1, z)) / 2), z)")
ufunc(sc.yn, "n, x", NONE, "unbroadcast(g * (yn(n - 1, x) - yn(n + 1, x)) / 2, x)")
ufunc(sc.kn, "n, x", NONE, "unbroadcast(-g * (kn(n - 1, x) + kn(n + 1, x)) / 2, x)")

# Derivatives of Bessel functions (n-th), and hypergeometric functions in their argument
for _helper in (sc.jvp, sc.yvp, sc.ivp, sc.kvp, sc.hyp1f1, sc.hyp0f1, sc.hyperu,
                sc.eval_legendre, sc.eval_chebyu, sc.eval_hermite, sc.eval_hermitenorm,
                sc.eval_genlaguerre, sc.eval_gegenbauer, sc.eval_jacobi):
    template_helper(_helper)
for _fn in (sc.jvp, sc.yvp, sc.ivp, sc.kvp):
    ufunc(_fn, "v, z, n=1", NONE, f"unbroadcast(g * {_fn.__name__}(v, z, n + 1), z)", None)
ufunc(sc.hyp1f1, "a, b, x", NONE, NONE, "unbroadcast(g * a / b * hyp1f1(a + 1, b + 1, x), x)")
ufunc(sc.hyp0f1, "v, z", NONE, "unbroadcast(g * hyp0f1(v + 1, z) / v, z)")
ufunc(sc.hyperu, "a, b, x", NONE, NONE, "unbroadcast(-g * a * hyperu(a + 1, b + 1, x), x)")
# Orthogonal polynomials in x (the degree and the parameters: no rule); a degree-0
# polynomial is constant, which the factor (n > 0) or n gives
_PREV = "np.maximum(n - 1, 0)"
ufunc(sc.eval_legendre, "n, x", NONE,
      f"unbroadcast(g * n * (x * ans - eval_legendre({_PREV}, x)) / (x * x - 1), x)")
ufunc(sc.eval_chebyt, "n, x", NONE, f"unbroadcast(g * n * eval_chebyu({_PREV}, x), x)")
ufunc(sc.eval_chebyu, "n, x", NONE, "unbroadcast(g * ((n + 1) * eval_chebyt(n + 1, x) - x * ans)"
      " / (x * x - 1), x)")
ufunc(sc.eval_hermite, "n, x", NONE, f"unbroadcast(g * 2 * n * eval_hermite({_PREV}, x), x)")
ufunc(sc.eval_hermitenorm, "n, x", NONE, f"unbroadcast(g * n * eval_hermitenorm({_PREV}, x), x)")
ufunc(sc.eval_laguerre, "n, x", NONE,
      f"unbroadcast(-g * (n > 0) * eval_genlaguerre({_PREV}, 1.0, x), x)")
ufunc(sc.eval_genlaguerre, "n, alpha, x", NONE, NONE,
      f"unbroadcast(-g * (n > 0) * eval_genlaguerre({_PREV}, alpha + 1, x), x)")
ufunc(sc.eval_gegenbauer, "n, alpha, x", NONE, NONE,
      f"unbroadcast(g * (n > 0) * 2 * alpha * eval_gegenbauer({_PREV}, alpha + 1, x), x)")
ufunc(sc.eval_jacobi, "n, alpha, beta, x", NONE, NONE, NONE,
      f"unbroadcast(g * (n > 0) * (n + alpha + beta + 1) / 2 * "
      f"eval_jacobi({_PREV}, alpha + 1, beta + 1, x), x)")

# Regularised incomplete gamma and beta functions: the density is the slope in x
ufunc(sc.gammainc, "a, x", NONE, "unbroadcast(g * incomplete_density(a, None, x), x)")
ufunc(sc.gammaincc, "a, x", NONE, "unbroadcast(-g * incomplete_density(a, None, x), x)")
ufunc(sc.betainc, "a, b, x", NONE, NONE, "unbroadcast(g * incomplete_density(a, b, x), x)")
# distribution functions: their slope in x is the density (gdtr also in its rate a)
ufunc(sc.chdtr, "v, x", NONE, "unbroadcast(g * incomplete_density(v / 2, None, x / 2) / 2, x)")
ufunc(sc.chdtrc, "v, x", NONE, "unbroadcast(-g * incomplete_density(v / 2, None, x / 2) / 2, x)")
ufunc(sc.gdtr, "a, b, x", "unbroadcast(g * x * incomplete_density(b, None, a * x), a)", NONE,
      "unbroadcast(g * a * incomplete_density(b, None, a * x), x)")
ufunc(sc.gdtrc, "a, b, x", "unbroadcast(-g * x * incomplete_density(b, None, a * x), a)", NONE,
      "unbroadcast(-g * a * incomplete_density(b, None, a * x), x)")
ufunc(sc.pdtr, "k, m", NONE, "unbroadcast(-g * incomplete_density(np.floor(k) + 1, None, m), m)")
ufunc(sc.pdtrc, "k, m", NONE, "unbroadcast(g * incomplete_density(np.floor(k) + 1, None, m), m)")
ufunc(sc.bdtr, "k, n, p", NONE, NONE,
      "unbroadcast(-g * incomplete_density(n - np.floor(k), np.floor(k) + 1, 1 - p), p)")
ufunc(sc.stdtr, "df, t", NONE, "unbroadcast(g * t_density(df, t), t)")
ufunc(sc.stdtrit, "df, p", NONE, "unbroadcast(g / t_density(df, ans), p)")
ufunc(sc.fdtr, "dfn, dfd, x", NONE, NONE, "unbroadcast(g * f_density(dfn, dfd, x), x)")
ufunc(sc.fdtrc, "dfn, dfd, x", NONE, NONE, "unbroadcast(-g * f_density(dfn, dfd, x), x)")
ufunc(sc.ndtri_exp, "y", f"g * np.exp(y + ans * ans / 2) * {math.sqrt(2 * math.pi)!r}")
ufunc(sc.expi, "x", "g * np.exp(x) / x")
ufunc(sc.exp1, "x", "-g * np.exp(-x) / x")
ufunc(sc.expn, "n, x", NONE, "unbroadcast(-g * expn(n - 1, x), x)")       # n >= 1
ufunc(sc.spence, "z", "g * np.log(z) / (1 - z)")
# K(m), E(m): dK/dm = (E - (1 - m) K) / (2 m (1 - m)), dE/dm = (E - K) / (2 m)
ufunc(sc.ellipk, "m", "g * (ellipe(m) - (1 - m) * ans) / (2 * m * (1 - m))")
ufunc(sc.ellipe, "m", "g * (ans - ellipk(m)) / (2 * m)")
ufunc(sc.wrightomega, "z", "g * ans / (1 + ans)")                        # real z

# Box-Cox: (x^l - 1) / l, log(x) at l = 0 (boxcox1p: of 1 + x)
ufunc(sc.boxcox, "x, lmbda", "unbroadcast(g * x ** (lmbda - 1), x)",
      "unbroadcast(g * boxcox_lambda_slope(np.log(x), lmbda), lmbda)")
ufunc(sc.boxcox1p, "x, lmbda", "unbroadcast(g * (1 + x) ** (lmbda - 1), x)",
      "unbroadcast(g * boxcox_lambda_slope(np.log1p(x), lmbda), lmbda)")
# Huber losses of the residual r with threshold delta
ufunc(sc.huber, "delta, r", "unbroadcast(g * np.where(np.abs(r) <= delta, 0, np.abs(r) - delta)"
      " * (delta >= 0), delta)",
      "unbroadcast(g * np.where(np.abs(r) <= delta, r, delta * np.sign(r)) * (delta >= 0), r)")
ufunc(sc.pseudo_huber, "delta, r",
      "unbroadcast(g * (2 * ans - r * r / np.sqrt(1 + (r / delta) ** 2)) / delta, delta)",
      "unbroadcast(g * r / np.sqrt(1 + (r / delta) ** 2), r)")
nondiff(sc.round, sc.gammasgn, why=ZERO, elementwise=True)      # steps (the sign of Gamma)


@template_helper
def boxcox_lambda_slope(log_x, lmbda):
    """d/dl of (e^(l log x) - 1) / l: (l log x e^(l log x) - e^(l log x) + 1) / l^2, and
    its limit log(x)^2 / 2 near l = 0 (where the quotient cancels)."""
    t = lmbda * log_x
    small = np.abs(t) < 1e-4
    safe = np.where(small, 1.0, lmbda)
    exact = (t * np.exp(t) - np.expm1(t)) / (safe * safe)
    series = log_x * log_x * (0.5 + t / 3 + t * t / 8)
    return np.where(small, series, exact)


@template_helper(pure=True)
def incomplete_density(a, b, x):
    """The slope in x of the regularised incomplete gamma function (b None) or beta
    function: the gamma(a) or beta(a, b) density at x, in x's float dtype."""
    if b is None:
        log_density = (a - 1) * np.log(x) - x - sc.gammaln(a)
    else:
        log_density = (a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - sc.betaln(a, b)
    return np.exp(log_density).astype(cot_dtype(1.0, x), copy=False)


@template_helper(pure=True)
def t_density(df, t):
    """Student's t density with df degrees of freedom at t, in t's float dtype."""
    log_density = (sc.gammaln((df + 1) / 2) - sc.gammaln(df / 2) - 0.5 * np.log(df * np.pi)
                   - (df + 1) / 2 * np.log1p(t * t / df))
    return np.exp(log_density).astype(cot_dtype(1.0, t), copy=False)


@template_helper(pure=True)
def f_density(dfn, dfd, x):
    """The F(dfn, dfd) density at x: fdtr is betainc(dfn/2, dfd/2, u), u = dfn x /
    (dfd + dfn x)."""
    u = dfn * x / (dfd + dfn * x)
    slope = dfn * dfd / (dfd + dfn * x) ** 2
    return (incomplete_density(dfn / 2, dfd / 2, u) * slope).astype(cot_dtype(1.0, x), copy=False)
