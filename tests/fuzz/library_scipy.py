"""Array expressions calling SciPy's rule families (runtime/rules/scipy_*.py), for
TensorExprs through library_exprs.library. None when SciPy does not import.

The inputs are kept where each function is smooth and well conditioned: positive
arguments are `1.5 + tanh(e)`, matrices are `1.5 I + 0.2 tanh(e)` (triangular parts and
Gram matrices of those for the triangular and Cholesky solvers), sample vectors for the
summaries are `tanh(e) + 3 arange(n)` (spread, no ties), and the ODE is a linear decay
solved at tolerances far below the oracle's. Which family a call belongs to is read back
from the product by tests/fuzz/coverage.py (the `scipy:<family>` productions).
"""
try:
    import scipy.integrate  # noqa: F401  (the families register when SciPy imports)
    import scipy.linalg  # noqa: F401
    import scipy.signal  # noqa: F401
    import scipy.special  # noqa: F401
    import scipy.stats  # noqa: F401
    HAVE_SCIPY = True
except ImportError:      # thunkgrad without SciPy: no SciPy productions
    HAVE_SCIPY = False

_IMPORTS = ("import scipy.integrate", "import scipy.linalg", "import scipy.signal",
            "import scipy.special", "import scipy.stats")


def scipy_call(exprs, shape, depth):
    """Text of exactly `shape` from one SciPy call, or None."""
    if not HAVE_SCIPY:
        return None
    text = exprs.g.pick(MAKERS)(_Args(exprs, depth), shape)
    if text is not None:
        for line in _IMPORTS:
            if line not in exprs.g.imports:
                exprs.g.imports.append(line)
    return text


class _Args:
    """The argument texts a maker needs, drawn from TensorExprs at one depth."""

    def __init__(self, exprs, depth):
        self.exprs, self.depth, self.pick = exprs, depth, exprs.g.pick

    def e(self, shape):
        return self.exprs.expr(tuple(shape), self.depth)

    def positive(self, shape):
        return f"(1.5 + np.tanh({self.e(shape)}))"

    def matrix(self, m):
        return f"(1.5 * np.eye({m}) + 0.2 * np.tanh({self.e((m, m))}))"

    def spread(self, n):
        return f"(np.tanh({self.e((n,))}) + 3.0 * np.arange({n}))"

    def dim(self):
        return self.exprs.dim()


def _special(a, shape):
    if shape == ():
        return a.pick([f"scipy.special.logsumexp({a.e((a.dim(), a.dim()))})",
                       f"scipy.special.betaln({a.positive(())}, {a.positive(())})"])
    made = [f"scipy.special.expit({a.e(shape)})", f"scipy.special.erf({a.e(shape)})",
            f"scipy.special.log_ndtr({a.e(shape)})",
            f"scipy.special.gammaln({a.positive(shape)})",
            f"scipy.special.digamma({a.positive(shape)})",
            f"scipy.special.xlogy({a.e(shape)}, {a.positive(shape)})",
            f"scipy.special.softmax({a.e(shape)}, axis=-1)",
            f"scipy.special.log_softmax({a.e(shape)}, axis=0)",
            f"scipy.special.logsumexp({a.e((a.dim(),) + shape)}, axis=0)"]
    return a.pick(made)


def _special_extra(a, shape):
    made = [f"scipy.special.log_expit({a.e(shape)})", f"scipy.special.dawsn({a.e(shape)})",
            f"scipy.special.erfcx(np.tanh({a.e(shape)}))",
            f"scipy.special.cbrt({a.positive(shape)})",
            f"scipy.special.expm1(np.tanh({a.e(shape)}))"]
    return a.pick(made)


def _special_more(a, shape):
    return f"scipy.special.zeta(1.0 + {a.positive(shape)})"


