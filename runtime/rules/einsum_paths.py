"""np.einsum with its contraction path cached per (subscripts, operand shapes, mode).

`np.einsum(..., optimize=True)` runs `np.einsum_path` on every call, which for small
operands costs more than the contraction itself. A path depends only on the
subscripts and the shapes, so it is computed once per combination and passed as
`optimize=path`, which NumPy then follows without searching.
"""
import functools

import numpy as np

_MODES = {True: "greedy", "greedy": "greedy", "optimal": "optimal"}


@functools.lru_cache(maxsize=512)
def _path(subscripts, shapes, mode):
    stand_ins = [np.broadcast_to(np.zeros((), dtype=np.float64), s) for s in shapes]
    return np.einsum_path(subscripts, *stand_ins, optimize=mode)[0]


def cached_einsum(subscripts, *operands, optimize=False, **kwargs):
    """np.einsum(subscripts, *operands, optimize=optimize, **kwargs), with the path
    of optimize=True/'greedy'/'optimal' found once per subscripts and shapes;
    optimize=False and an explicit path pass through."""
    mode = _MODES.get(optimize) if isinstance(optimize, (bool, str)) else None
    if mode is not None and isinstance(subscripts, str):
        optimize = _path(subscripts, tuple(np.shape(op) for op in operands), mode)
    return np.einsum(subscripts, *operands, optimize=optimize, **kwargs)
