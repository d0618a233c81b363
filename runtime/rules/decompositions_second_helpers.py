"""np.linalg.solve's and np.linalg.cholesky's cotangent helpers differentiated (hvp
forward over reverse runs forward mode over a flat gradient calling solve_vjp or
cholesky_vjp; decompositions_second.py registers their rules).

solve_vjp(g, ans, a, b, operand, lower) with gb = a^-T g (g a column where b is a
vector): operand 1 gives gb summed to b's shape, operand 0 -gb x^T (x = ans) summed to
a's shape, one triangle of it where `lower` says a is a factor (its solve reads one).
    tangents:   d gb = a^-T (dg - da^T gb);  d(-gb x^T) = -d gb x^T - gb dx^T
    cotangents: u = a^-1 (the cotangent of gb): g gets u, a gets -gb u^T, x gets -H^T gb
                (H: the cotangent of -gb x^T)
"""
import numpy as np

from ..registry import template_helper
from .decompositions_helpers import _NUMPY_1, cholesky_vjp, mT, solve_transposed, solve_vjp
from .shape_helpers import sum_to_shape


def _triangle(m, lower):
    return m if lower is None else np.tril(m) if lower else np.triu(m)


def _columns(b, a, value):
    """value as columns where b is a vector (solve_vjp's convention), and whether it is."""
    vector = np.ndim(b) == 1 or (_NUMPY_1 and np.ndim(b) == np.ndim(a) - 1)
    return (value[..., None] if vector else value), vector


@template_helper
def solve_vjp_jvp(t, g, ans, a, b, operand, lower, by):
    """The tangent of solve_vjp(g, ans, a, b, operand, lower) as `by` ("g", "answer" or
    "a") moves along t; linear in g."""
    if by == "g":
        return solve_vjp(t, ans, a, b, operand, lower)
    a = np.asarray(a)
    g_columns, vector = _columns(b, a, g)
    gb = solve_transposed(a, g_columns, lower)
    if by == "a":
        moved = -(mT(_triangle(t, lower)) @ gb)
        return solve_vjp(moved[..., 0] if vector else moved, ans, a, b, operand, lower)
    if operand == 1:                       # b's cotangent does not read the answer
        return np.zeros(np.shape(b), dtype=np.result_type(gb, t))
    dx, _ = _columns(b, a, t)
    return _triangle(sum_to_shape(-(gb @ mT(dx)), a.shape), lower)


@template_helper
def solve_vjp_vjp(h, g, ans, a, b, operand, lower, by):
    """The cotangent of g, "answer" or a (`by`) in solve_vjp(g, ans, a, b, operand,
    lower) for the cotangent h of its output (shaped like b, or a for operand 0)."""
    a = np.asarray(a)
    g_columns, vector = _columns(b, a, np.asarray(g))
    gb = solve_transposed(a, g_columns, lower)
    if operand == 1:
        if by == "answer":
            return np.zeros(np.shape(ans), dtype=np.result_type(gb, h))
        cot_gb = np.broadcast_to(_columns(b, a, np.asarray(h))[0], gb.shape)
    else:
        x, _ = _columns(b, a, np.asarray(ans))
        full = _triangle(np.asarray(h), lower)
        if by == "answer":
            cot_x = sum_to_shape(-(mT(full) @ gb), x.shape)
            return cot_x[..., 0] if vector else cot_x
        cot_gb = sum_to_shape(-(full @ x), gb.shape)
    u = np.linalg.solve(_triangle(a, lower), cot_gb)
    if by == "a":
        return _triangle(sum_to_shape(-(gb @ mT(u)), a.shape), lower)
    cot_g = sum_to_shape(u, g_columns.shape)
    return cot_g[..., 0] if vector else cot_g


# cholesky_vjp(g, ans, upper) = sym(L^-T P L^-1), P = Phi(L^T gL) (L, gL: ans, g, transposed
# where upper), Q = L^-T P L^-1: read as a function of L's lower triangle (what its LAPACK
# path reads; L is a factor, its tangents lower triangular):
#   tangent along dL: sym(-L^-T dL^T Q + L^-T Phi(dL^T gL) L^-1 - Q dL L^-1)
#   cotangents for H (S = sym(H), R = L^-1 S L^-T): gL gets L Phi(R),
#   L gets tril(-Q S L^-T + gL Phi(R)^T - Q^T S L^-T)
def _phi(x):
    """The lower triangle, its diagonal halved."""
    return np.tril(x) - x * np.eye(x.shape[-1], dtype=x.dtype) / 2


def _factor_parts(g, ans, upper):
    """(L, gL, L^-1) in the lower form."""
    L, gL = (mT(ans), mT(g)) if upper else (ans, g)
    L = np.tril(L)
    return L, gL, np.linalg.inv(L)


def _sym(x):
    return (x + mT(x)) / 2


@template_helper
def cholesky_vjp_jvp(t, g, ans, upper, by):
    """The tangent of cholesky_vjp(g, ans, upper) as `by` ("g" or "answer") moves
    along t; linear in g."""
    if by == "g":
        return cholesky_vjp(t, ans, upper)
    L, gL, inverse = _factor_parts(np.asarray(g), np.asarray(ans), upper)
    dL = np.tril(mT(t) if upper else t)
    Q = mT(inverse) @ _phi(mT(L) @ gL) @ inverse
    return _sym(-(mT(inverse) @ mT(dL) @ Q) + mT(inverse) @ _phi(mT(dL) @ gL) @ inverse -
                Q @ dL @ inverse)


@template_helper
def cholesky_vjp_vjp(h, g, ans, upper, by):
    """The cotangent of g or "answer" (`by`) in cholesky_vjp(g, ans, upper) for the
    cotangent h of its output (shaped like ans)."""
    L, gL, inverse = _factor_parts(np.asarray(g), np.asarray(ans), upper)
    S = _sym(np.asarray(h))
    R = inverse @ S @ mT(inverse)
    if by == "g":
        out = L @ _phi(R)
    else:
        Q = mT(inverse) @ _phi(mT(L) @ gL) @ inverse
        out = np.tril(-(Q @ S @ mT(inverse)) + gL @ mT(_phi(R)) - mT(Q) @ S @ mT(inverse))
    return mT(out) if upper else out