def _stats(a, shape):
    made = [f"scipy.stats.norm.logpdf({a.e(shape)}, {a.e(shape)}, {a.positive(())})",
            f"scipy.stats.t.logpdf({a.e(shape)}, 2.0 + {a.positive(())})",
            f"scipy.stats.logistic.logpdf({a.e(shape)}, scale={a.positive(shape)})",
            f"scipy.stats.gamma.logpdf({a.positive(shape)}, 1.0 + {a.positive(())})",
            f"scipy.stats.norm.cdf({a.e(shape)}, loc={a.e(())})",
            f"scipy.stats.t.cdf({a.e(shape)}, 2.0 + {a.positive(())})",     # shapes by
            f"scipy.stats.gamma.logsf({a.positive(shape)}, 1.0 + {a.positive(())})"]  # quad
    return a.pick(made)


def _stats_frozen(a, shape):
    family = a.pick(("norm", "logistic", "cauchy"))
    method = a.pick(("logpdf", "pdf", "cdf", "logsf"))
    return f"scipy.stats.{family}({a.e(())}, {a.positive(())}).{method}({a.e(shape)})"


def _stats_extra(a, shape):
    made = [f"scipy.stats.gumbel_r.logpdf({a.e(shape)}, {a.e(())}, {a.positive(())})",
            f"scipy.stats.chi2.logpdf({a.positive(shape)}, 2.0 + {a.positive(())})",
            f"scipy.stats.halfnorm.logpdf({a.positive(shape)}, scale={a.positive(())})",
            f"scipy.stats.weibull_min.logpdf({a.positive(shape)}, 1.0 + {a.positive(())})"]
    return a.pick(made)


def _summaries(a, shape):
    if shape == ():
        n = a.pick((3, 4, 5))
        fn = a.pick(("skew", "kurtosis", "sem", "variation", "gmean", "hmean", "entropy"))
        sample = a.positive((n,)) if fn in ("gmean", "hmean", "entropy") else a.spread(n)
        return f"scipy.stats.{fn}({sample})"
    if len(shape) == 1 and shape[0] >= 2:
        return f"scipy.stats.zscore({a.spread(shape[0])})"
    return None


def _linalg(a, shape):
    if shape == ():
        return f"scipy.linalg.det({a.matrix(a.dim())})"
    if len(shape) == 1:
        m, b = shape[0], a.e(shape)
        made = [f"scipy.linalg.solve_triangular(np.triu({a.matrix(m)}), {b})",
                f"scipy.linalg.solve_triangular(np.tril({a.matrix(m)}), {b}, lower=True)",
                f"scipy.linalg.cho_solve(scipy.linalg.cho_factor({_gram(a, m)}), {b})",
                f"scipy.linalg.eigh({_gram(a, m)})[0]"]
        return a.pick(made)
    if len(shape) == 2 and shape[0] == shape[1]:
        m = shape[0]
        return a.pick([f"scipy.linalg.inv({a.matrix(m)})",
                       f"scipy.linalg.expm(0.3 * np.tanh({a.e(shape)}))",
                       f"scipy.linalg.cholesky({_gram(a, m)})"])
    return None


def _gram(a, m):
    w = a.matrix(m)
    return f"({w} @ {w}.T)"


def _linalg_more(a, shape):
    if len(shape) == 1:
        m, b = shape[0], a.e(shape)
        return a.pick([f"scipy.linalg.solve({a.matrix(m)}, {b})",
                       f"scipy.linalg.lu_solve(scipy.linalg.lu_factor({a.matrix(m)}), {b})"])
    if len(shape) == 2 and shape[0] == shape[1]:
        return a.pick([f"scipy.linalg.sqrtm({_gram(a, shape[0])})",
                       f"scipy.linalg.logm({_gram(a, shape[0])})"])
    return None


def _linalg_extra(a, shape):
    if shape == ():
        return f"scipy.linalg.norm(1.0 + {a.positive((a.dim(),))})"
    if len(shape) == 1:
        return f"scipy.linalg.svdvals({_gram(a, shape[0])})"
    if len(shape) == 2 and shape[0] == shape[1]:
        m = shape[0]
        made = [f"scipy.linalg.toeplitz({a.e((m,))})", f"scipy.linalg.circulant({a.e((m,))})",
                f"scipy.linalg.solve_sylvester({a.matrix(m)}, {a.matrix(m)}, {a.e(shape)})"]
        if m >= 2:
            made.append(f"scipy.linalg.block_diag({a.e((1, 1))}, {a.e((m - 1, m - 1))})")
        return a.pick(made)
    return None


