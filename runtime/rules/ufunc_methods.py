"""Methods of ufuncs: np.add.reduce and np.multiply.reduce (np.sum and np.prod with
axis=0 by default), np.add.accumulate and np.add.reduceat,
np.maximum/np.minimum.accumulate (the element where the running extreme was last
renewed takes the cotangent; a tie does not renew it), np.add.outer and
np.multiply.outer. The reductions honour where= and initial=.

`np.add.at` and the other `ufunc.at` write into their first argument: the compiler
refuses them on a value being differentiated (transform/alias). np.add.reduceat sums
segments (an index not after the previous one reads one element, as NumPy does); the
other ufuncs' reduceat have no rule.
"""
import numpy as np

from ..registry import NONE, defvjp

_REDUCE = "array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True"
# templates for: array, axis, dtype, out, keepdims, initial, where
defvjp(np.add.reduce, _REDUCE, "np.where(where, unreduce(g, array, axis, keepdims), 0)",
       None, None, NONE, None, "np.sum(g)", None, name="np.add.reduce", complex_ok=True)
defvjp(np.multiply.reduce, _REDUCE,
       "np.where(where, prod_vjp(g, np.where(where, array, 1), axis, keepdims)"
       " * initial_factor(initial), 0)",
       None, None, NONE, None, NONE, None, name="np.multiply.reduce", complex_ok=True)
_ACCUMULATE = "array, axis=0, dtype=None, out=None"
defvjp(np.add.accumulate, _ACCUMULATE, "cumsum_vjp(g, array, axis)", None, None, NONE,
       name="np.add.accumulate", complex_ok=True)
for _extreme in (np.maximum, np.minimum):
    defvjp(_extreme.accumulate, _ACCUMULATE, "running_max_vjp(g, ans, array, axis)", None, None,
           NONE,
           name=f"np.{_extreme.__name__}.accumulate", complex_ok=True)
defvjp(np.add.reduceat, "array, indices, axis=0, dtype=None, out=None",
       "reduceat_vjp(g, array, indices, axis)", None, None, None, NONE, name="np.add.reduceat",
       complex_ok=True)
defvjp(np.add.outer, "A, B", "outer_sum_vjp(g, A, B, 0)", "outer_sum_vjp(g, A, B, 1)",
       name="np.add.outer", complex_ok=True)
defvjp(np.multiply.outer, "A, B", "np.tensordot(g, B, np.ndim(B))",
       "np.tensordot(A, g, np.ndim(A))", name="np.multiply.outer", complex_ok=True)
