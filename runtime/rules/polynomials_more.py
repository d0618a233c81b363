"""Polynomial arithmetic and fitting: np.polyadd, np.polysub, np.polymul, np.polyder,
np.polyint and np.polyfit.

polyadd, polysub, polyder and polyint are linear in each coefficient array (polyint
jointly in p and its integration constants k), and polynomials are short, so a
cotangent is J^T g with J's columns the function at the unit coefficient vectors (these
functions trim no leading zeros, so the columns have the output's length). polymul is a
convolution: each factor's cotangent is g correlated with the other factor (np.polymul
drops a factor's leading zeros first: the rule correlates with the kept parts, and a
leading zero gets 0). np.polyfit is a least-squares fit, linear in y: with A the
(weighted) Vandermonde matrix, y's cotangent is w * (pinv(A)^T g); it is not
differentiated in x, w or deg (refused), and full=True or cov=True are refused when the
rule runs.
"""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import JOINT, LINEAR, NONE, defvjp, template_helper
from .shape_helpers import cot_dtype


@template_helper(pure=True)
def poly_linear_vjp(g, fn, args, position, zeroed=()):
    """J^T g for fn(*args), linear in args[position]; the args at `zeroed` are set to
    zero (the others' part of a jointly linear function)."""
    base = [None if a is None else np.zeros(np.shape(a)) if k in zeroed else a
            for k, a in enumerate(args)]
    x = args[position]
    columns = []
    for i in range(int(np.size(x))):
        unit = np.zeros(np.size(x))
        unit[i] = 1.0
        base[position] = unit.reshape(np.shape(x))
        columns.append(np.ravel(fn(*base)))
    jacobian = np.stack(columns, axis=1) if columns else np.zeros((np.size(g), 0))
    cot = (jacobian.T @ np.ravel(g)).reshape(np.shape(x)).astype(cot_dtype(g, x), copy=False)
    return cot if np.ndim(x) else cot[()]


def _trimmed(p):
    """p without its leading zeros, as np.polymul reads it (np.poly1d keeps one 0)."""
    p = np.ravel(p)
    nonzero = np.flatnonzero(p)
    return p[nonzero[0]:] if nonzero.size else p[-1:]


@template_helper(pure=True)
def polymul_vjp(g, a, other):
    """Cotangent of `a` in np.polymul(a, other) = np.convolve of both without their
    leading zeros: g correlated with `other`'s kept part, for `a`'s kept part. A leading
    zero gets 0 (moving it off zero lengthens the product: no derivative; a constant
    zero, the common case, has none to give)."""
    g = np.ravel(g)
    kept, by = _trimmed(a), _trimmed(other)
    cot = np.zeros(np.size(a), dtype=cot_dtype(g, a))
    cot[np.size(a) - kept.size:] = np.correlate(g, by.astype(g.dtype, copy=False), "valid")
    return cot.reshape(np.shape(a))


@template_helper(pure=True)
def polymul_jvp(t, a, other):
    """Tangent of np.polymul(a, other) along `a`'s tangent t, as polymul_vjp reads it:
    t over a's kept part convolved with other's kept part (np.polymul(t, other) would
    drop t's own leading zeros: a product of another length than the answer's)."""
    kept, by = _trimmed(a), _trimmed(other)
    return np.convolve(np.ravel(t)[np.size(a) - kept.size:], by)


@template_helper(pure=True)
def polyfit_y_vjp(g, x, y, deg, rcond, full, w, cov):
    """Cotangent of y of np.polyfit (full=False, cov=False)."""
    if full or cov is not False:
        raise RuleRefused("the polyfit rule returns the coefficients only: "
                                  "full=True and cov= are not covered")
    weights = np.ones(np.shape(x)) if w is None else np.asarray(w, dtype=float)
    lhs = np.vander(np.asarray(x, dtype=float), int(deg) + 1) * weights[:, None]
    g = np.asarray(g)
    cot = np.linalg.pinv(lhs).T @ g
    cot = cot * (weights[:, None] if cot.ndim == 2 else weights)
    return cot.astype(cot_dtype(g, y), copy=False)


defvjp(np.polyadd, "a1, a2", "poly_linear_vjp(g, np.polyadd, (a1, a2), 0, (1,))",
       "poly_linear_vjp(g, np.polyadd, (a1, a2), 1, (0,))", numeric=True, jvp=JOINT)
defvjp(np.polysub, "a1, a2", "poly_linear_vjp(g, np.polysub, (a1, a2), 0, (1,))",
       "poly_linear_vjp(g, np.polysub, (a1, a2), 1, (0,))", numeric=True, jvp=JOINT)
defvjp(np.polymul, "a1, a2", "polymul_vjp(g, a1, a2)", "polymul_vjp(g, a2, a1)", numeric=True,
       jvp=("polymul_jvp(t_a1, a1, a2)", "polymul_jvp(t_a2, a2, a1)"))
defvjp(np.polyder, "p, m=1", "poly_linear_vjp(g, np.polyder, (p, m), 0)", None, numeric=True,
       jvp=LINEAR)
defvjp(np.polyint, "p, m=1, k=None", "poly_linear_vjp(g, np.polyint, (p, m, k), 0, (2,))", None,
       "poly_linear_vjp(g, np.polyint, (p, m, k), 2, (0,))", numeric=True, jvp=JOINT)
# x and w (left out) move the fit too: no rule, so a differentiated one is refused
defvjp(np.polyfit, "x, y, deg, rcond=None, full=False, w=None, cov=False", NONE,
       "polyfit_y_vjp(g, x, y, deg, rcond, full, w, cov)", None, None, None, numeric=True,
       jvp=LINEAR)
