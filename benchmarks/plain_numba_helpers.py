"""numba overloads of the runtime helpers the plain lowering calls, for the numba
experiment of benchmarks/plain_lowering.py (issue 20): with them, `numba.njit` of a plain
lowering types every helper call; what stops it next is printed there (docs/ir.md,
"Second lowering"). Importing this module registers them; numba is optional.

Each is the helper for the argument types numba sees, with a run-time check where the
type alone does not say the shapes agree (`unbroadcast` of two arrays): a mismatch
raises, never a wrong sum.
"""
import numpy as np
from numba import types
from numba.extending import overload

import runtime.helpers as H
import runtime.tape as T
import runtime.accumulate as A
import runtime.containers as C
import runtime.thunks as TH
import runtime.complex_safety as CS
import types as types_mod


def _none(t):
    return isinstance(t, (types.NoneType, types.Omitted)) or t is None


@overload(T.shape_only)
def _shape_only(x):
    return lambda x: x


@overload(H.unreduce)
def _unreduce(g, x, axis=None, keepdims=False):
    if isinstance(x, types.Array):
        return lambda g, x, axis=None, keepdims=False: np.full(x.shape, g)
    return lambda g, x, axis=None, keepdims=False: g


@overload(H.unbroadcast)
def _unbroadcast(g, x, side=None):
    if isinstance(x, (types.Float, types.Integer)) and isinstance(g, types.Array):
        return lambda g, x, side=None: g.sum()
    if isinstance(x, types.Array) and isinstance(g, types.Array):
        def same(g, x, side=None):
            if g.shape != x.shape:
                raise ValueError("unbroadcast: shapes differ (not specialised)")
            return g
        return same
    return lambda g, x, side=None: g


@overload(C.product_or_repeat_vjp)
def _product(g, x, y):
    if isinstance(x, (types.Float, types.Integer)) and isinstance(y, types.Array):
        return lambda g, x, y: (g * y).sum()
    if isinstance(x, types.Array) and isinstance(y, types.Array):
        def same(g, x, y):
            if g.shape != x.shape or y.shape != x.shape:
                raise ValueError("product: shapes differ (not specialised)")
            return g * y
        return same
    return lambda g, x, y: g * y


def _adding(acc, v):
    if _none(acc):
        return lambda acc, v: v
    if isinstance(acc, types.Optional):
        def maybe(acc, v):
            if acc is None:
                return v
            return acc + v
        return maybe
    return lambda acc, v: acc + v


overload(A.accum_eager)(_adding)
overload(A.accum)(_adding)
overload(A.accumulate_into)(_adding)


def _ndim(t):
    return getattr(t.type if isinstance(t, types.Optional) else t, "ndim", 0)


@overload(H.matmul_lhs)
def _matmul_lhs(g, a, b):
    if _ndim(a) == 2 and _ndim(b) == 1:
        return lambda g, a, b: np.outer(g, b)
    return lambda g, a, b: g @ b.T


@overload(H.matmul_rhs)
def _matmul_rhs(g, a, b):
    return lambda g, a, b: a.T @ g


@overload(A.cotangent_zeros)
def _zeros(x):
    if isinstance(x, types.Array):
        return lambda x: np.zeros(x.shape)
    return lambda x: 0.0


@overload(A.accumulate_at)
def _accumulate_at(buffer, like, index, value):
    def at(buffer, like, index, value):
        out = np.zeros(like.shape) if buffer is None else buffer
        out[index] += value
        return out
    return at


@overload(CS.refuse_complex)
def _refuse_complex(name, *values):     # the dtypes are known here: complex -> raises
    if any(isinstance(getattr(v, "dtype", v), types.Complex) for v in values):
        def refuse(name, *values):
            raise ValueError("a split callee specialised to real arguments got a complex one")
        return refuse
    return lambda name, *values: None


@overload(TH.unthunk)
def _unthunk(value):                    # the plain lowering's values are never thunks
    return lambda value: value


def njit_plain(fn, numba):
    """numba.njit of a plain function whose split callees (closure cells holding
    `<g>_forward` / `<g>_backward`, generated plain functions) are jitted first, so one
    jitted function calls another (docs/ir.md, "Second lowering", "Calls")."""
    cells = fn.__closure__ or ()
    if any(_split_half(c.cell_contents) for c in cells):
        cells = tuple(types_mod.CellType(njit_plain(c.cell_contents, numba))
                      if _split_half(c.cell_contents) else c for c in cells)
        fn = types_mod.FunctionType(fn.__code__, fn.__globals__, fn.__name__,
                                    fn.__defaults__, cells)
    return numba.njit(fn)


def _split_half(value):
    code = getattr(value, "__code__", None)
    return code is not None and code.co_filename.startswith("<thunkgrad ") and \
        code.co_name.endswith(("_forward", "_backward"))
