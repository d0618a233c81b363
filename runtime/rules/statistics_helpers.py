"""Template helpers for runtime/rules/statistics.py: np.cov and np.corrcoef.

With X the variables as rows, w the product of fweights and aweights (ones when
neither is given) and Xc = X - the w-weighted row means, np.cov is
C = Xc diag(w) Xc^T / f. Since Xc w = 0, the centring adds nothing to the cotangent:
dX = (G + G^T) Xc diag(w) / f.
"""
import numpy as np

from ..registry import template_helper
from .shape_helpers import cot_dtype


def _transposed(a, rowvar, operand):
    """Whether np.cov transposes an argument for rowvar=False: m unless it is 1-D, y
    unless it is a single row (NumPy's own two tests)."""
    if rowvar:
        return False
    return np.ndim(a) != 1 if operand == 0 else np.atleast_2d(np.asarray(a)).shape[0] != 1


def _as_rows(a, rowvar, operand=0):
    rows = np.atleast_2d(np.asarray(a))
    return rows.T if _transposed(a, rowvar, operand) else rows


def _variables(m, y, rowvar):
    rows = [_as_rows(m, rowvar)] + ([] if y is None else [_as_rows(y, rowvar, 1)])
    return np.concatenate(rows, axis=0)


def _weights(fweights, aweights):
    w = None if fweights is None else np.asarray(fweights, dtype=float)
    if aweights is not None:
        w = np.asarray(aweights, dtype=float) if w is None else w * aweights
    return w


def _factor(n, w, aweights, ddof):
    """np.cov's normalisation, as NumPy computes it."""
    if w is None:
        return n - ddof
    total = np.sum(w)
    if ddof == 0:
        return total
    if aweights is None:
        return total - ddof
    return total - ddof * np.sum(w * aweights) / total


def _split(cot, m, y, rowvar):
    """The cotangent of the stacked variables back to m's (and y's) layout."""
    rows_m = _as_rows(m, rowvar).shape[0]
    parts = [cot[:rows_m], cot[rows_m:]]
    out = []
    for operand, (part, a) in enumerate(zip(parts, (m, y))):
        if a is not None:
            transposed = _transposed(a, rowvar, operand)
            out.append((part.T if transposed else part).reshape(np.shape(a)))
    return out


def cov_variables_vjp(G, m, y, rowvar, bias, ddof, fweights, aweights):
    """dX for the stacked variables X, given the full (k x k) cotangent G."""
    X = _variables(m, y, rowvar).astype(float)
    ddof = (0 if bias else 1) if ddof is None else ddof
    w = _weights(fweights, aweights)
    n = X.shape[1]
    weights = np.ones(n) if w is None else w
    mean = X @ weights / np.sum(weights)
    centred = (X - mean[:, None]) * weights
    return (G + G.T) @ centred / _factor(n, w, aweights, ddof)


@template_helper(pure=True)
def cov_vjp(g, m, y, rowvar, bias, ddof, fweights, aweights, operand):
    """Cotangent of m (operand 0) or y (operand 1) of np.cov (see the module docstring)."""
    k = _variables(m, y, rowvar).shape[0]
    G = np.asarray(g, dtype=float).reshape(k, k)
    cot = cov_variables_vjp(G, m, y, rowvar, bias, ddof, fweights, aweights)
    part = _split(cot, m, y, rowvar)[operand]
    return part.astype(cot_dtype(g, (m, y)[operand]))


@template_helper(pure=True)
def corrcoef_vjp(g, x, y, rowvar, operand):
    """Cotangent of x or y of np.corrcoef: R = C / (s s^T) with s = sqrt(diag C); the
    clip to [-1, 1] only rounds (R_ii = 1 has slope 0, as this formula gives)."""
    C = np.atleast_2d(np.cov(x, y, rowvar))
    s = np.sqrt(np.diag(C))
    R = C / np.outer(s, s)
    G = np.asarray(g, dtype=float).reshape(C.shape)
    dC = G / np.outer(s, s)
    dC[np.diag_indices_from(dC)] -= np.sum(G * R + (G * R).T, axis=1) / (2 * s ** 2)
    cot = cov_variables_vjp(dC, x, y, rowvar, False, None, None, None)
    part = _split(cot, x, y, rowvar)[operand]
    return part.astype(cot_dtype(g, (x, y)[operand]))


@template_helper(pure=True)
def cov_jvp(t, m, y, rowvar, bias, ddof, fweights, aweights, operand):
    """Tangent of np.cov from m (operand 0) or y (1). np.cov is quadratic in each (the
    weights held), so its central difference is its derivative, exactly; the step s
    puts t on m's scale, against rounding."""
    parts = [m, y]
    value = np.asarray(parts[operand], dtype=float)
    s = (np.linalg.norm(value) or 1.0) / (np.linalg.norm(t) or 1.0)

    def cov_at(step):
        parts[operand] = value + step * np.asarray(t)
        return np.cov(*parts, rowvar=rowvar, bias=bias, ddof=ddof, fweights=fweights,
                      aweights=aweights)
    return (cov_at(s) - cov_at(-s)) / (2 * s)


@template_helper(pure=True)
def corrcoef_jvp(t, answer, x, y, rowvar, operand):
    """R = C / (s s^T), s = sqrt(diag C): dR = dC / (s s^T) - R (dC_ii / C_ii +
    dC_jj / C_jj) / 2, with dC np.cov's tangent."""
    C = np.atleast_2d(np.cov(x, y, rowvar))
    dC = np.atleast_2d(cov_jvp(t, x, y, rowvar, False, None, None, None, operand))
    s = np.sqrt(np.diag(C))
    relative = np.diag(dC) / s ** 2
    dR = dC / np.outer(s, s) - C / np.outer(s, s) * (relative[:, None] + relative) / 2
    return dR.reshape(np.shape(answer))
