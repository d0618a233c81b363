"""Template helpers for runtime/rules/ufunc_outer.py: ufunc.outer through the ufunc's
own elementwise rule.

f.outer(A, B) is f(A[..., None, ..., None], B), the expanded A broadcasting against B,
so the elementwise rule's cotangents (summed back to each operand by its
`unbroadcast`) are those of the outer product once A's is reshaped back.
"""
import numpy as np

from ..registry import lookup, template_helper


def _expanded(A, B):
    """A with one new trailing axis per axis of B."""
    A = np.asarray(A)
    return np.reshape(A, A.shape + (1,) * np.ndim(B))


@template_helper(pure=True)
def ufunc_outer_vjp(ufunc, g, ans, A, B, operand):
    """Cotangent of A (operand 0) or B (operand 1) of ufunc.outer(A, B)."""
    rule = lookup(ufunc)
    first, second = rule.params[:2]
    values = rule.bind((_expanded(A, B), B), {})
    cot = rule.vjp_function((first, second)[operand])(g, ans, **values)
    return np.reshape(cot, np.shape((A, B)[operand]))
