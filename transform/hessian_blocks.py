"""hessian of a container argument (tuples, lists, dicts, NamedTuples of floats and
float arrays): nested blocks, as JAX returns them.

    H = hessian(f)((a, b))      H[i][j] = d2 f / d p_i d p_j, shape p[i].shape + p[j].shape

The outer structure is the argument's (entry i), each of its leaves the argument's
structure again (entry j). One hvp per entry of each leaf j, along that entry's one-hot
direction (zeros in the other leaves): its leaf i is column e of block H[i][j].
"""
import numpy as np

from runtime.forward import zero_tangent

from .jacobians import _at, _columns, _float_leaves, _kept, _placed, _rebuilt
from .nested_jacobians import one_hots


def container_hessian(arg, direction_hvp):
    """The blocks for container `arg`; direction_hvp(direction) is hvp along direction
    (shaped like arg)."""
    zeros = zero_tangent(arg)
    columns = {}                               # leaf j's path -> hvps along its entries
    for path, leaf in _float_leaves(arg):
        columns[path] = [direction_hvp(_placed(zeros, path, hot, _kept))
                         for hot in one_hots(leaf)]

    def block(path_i, leaf_i):
        return _rebuilt(arg, lambda path_j, leaf_j: _columns(
            [_at(hv, path_i) for hv in columns[path_j]], np.shape(leaf_i), leaf_j))
    return _rebuilt(arg, block)
