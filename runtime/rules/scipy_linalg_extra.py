"""scipy.linalg, continued: structured matrices, matrix equations, norm and svdvals
(registered only when SciPy imports). Real inputs (complex input is refused).

toeplitz, circulant, hankel and block_diag only place their arguments' entries: as in
gathers.py, the function applied to the entries' indices says where each came from, and
each argument's cotangent gathers those entries' cotangents. For the matrix equations,
with X the solution and Y the solution of the transposed equation with right side G:
solve_sylvester (A X + X B = Q): Y solves A^T Y + Y B^T = G, gQ = Y, gA = -Y X^T,
gB = -X^T Y; solve_continuous_lyapunov (A X + X A^T = Q): A^T Y + Y A = G, gQ = Y,
gA = -(Y X^T + Y^T X); solve_discrete_lyapunov (X - A X A^T = Q): Y - A^T Y A = G,
gQ = Y, gA = Y A X^T + Y^T A X. norm and svdvals reuse NumPy's rules.
"""
import numpy as np
import scipy.linalg as sl

from ..complex_safety import RuleRefused
from ..registry import JOINT, LINEAR, REDUCTION, defvjp, rrule, template_helper
from ..thunks import Thunk, unthunk
from .gathers_helpers import entry_indices, gather_vjp

defvjp(sl.toeplitz, "c, r=None", "gather_vjp(g, c, structured_sources('toeplitz', c, r, 0))",
       "gather_vjp(g, r, structured_sources('toeplitz', c, r, 1))", jvp=JOINT)
defvjp(sl.hankel, "c, r=None", "gather_vjp(g, c, structured_sources('hankel', c, r, 0))",
       "gather_vjp(g, r, structured_sources('hankel', c, r, 1))", jvp=JOINT)
defvjp(sl.circulant, "c", "gather_vjp(g, c, structured_sources('circulant', c, None, 0))",
       jvp=LINEAR)
defvjp(sl.solve_sylvester, "a, b, q", "matrix_equation_vjp(g, ans, 'sylvester', a, b, 0)",
       "matrix_equation_vjp(g, ans, 'sylvester', a, b, 1)",
       "matrix_equation_vjp(g, ans, 'sylvester', a, b, 2)",
       jvp=("matrix_equation_jvp(t_a, ans, 'sylvester', a, b, 0)",
            "matrix_equation_jvp(t_b, ans, 'sylvester', a, b, 1)", LINEAR))
for _kind, _fn in (("continuous", sl.solve_continuous_lyapunov),
                   ("discrete", sl.solve_discrete_lyapunov)):
    defvjp(_fn, "a, q" + (", method=None" if _kind == "discrete" else ""),
           f"matrix_equation_vjp(g, ans, {_kind!r}, a, None, 0)",
           f"matrix_equation_vjp(g, ans, {_kind!r}, a, None, 2)",
           *([None] if _kind == "discrete" else []),
           jvp=(f"matrix_equation_jvp(t_a, ans, {_kind!r}, a, None, 0)", LINEAR))
defvjp(sl.norm, "a, ord=None, axis=None, keepdims=False, check_finite=True",
       "norm_vjp(g, ans, a, ord, axis, keepdims)", None, None, None, None,
       full_reduction=True, numeric=True,
       jvp=REDUCTION)
defvjp(sl.svdvals, "a, overwrite_a=False, check_finite=True", "svd_vjp(g, ans, a, False, False)",
       None, None, jvp="svdvals_jvp(t_a, a)")


@template_helper(pure=True)
def structured_sources(kind, c, r, part):
    """Where each entry of scipy.linalg.<kind>(c, r) came from: an index into c (part 0)
    or r (part 1), -1 for the other argument's entries and for fills."""
    size = np.size(c)
    tags = entry_indices(c)
    if kind == "circulant":
        return sl.circulant(tags)
    if kind == "toeplitz":             # r=None is c (conjugated): c's entries on both sides
        sources = sl.toeplitz(tags, tags if r is None else entry_indices(r, size))
    else:                              # hankel's r=None is zeros: from no entry
        sources = sl.hankel(tags, np.full(np.shape(tags), -1) if r is None
                            else entry_indices(r, size))
    return np.where(sources >= size, sources - size, -1) if part else \
        np.where(sources < size, sources, -1)


@template_helper(pure=True)
def matrix_equation_vjp(g, ans, kind, a, b, part):
    """Cotangent of a (part 0), b (1) or q (2) of a Sylvester or Lyapunov equation."""
    if np.iscomplexobj(a) or np.iscomplexobj(ans):
        raise RuleRefused(f"the {kind} equation's rule takes real matrices only")
    a, g, x = np.asarray(a), np.asarray(g), np.asarray(ans)
    if kind == "sylvester":
        y = sl.solve_sylvester(a.T, np.asarray(b).T, g)
        return (-y @ x.T, -x.T @ y, y)[part]
    if kind == "continuous":
        y = sl.solve_continuous_lyapunov(a.T, g)
        return -(y @ x.T + y.T @ x) if part == 0 else y
    y = sl.solve_discrete_lyapunov(a.T, g)
    return y @ a @ x.T + y.T @ a @ x if part == 0 else y


def block_diag_rule(*arrs):
    """(sl.block_diag(*arrs), pullback): each argument's block of g."""
    ans = sl.block_diag(*arrs)

    def pullback(g):
        def cotangent(k):
            def value():
                tags = [entry_indices(a, 1) if j == k else np.zeros(np.shape(a), dtype=np.intp)
                        for j, a in enumerate(arrs)]
                return gather_vjp(unthunk(g), arrs[k], sl.block_diag(*tags) - 1)
            return Thunk(value)
        return tuple(cotangent(k) for k in range(len(arrs)))
    return ans, pullback


rrule(sl.block_diag, jvp=JOINT)(block_diag_rule)       # its arguments are varargs
