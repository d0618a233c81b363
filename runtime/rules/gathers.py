"""Functions that move, repeat or drop entries: np.delete, np.insert, np.compress,
np.extract, np.resize, np.diagflat, np.block, np.ediff1d, np.broadcast_arrays, np.choose,
np.bincount (in its weights) and np.unwrap; np.asarray_chkfinite and np.require return
their argument (checked, or copied to meet requirements): slope 1.

Each output entry is an entry of an argument (or a fill, or a difference of two, for
np.ediff1d), so each argument's cotangent gathers the cotangents of the output entries
that came from it (summed where np.resize repeats one). The rules find where the
entries went by applying the function itself to the entries' indices
(gathers_helpers.py). Indices, conditions, shapes and offsets are not differentiated.
np.bincount adds weights into bins, so a weight's cotangent is its bin's; np.unwrap adds
whole periods k * period to p (k a step), so p's cotangent is g and period's sum(g k).
"""
import numpy as np

from ..registry import JOINT, LINEAR, defvjp, rrule
from .gathers_helpers import broadcast_arrays_rule

defvjp(np.delete, "arr, obj, axis=None",
       "gather_vjp(g, arr, np.delete(entry_indices(arr), obj, axis))", None, None, jvp=LINEAR)
defvjp(np.insert, "arr, obj, values, axis=None",
       "gather_vjp(g, arr, insert_sources(arr, obj, values, axis, 0))", None,
       "gather_vjp(g, values, insert_sources(arr, obj, values, axis, 1))", None, jvp=JOINT)
defvjp(np.compress, "condition, a, axis=None, out=None", None,
       "gather_vjp(g, a, np.compress(condition, entry_indices(a), axis))", None, None, jvp=LINEAR)
defvjp(np.extract, "condition, arr", None,
       "gather_vjp(g, arr, np.extract(condition, entry_indices(arr)))", jvp=LINEAR)
defvjp(np.resize, "a, new_shape", "gather_vjp(g, a, np.resize(entry_indices(a), new_shape))",
       None, jvp=LINEAR)
# the zeros off the diagonal come from no entry: index -1
defvjp(np.diagflat, "v, k=0", "gather_vjp(g, v, np.diagflat(entry_indices(v, 1), k) - 1)", None,
       jvp=LINEAR)
defvjp(np.block, "arrays", "block_vjp(g, arrays)", jvp=LINEAR)
defvjp(np.ediff1d, "ary, to_end=None, to_begin=None", "ediff1d_vjp(g, ary, to_end, to_begin, 0)",
       "ediff1d_vjp(g, ary, to_end, to_begin, 1)", "ediff1d_vjp(g, ary, to_end, to_begin, 2)",
       jvp=JOINT)
# its inputs are varargs; shape.py declares parts_view (the outputs are views)
rrule(np.broadcast_arrays, jvp=JOINT)(broadcast_arrays_rule)
defvjp(np.choose, "a, choices, out=None, mode='raise'", None, "choose_vjp(g, a, choices, mode)",
       None, None, jvp=LINEAR)
defvjp(np.bincount, "x, /, weights=None, minlength=0", None,
       "bincount_weights_vjp(g, x, weights)", None, numeric=True, jvp=LINEAR)
defvjp(np.unwrap, "p, discont=None, axis=-1, *, period=6.283185307179586", "g", None, None,
       "np.sum(g * np.rint((ans - p) / period))", numeric=True,
       jvp=("t_p", None, None, "t_period * np.rint((ans - p) / period)"))
# the array itself (a view or a copy, cast to dtype): g in the input's float dtype
defvjp(np.asarray_chkfinite, "a, dtype=None, order=None", "identity_vjp(g, a)", None, None,
       jvp=LINEAR)
defvjp(np.require, "a, dtype=None, requirements=None, *, like=None", "identity_vjp(g, a)", None,
       None, jvp=LINEAR)
