"""Array expressions calling the NumPy library families of runtime/rules/signals.py,
polynomials.py, statistics.py, factorizations.py and layouts.py, for TensorExprs.

Each is smooth for bounded inputs: convolutions and polynomials are polynomial; cov
uses bias=True (no division by n - 1 = 0); QR and lstsq see 1.5 I + 0.2 tanh(e), full
rank; eigenvalues of diag(1, 2, ...) + 0.05 tanh(e) stay real and apart, and only an
order-free sum of their squares is used; meshgrid and rollaxis only move values;
piecewise joins sin and the identity at 0, where they agree to second order.
Order statistics read `np.tanh(e) + 3 * arange(n)`, whose entries are strictly increasing
(no ties, where a median has a kink); `cond` uses the Frobenius order (smooth where the
matrix is invertible); gathers and polynomial arithmetic only move or combine entries.
"""
from tests.fuzz.library_scipy import scipy_call


def library(exprs, shape, depth):
    """Text of exactly `shape` from one library call, or None (not applicable)."""
    makers = [_convolution, _polynomial, _statistics, _factorization, _layout, _piecewise,
              _quantile, _gather, _linalg_more, _polynomial_arithmetic, scipy_call,
              scipy_call]     # SciPy's twelve makers share two places
    maker = exprs.g.pick(makers)
    text = maker(exprs, shape, depth)
    if text is None and shape == ():      # a scalar: the sum of a 1-D result
        text = maker(exprs, (exprs.dim(),), depth)
        return text and f"np.sum({text})"
    return text


def _convolution(exprs, shape, depth):
    if len(shape) != 1:
        return None
    n = shape[0]
    k = exprs.g.pick([d for d in exprs.dims if d <= n] or [1])
    fn = exprs.g.pick(("np.convolve", "np.correlate"))
    return f"{fn}({exprs.expr((n,), depth)}, {exprs.expr((k,), depth)}, mode='same')"


def _polynomial(exprs, shape, depth):
    degree = exprs.g.pick((1, 2, 3))
    return f"np.polyval({exprs.expr((degree,), depth)}, np.tanh({exprs.expr(shape, depth)}))"


def _statistics(exprs, shape, depth):
    if shape == ():
        return f"np.nanvar({exprs.expr((exprs.dim(), exprs.dim()), depth)})"
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] > 1:
        return f"np.cov({exprs.expr((shape[0], exprs.dim()), depth)}, bias=True)"
    return None


def _well_conditioned(exprs, m, depth):
    return f"(1.5 * np.eye({m}) + 0.2 * np.tanh({exprs.expr((m, m), depth)}))"


def _factorization(exprs, shape, depth):
    if shape == ():
        m = exprs.dim()
        spread = f"(np.diag(np.arange(1.0, {m + 1})) + 0.05 * np.tanh({exprs.expr((m, m), depth)}))"
        return f"np.sum(np.linalg.eigvals({spread}) ** 2)"
    if len(shape) == 1:
        matrix = _well_conditioned(exprs, shape[0], depth)
        return f"np.linalg.lstsq({matrix}, {exprs.expr(shape, depth)}, rcond=None)[0]"
    if len(shape) == 2 and shape[0] == shape[1]:
        return f"np.linalg.qr({_well_conditioned(exprs, shape[0], depth)})[1]"
    return None


def _layout(exprs, shape, depth):
    if len(shape) == 2:
        rows, cols = shape
        return f"np.meshgrid({exprs.expr((cols,), depth)}, {exprs.expr((rows,), depth)})[0]"
    if len(shape) == 3:
        moved = (shape[1], shape[0], shape[2])      # rollaxis(a, 1) brings axis 1 first
        return f"np.rollaxis({exprs.expr(moved, depth)}, 1)"
    return None


def _piecewise(exprs, shape, depth):
    if not shape:
        return None
    e = exprs.expr(shape, depth)
    return f"np.piecewise({e}, [{e} > 0], [np.sin, lambda t: t])"



def _apart(exprs, n, depth):
    """n strictly increasing entries (their order never changes)."""
    return f"(np.tanh({exprs.expr((n,), depth)}) + 3.0 * np.arange({n}))"


def _quantile(exprs, shape, depth):
    if shape != ():
        return None
    n = exprs.g.pick((2, 3, 4, 5))
    entries = _apart(exprs, n, depth)
    fn = exprs.g.pick(("median", "quantile", "percentile", "nanmedian", "nanquantile"))
    if fn.endswith("median"):
        return f"np.{fn}({entries})"
    q = f"(0.5 + 0.3 * np.tanh({exprs.expr((), depth)}))"
    return f"np.{fn}({entries}, {q} * 100.0)" if fn == "percentile" else f"np.{fn}({entries}, {q})"


def _gather(exprs, shape, depth):
    if len(shape) == 2 and shape[0] == shape[1]:
        return f"np.diagflat({exprs.expr((shape[0],), depth)})"
    if len(shape) != 1:
        return None
    n = shape[0]
    made = [f"np.delete({exprs.expr((n + 1,), depth)}, 0)",
            f"np.ediff1d({exprs.expr((n + 1,), depth)})",
            f"np.resize({exprs.expr((exprs.dim(),), depth)}, ({n},))"]
    if n >= 2:
        made.append(f"np.insert({exprs.expr((n - 1,), depth)}, 1, {exprs.expr((), depth)})")
    return exprs.g.pick(made)


def _linalg_more(exprs, shape, depth):
    if shape == ():
        return f"np.linalg.cond({_well_conditioned(exprs, exprs.dim(), depth)}, 'fro')"
    if len(shape) == 1:
        matrix = _well_conditioned(exprs, shape[0], depth)
        return f"np.linalg.tensorsolve({matrix}, {exprs.expr(shape, depth)})"
    if len(shape) == 2 and shape[0] == shape[1]:
        return f"np.linalg.tensorinv({_well_conditioned(exprs, shape[0], depth)}, ind=1)"
    return None


def _polynomial_arithmetic(exprs, shape, depth):
    if len(shape) != 1:
        return None
    n = shape[0]
    k = exprs.g.pick(range(1, n + 1))
    made = [f"np.polyder({exprs.expr((n + 1,), depth)})",
            f"np.polyadd({exprs.expr((n,), depth)}, {exprs.expr((k,), depth)})",
            f"np.polysub({exprs.expr((k,), depth)}, {exprs.expr((n,), depth)})",
            f"np.polymul({exprs.expr((k,), depth)}, {exprs.expr((n + 1 - k,), depth)})"]
    if n >= 2:
        made.append(f"np.polyint({exprs.expr((n - 1,), depth)})")
    return exprs.g.pick(made)
