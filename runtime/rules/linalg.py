"""Products and matrix structure: each operand's cotangent is the same kind of
product of `g` with the other operands (vecdot real only; vdot conjugates its
first operand, docs/complex.md); np.cross for 3-vectors; np.einsum with string subscripts
(explicit or implicit output, ellipses, repeated labels), as a custom rule
because its operands are varargs."""
import numpy as np

from ..complex_safety import RuleRefused
from ..registry import LINEAR, defvjp, rrule
from .einsum_helpers import einsum_vjp
from .einsum_paths import cached_einsum
from ..thunks import Thunk, unthunk

# Products
defvjp(np.matmul, "x1, x2", "matmul_lhs(g, x1, x2)", "matmul_rhs(g, x1, x2)", numeric=True,
       complex_ok=True, jvp=LINEAR)
if hasattr(np.linalg, "matmul"):                                          # NumPy 2.0+
    defvjp(np.linalg.matmul, "x1, x2, /", "matmul_lhs(g, x1, x2)", "matmul_rhs(g, x1, x2)",
           complex_ok=True, jvp=LINEAR)
defvjp(np.dot, "a, b, out=None", "dot_vjp(g, a, b, 0)", "dot_vjp(g, a, b, 1)", numeric=True,
       complex_ok=True, jvp=LINEAR)
# vdot conjugates a: sum(conj(a) b), so a's cotangent is conj(g b) (docs/complex.md)
defvjp(np.vdot, "a, b", "vdot_vjp(g, a, b, 0)", "vdot_vjp(g, a, b, 1)", complex_ok=True, jvp=LINEAR)
defvjp(np.inner, "a, b", "inner_vjp(g, a, b, 0)", "inner_vjp(g, a, b, 1)", complex_ok=True,
       jvp=LINEAR)
defvjp(np.outer, "a, b, out=None", "(g @ np.ravel(b)).reshape(np.shape(a))",
       "(np.ravel(a) @ g).reshape(np.shape(b))", numeric=True, complex_ok=True, jvp=LINEAR)
if hasattr(np.linalg, "outer"):                                           # NumPy 2.0+
    defvjp(np.linalg.outer, "x1, x2, /", "g @ x2", "x1 @ g", complex_ok=True, jvp=LINEAR)
defvjp(np.tensordot, "a, b, axes=2", "tensordot_vjp(g, a, b, axes, 0)",
       "tensordot_vjp(g, a, b, axes, 1)", complex_ok=True, jvp=LINEAR)
if hasattr(np.linalg, "tensordot"):                                       # NumPy 2.0+
    defvjp(np.linalg.tensordot, "x1, x2, /, *, axes=2", "tensordot_vjp(g, x1, x2, axes, 0)",
           "tensordot_vjp(g, x1, x2, axes, 1)", complex_ok=True, jvp=LINEAR)
defvjp(np.kron, "a, b", "kron_vjp(g, a, b, 0)", "kron_vjp(g, a, b, 1)", complex_ok=True, jvp=LINEAR)
defvjp(np.cross, "a, b, axisa=-1, axisb=-1, axisc=-1, axis=None",
       "cross_vjp(g, a, b, axisa, axisb, axisc, axis, 0)",
       "cross_vjp(g, a, b, axisa, axisb, axisc, axis, 1)", complex_ok=True, jvp=LINEAR)
if hasattr(np.linalg, "cross"):                                           # NumPy 2.0+
    defvjp(np.linalg.cross, "x1, x2, /, *, axis=-1",
           "cross_vjp(g, x1, x2, axis, axis, axis, axis, 0)",
           "cross_vjp(g, x1, x2, axis, axis, axis, axis, 1)", complex_ok=True, jvp=LINEAR)
for _vecdot in (getattr(np, "vecdot", None), getattr(np.linalg, "vecdot", None)):  # 2.0+
    if _vecdot is not None:
        defvjp(_vecdot, "x1, x2, /, *, axis=-1", "vecdot_vjp(g, x2, x1, axis)",
               "vecdot_vjp(g, x1, x2, axis)", jvp=LINEAR)
if hasattr(np, "matvec"):                                                 # NumPy 2.2+
    defvjp(np.matvec, "x1, x2, /",
           "unbroadcast(np.expand_dims(g, -1) * np.expand_dims(x2, -2), x1)",
           "unbroadcast(np.matvec(np.matrix_transpose(x1), g), x2)", complex_ok=True, jvp=LINEAR)
    defvjp(np.vecmat, "x1, x2, /", "unbroadcast(np.matvec(x2, g), x1)",
           "unbroadcast(np.expand_dims(x1, -1) * np.expand_dims(g, -2), x2)", jvp=LINEAR)
defvjp(np.linalg.multi_dot, "arrays, *, out=None", "multi_dot_vjp(g, arrays)", complex_ok=True,
       jvp="multi_dot_jvp(t_arrays, arrays)")


@rrule(np.einsum, complex_ok=True, jvp=LINEAR)     # products: transposes (docs/complex.md)
def _einsum_rule(subscripts, *operands, **kwargs):
    """einsum takes its operands as varargs, so its rule is a custom rrule: one
    einsum_vjp per operand, none for the subscripts. String subscripts only."""
    if not isinstance(subscripts, str):
        raise RuleRefused("einsum's rule needs string subscripts")
    ans = cached_einsum(subscripts, *operands, **kwargs)     # optimize=True: path cached

    def pullback(g):
        def operand_cotangent(k):
            return Thunk(lambda: einsum_vjp(unthunk(g), k, subscripts, operands))
        return (None,) + tuple(operand_cotangent(k) for k in range(len(operands)))
    return ans, pullback


# Matrix structure
defvjp(np.triu, "m, k=0", "np.triu(g, k)", complex_ok=True, jvp=LINEAR)
defvjp(np.tril, "m, k=0", "np.tril(g, k)", complex_ok=True, jvp=LINEAR)
defvjp(np.diag, "v, k=0", "diag_vjp(g, v, k)", view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.diagonal, "a, offset=0, axis1=0, axis2=1", "diagonal_vjp(g, a, offset, axis1, axis2)",
       view=True, complex_ok=True, jvp=LINEAR)
if hasattr(np, "matrix_transpose"):                                       # NumPy 2.0+
    defvjp(np.linalg.diagonal, "x, /, *, offset=0", "diagonal_vjp(g, x, offset, -2, -1)",
           complex_ok=True, jvp=LINEAR)
    defvjp(np.matrix_transpose, "x, /", "np.matrix_transpose(g)", view=True, complex_ok=True,
           jvp=LINEAR)
    defvjp(np.linalg.matrix_transpose, "x, /", "np.matrix_transpose(g)", view=True, complex_ok=True,
           jvp=LINEAR)
