"""Gathers and permutations: the cotangent is `g` scattered back to where each
output element was read from, adding up where one element was read twice.
Sort and partition are not differentiable at ties; tied values get one
consistent assignment (a valid subgradient). Subscripting, x[index], is
operator.getitem in operators.py (index_vjp handles repeated indices, masks,
np.newaxis and Ellipsis)."""
import numpy as np

from ..registry import defvjp

defvjp(np.take, "a, indices, axis=None, out=None, mode='raise'",
       "take_vjp(g, a, indices, axis, mode)", None)
defvjp(np.take_along_axis, "arr, indices, axis=-1",
       "take_along_axis_vjp(g, arr, indices, axis)", None)
defvjp(np.sort, "a, axis=-1, kind=None, order=None, *, stable=None",
       "permutation_vjp(g, ans, a, axis)")
defvjp(np.partition, "a, kth, axis=-1, kind='introselect', order=None",
       "permutation_vjp(g, ans, a, axis)", None)