def _linalg_factorizations(a, shape):
    if len(shape) == 1:
        m, b = shape[0], a.e(shape)
        return a.pick([f"scipy.linalg.lstsq({a.matrix(m)}, {b})[0]",
                       f"scipy.linalg.eigvalsh({_gram(a, m)})",
                       f"scipy.linalg.pinv({a.matrix(m)}) @ {b}"])
    if len(shape) == 2 and shape[0] == shape[1]:
        mode = a.pick(("economic", "r"))
        part = 0 if mode == "economic" and a.pick((True, False)) else -1
        return f"scipy.linalg.qr({a.matrix(shape[0])}, mode={mode!r})[{part}]"
    return None


def _linalg_eig(a, shape):
    """Session 34: SciPy's eig of a real matrix with a real, distinct spectrum (spread
    diagonal, small coupling), eigenvalues sorted (SciPy returns them complex)."""
    if len(shape) != 1:
        return None
    m = shape[0]
    matrix = f"(np.diag({a.spread(m)}) + 0.1 * np.tanh({a.e((m, m))}))"
    call = a.pick([f"scipy.linalg.eigvals({matrix})", f"scipy.linalg.eig({matrix})[0]"])
    return f"np.sort(np.real({call}))"


def _signal(a, shape):
    if len(shape) != 1:
        return None
    n = shape[0]
    fn = a.pick(("convolve", "correlate", "fftconvolve"))
    mode = a.pick(("full", "same", "valid"))
    k = a.pick([d for d in range(1, n + 1)])
    first = {"full": n - k + 1, "same": n, "valid": n + k - 1}[mode]
    return f"scipy.signal.{fn}({a.e((first,))}, {a.e((k,))}, mode={mode!r})"


def _signal_extra(a, shape):
    if len(shape) == 2:
        fn = a.pick(("convolve2d", "correlate2d"))
        return f"scipy.signal.{fn}({a.e(shape)}, {a.e((1, 2))}, mode='same')"
    if len(shape) != 1:
        return None
    x = a.e(shape)
    den = f"np.concatenate([np.ones(1), 0.3 * np.tanh({a.e((1,))})])"
    made = [f"scipy.signal.lfilter({a.e((2,))}, {den}, {x})"]
    if shape[0] >= 3:             # a line through 1 or 2 points leaves exact zeros
        made.append(f"scipy.signal.detrend({x})")
    return a.pick(made)


def _integrate(a, shape):
    """odeint at rtol = atol = 1e-12, not 1e-11: LSODA's step sequence changes where a
    parameter crosses a threshold, so its result jumps by about rtol * |y|; a 1e-6 central
    difference turns a 1e-11 jump into a 1e-5 error, over the oracle's atol 1e-6 when the
    gradient is small (scipy_calls:3467 failed so, its compiled gradient right to 1e-11 by
    the closed form y0 exp(-k t)). At 1e-12 the reference's error on that program stays
    under 3% of the tolerance (400 points); the adjoint solves at the call's own rtol.
    The lambda's parameter shadowing f's first parameter was once refused (session 32)."""
    if len(shape) != 1:
        return None
    rate = a.positive(())
    g = a.exprs.g           # in every other program the lambda's parameter is named like
    k = g.params[0][0] if len(g.body) % 2 and g.params else "k"    # f's own (session 32)
    if k != "k":
        g.use("lambda_parameter_shadows")
    return (f"scipy.integrate.odeint(lambda y, t, {k}: -{k} * y, {a.e(shape)}, [0.0, 0.5], "
            f"args=({rate},), rtol=1e-12, atol=1e-12)[-1]")


MAKERS = (_special, _special_more, _special_extra, _stats, _stats_frozen, _stats_extra,
          _summaries, _linalg, _linalg_more, _linalg_extra, _linalg_factorizations, _signal,
          _signal_extra, _integrate, _linalg_eig)
