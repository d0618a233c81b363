"""Methods of ufuncs: np.add.reduce and np.multiply.reduce (np.sum and np.prod with
axis=0 by default), np.add.accumulate and np.add.reduceat,
np.maximum/np.minimum.accumulate (the element where the running extreme was last
renewed takes the cotangent; a tie does not renew it), np.add.outer and
np.multiply.outer. The reductions honour where= and initial=.
np.maximum/np.minimum.reduce (np.max and np.min with axis=0 by default: ties share the
cotangent equally, an initial= that wins gives none; where= has no rule),
np.multiply.accumulate (np.cumprod along axis 0, exact at zeros), np.logaddexp.reduce and
np.logaddexp2.reduce (each element's weight is its share of the total: exp(a - ans)),
np.maximum/np.minimum/np.multiply.reduceat (per segment as np.max/np.min/np.prod).

`np.add.at(a, indices, b)` and `np.subtract.at` as statements (a name first, three
positional arguments) are rewritten `a[...] = added_at(a, indices, b)`
(transform/frontend/ufunc_at.py), an in-place write of the whole array with the usual
checks: `a` gets g, b what reached the places it was added to (once per repeated index).
np.multiply/np.divide/np.maximum/np.minimum.at likewise (runtime/rules/ufunc_at_more.py,
session 34). The other `ufunc.at` and other forms write into their first argument: the
compiler refuses them on a value being differentiated (transform/alias). np.add.reduceat sums
segments (an index not after the previous one reads one element, as NumPy does); the
other ufuncs' reduceat, accumulate and reduce have no rule.
"""
import numpy as np

from ..registry import JOINT, LINEAR, NONE, REDUCTION, defvjp
from .ufunc_methods_helpers import added_at, subtracted_at
from .reductions import EXTREMUM_JVP

_REDUCE = "array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True"
# templates for: array, axis, dtype, out, keepdims, initial, where
defvjp(np.add.reduce, _REDUCE, "np.where(where, unreduce(g, array, axis, keepdims), 0)",
       None, None, NONE, None, "np.sum(g)", None, name="np.add.reduce", complex_ok=True,
       jvp=("np.add.reduce(np.where(where, t_array, 0), axis, dtype, None, keepdims)", None,
            None, None, None, "t_initial * np.ones_like(ans)"))
defvjp(np.multiply.reduce, _REDUCE,
       "np.where(where, prod_vjp(g, np.where(where, array, 1), axis, keepdims)"
       " * initial_factor(initial), 0)",
       None, None, NONE, None, NONE, None, name="np.multiply.reduce", complex_ok=True,
       jvp=REDUCTION)
_ACCUMULATE = "array, axis=0, dtype=None, out=None"
defvjp(np.add.accumulate, _ACCUMULATE, "cumsum_vjp(g, array, axis)", None, None, NONE,
       name="np.add.accumulate", complex_ok=True, jvp=LINEAR)
for _extreme in (np.maximum, np.minimum):
    defvjp(_extreme.accumulate, _ACCUMULATE, "running_max_vjp(g, ans, array, axis)", None, None,
           NONE, name=f"np.{_extreme.__name__}.accumulate", complex_ok=True,
           jvp="running_max_jvp(t_array, ans, axis)")
defvjp(np.add.reduceat, "array, indices, axis=0, dtype=None, out=None",
       "reduceat_vjp(g, array, indices, axis)", None, None, None, NONE, name="np.add.reduceat",
       complex_ok=True, jvp=LINEAR)
defvjp(np.add.outer, "A, B", "outer_sum_vjp(g, A, B, 0)", "outer_sum_vjp(g, A, B, 1)",
       name="np.add.outer", complex_ok=True, jvp=JOINT)
defvjp(np.multiply.outer, "A, B", "np.tensordot(g, B, np.ndim(B))",
       "np.tensordot(A, g, np.ndim(A))", name="np.multiply.outer", complex_ok=True, jvp=LINEAR)
_EXTREME_REDUCE = "array, axis=0, dtype=None, out=None, keepdims=False, initial=None"
for _extreme in (np.maximum, np.minimum):
    defvjp(_extreme.reduce, _EXTREME_REDUCE, "extremum_vjp(g, ans, array, axis, keepdims)",
           name=f"np.{_extreme.__name__}.reduce",
           jvp=EXTREMUM_JVP.format("array", _extreme.__name__[:3]))
# np.fmax/np.fmin ignore NaN: as np.maximum/np.minimum, a NaN never the extremum (its
# cotangent and tangent share zero), the tangent's share from np.nanmax/np.nanmin
for _extreme, _kind in ((np.fmax, "nanmax"), (np.fmin, "nanmin")):
    defvjp(_extreme.reduce, _EXTREME_REDUCE, "extremum_vjp(g, ans, array, axis, keepdims)",
           name=f"np.{_extreme.__name__}.reduce", jvp=EXTREMUM_JVP.format("array", _kind))
    defvjp(_extreme.accumulate, _ACCUMULATE, "running_max_vjp(g, ans, array, axis)", None,
           None, NONE, name=f"np.{_extreme.__name__}.accumulate",
           jvp="running_max_jvp(t_array, ans, axis)")
defvjp(np.subtract.accumulate, _ACCUMULATE, "subtract_accumulate_vjp(g, array, axis)", None,
       None, NONE, name="np.subtract.accumulate", complex_ok=True, jvp=LINEAR)
# np.hypot.reduce: sqrt of the sum of squares, each element's weight x / ans (as np.hypot's)
defvjp(np.hypot.reduce, _EXTREME_REDUCE,
       "unreduce(g, array, axis, keepdims) * array / unreduce(ans, array, axis, keepdims)",
       name="np.hypot.reduce", jvp=REDUCTION)
defvjp(np.multiply.accumulate, _ACCUMULATE, "cumprod_vjp(g, ans, array, axis)", None, None,
       NONE, name="np.multiply.accumulate", jvp="cumprod_jvp(t_array, array, axis)")
defvjp(np.logaddexp.reduce, _EXTREME_REDUCE,
       "unreduce(g, array, axis, keepdims) * np.exp(array - unreduce(ans, array, axis, keepdims))",
       name="np.logaddexp.reduce",
       jvp=REDUCTION)
defvjp(np.logaddexp2.reduce, _EXTREME_REDUCE,
       "unreduce(g, array, axis, keepdims)"
       " * np.exp2(array - unreduce(ans, array, axis, keepdims))", name="np.logaddexp2.reduce",
       jvp=REDUCTION)
for _ufunc in (np.maximum, np.minimum, np.multiply):
    defvjp(_ufunc.reduceat, "array, indices, axis=0, dtype=None, out=None",
           f"segment_vjp(g, ans, array, indices, axis, {_ufunc.__name__!r})", None, None, None,
           NONE, name=f"np.{_ufunc.__name__}.reduceat",
           jvp=f"segment_jvp(t_array, ans, array, indices, axis, {_ufunc.__name__!r})")
# `np.add.at(a, indices, b)` and `np.subtract.at(...)` written as statements: the compiler
# writes them `a[...] = added_at(a, indices, b)` (transform/frontend/ufunc_at.py)
defvjp(added_at, "a, indices, b", "g", None, "at_gather(g, indices, b)", name="np.add.at",
       jvp=JOINT)
defvjp(subtracted_at, "a, indices, b", "g", None, "-at_gather(g, indices, b)",
       name="np.subtract.at", jvp=JOINT)
