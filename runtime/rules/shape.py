"""Shape changes, joins and splits: cotangents move back without arithmetic.

A function taking a sequence of arrays (concatenate, stack, ...) gets a list
(or tuple, like its argument) of cotangents, one per element. A function
returning a list (split) receives one with None for parts that got no cotangent.
Limits: atleast_1d/2d/3d take one array; ravel's order 'K'/'A' is taken as C;
np.pad supports the modes that copy elements (constant, edge, reflect and
symmetric with the even reflect_type, wrap).
"""
import numpy as np

from ..forward import broadcast_to_output
from ..registry import JOINT, LINEAR, declare, defvjp

_BACK = "np.reshape(g, np.shape(a))"  # undo any reshape of the same elements in C order

# view=True: the result may share memory with the argument (the alias analysis reads it)
defvjp(np.reshape, "a, shape=None, order='C', *, copy=None",
       "np.reshape(g, np.shape(a), order=order)", view=True, complex_ok=True, jvp=LINEAR)
# order='K'/'A' ravel in memory order; the rule assumes C order (exact for C-contiguous a)
defvjp(np.ravel, "a, order='C'", "np.reshape(g, np.shape(a), order='F' if order == 'F' else 'C')",
       view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.transpose, "a, axes=None", "transpose_vjp(g, axes)", view=True,
       complex_ok=True, jvp=LINEAR)  # = np.permute_dims
defvjp(np.swapaxes, "a, axis1, axis2", "np.swapaxes(g, axis1, axis2)", view=True, complex_ok=True,
       jvp=LINEAR)
defvjp(np.moveaxis, "a, source, destination", "np.moveaxis(g, destination, source)", view=True,
       complex_ok=True, jvp=LINEAR)
# forward-mode code's broadcast of a tangent (runtime/forward.py), for reverse mode over
# `<name>_jvp` (transform.hvp): `ans` gives only the shape
defvjp(broadcast_to_output, "value, ans", "unbroadcast(g, value)", None, view=True,
       jvp=LINEAR)
# a loop's sequence in generated code (`seq1 = iterable(xs)`): its rule is in tangents.py
defvjp(np.expand_dims, "a, axis", _BACK, view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.squeeze, "a, axis=None", _BACK, view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.broadcast_to, "array, shape, subok=False", "unbroadcast(g, array)", view=True,
       complex_ok=True, jvp=LINEAR)
# atleast_* take varargs; the rules cover the one-array form
for _atleast in (np.atleast_1d, np.atleast_2d, np.atleast_3d):
    defvjp(_atleast, "a", _BACK, view=True, complex_ok=True, jvp=LINEAR)


def flatten(a, order="C"):
    """`a.flatten(order)` as a function (always a copy), for the method's rule."""
    return np.asarray(a).flatten(order)


defvjp(flatten, "a, order='C'", "np.reshape(g, np.shape(a), order='F' if order == 'F' else 'C')",
       complex_ok=True, jvp=LINEAR)

# Joins: the cotangent of each input is its slice of g
_JOIN = "arrays, axis=0, out=None, *, dtype=None, casting='same_kind'"
defvjp(np.concatenate, _JOIN, "concatenate_vjp(g, arrays, axis)", fresh=True,
       complex_ok=True, jvp=LINEAR)  # = np.concat
defvjp(np.stack, _JOIN, "stack_vjp(g, arrays, axis)", fresh=True, complex_ok=True, jvp=LINEAR)
defvjp(np.hstack, "tup, *, dtype=None, casting='same_kind'", "hstack_vjp(g, tup)", complex_ok=True,
       jvp=LINEAR)
defvjp(np.vstack, "tup, *, dtype=None, casting='same_kind'", "vstack_vjp(g, tup)", complex_ok=True,
       jvp=LINEAR)
defvjp(np.dstack, "tup", "dstack_vjp(g, tup)", complex_ok=True, jvp=LINEAR)
defvjp(np.column_stack, "tup", "column_stack_vjp(g, tup)", complex_ok=True, jvp=LINEAR)
defvjp(np.append, "arr, values, axis=None", "concatenate_vjp(g, (arr, values), axis)[0]",
       "concatenate_vjp(g, (arr, values), axis)[1]", complex_ok=True,
       jvp=JOINT)

# Splits: the cotangent is the join of the parts' cotangents (the parts may be views)
_SPLIT = "ary, indices_or_sections, axis=0"
defvjp(np.split, _SPLIT, "join_vjp(g, ans, axis)", None, parts_view=True, complex_ok=True,
       jvp=LINEAR)
defvjp(np.array_split, _SPLIT, "join_vjp(g, ans, axis)", None, parts_view=True, jvp=LINEAR)
defvjp(np.hsplit, "ary, indices_or_sections", "join_vjp(g, ans, 1 if np.ndim(ary) > 1 else 0)",
       None, parts_view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.vsplit, "ary, indices_or_sections", "join_vjp(g, ans, 0)", None, parts_view=True,
       complex_ok=True, jvp=LINEAR)
defvjp(np.dsplit, "ary, indices_or_sections", "join_vjp(g, ans, 2)", None, parts_view=True,
       complex_ok=True, jvp=LINEAR)
if hasattr(np, "unstack"):                                                # NumPy 2.1+
    defvjp(np.unstack, "x, /, *, axis=0", "join_vjp(g, ans, axis, np.stack)", parts_view=True,
           complex_ok=True, jvp=LINEAR)

# Copies and rearrangements
defvjp(np.tile, "A, reps", "tile_vjp(g, A, reps)", None, complex_ok=True, jvp=LINEAR)
defvjp(np.repeat, "a, repeats, axis=None", "repeat_vjp(g, a, repeats, axis)", None, complex_ok=True,
       jvp=LINEAR)
defvjp(np.flip, "m, axis=None", "np.flip(g, axis)", view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.fliplr, "m", "np.fliplr(g)", view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.flipud, "m", "np.flipud(g)", view=True, complex_ok=True, jvp=LINEAR)
defvjp(np.roll, "a, shift, axis=None", "np.roll(g, np.negative(shift), axis)", None,
       complex_ok=True, jvp=LINEAR)
defvjp(np.rot90, "m, k=1, axes=(0, 1)", "np.rot90(g, -k, axes)", view=True, complex_ok=True,
       jvp=LINEAR)
defvjp(np.pad, "array, pad_width, mode='constant', **kwargs",
       "pad_vjp(g, array, pad_width, mode, kwargs)", None,
       jvp="pad_tangent(t_array, pad_width, mode, kwargs)")
defvjp(np.diff, "a, n=1, axis=-1, prepend=None, append=None",
       "diff_vjp(g, a, n, axis, prepend, append)", complex_ok=True,
       jvp="diff_jvp(t_a, n, axis, prepend, append)")

# windows of x (conv1d by windows and einsum): a read-only view, linear in x
defvjp(np.lib.stride_tricks.sliding_window_view,
       "x, window_shape, axis=None, *, subok=False, writeable=False",
       "windows_vjp(g, x, window_shape, axis)", view=True, complex_ok=True, jvp=LINEAR)

# Functions without a rule that may return a view of their argument (when unsure, a view;
# np.real and np.imag have rules, complex_parts.py, which declare it)
declare(*[getattr(np, n) for n in ("asarray_chkfinite", "require", "rollaxis", "asmatrix")
          if hasattr(np, n)], np.lib.stride_tricks.as_strided, view=True)
declare(np.broadcast_arrays, parts_view=True)
