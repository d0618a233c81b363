"""numba overloads of the runtime helpers the plain lowering calls, and the jit of a plain
function, for `grad(f, lowering="numba")` (transform/public/numba_gradient.py; docs/ir.md,
"Second lowering"). Importing this module imports numba and registers the overloads: only
the numba lowering imports it, so numba stays optional.

Each overload covers the argument types whose result it can show equal to the helper's
own, and gives no implementation for any other (numba then fails to type the function,
and the caller runs the plain lowering in Python instead). Where the types alone do not
say the shapes agree (`unbroadcast` of two arrays), a run-time check raises `Uncompiled`,
which the caller answers the same way: a mismatch never becomes a wrong sum.
"""
import math
import types as types_mod

import numba
import numpy as np
from numba import types
from numba.core.errors import NumbaError, UnsupportedBytecodeError
from numba.extending import overload

from . import accumulate as A
from . import complex_safety as CS
from . import containers as C
from . import helpers as H
from . import tape as T
from . import thunks as TH
from .numba_integers import SMALL_INT, integer_growth

try:     # numba imports these when it first compiles `@` or np.dot; imported now, SciPy's
    import scipy.linalg.cython_blas  # noqa: F401  rules register before a rule is compiled,
    import scipy.linalg.cython_lapack  # noqa: F401  not after (which rebuilds the rule)
except ImportError:                     # SciPy is optional: numba then uses its own
    pass

COMPILE_ERRORS = (NumbaError, UnsupportedBytecodeError)  # (the latter is no NumbaError)

__all__ = ["COMPILE_ERRORS", "Jitted", "NumbaError", "Uncompiled", "njit_plain", "reason"]


class Uncompiled(Exception):
    """Raised by jitted code where the compiled helper does not cover the values it met:
    the caller runs the plain lowering in Python for this call."""


def _absent(t):
    return t is None or isinstance(t, (types.NoneType, types.Omitted))


def _real(t):
    """A float or integer scalar (bool is an Integer to numba only as types.Boolean)."""
    return isinstance(t, (types.Float, types.Integer))


def _float64_array(t):
    return isinstance(t, types.Array) and t.dtype == types.float64


@overload(T.shape_only)
def _shape_only(x):                     # the tape keeps x itself: its shape is read only
    return lambda x: x


@overload(H.unreduce)
def _unreduce(g, x, axis=None, keepdims=False):
    if not (_absent(axis) and isinstance(g, types.Float)):
        return None
    if _float64_array(x):
        return lambda g, x, axis=None, keepdims=False: np.full(x.shape, g)
    if _real(x):
        return lambda g, x, axis=None, keepdims=False: g
    return None


@overload(H.unbroadcast)
def _unbroadcast(g, x, side=None):      # side: a list's or tuple's only, never an array's
    if not (_absent(side) or isinstance(side, types.Integer)):
        return None
    if _real(x) and _float64_array(g):
        return lambda g, x, side=None: g.sum()
    if _real(x) and isinstance(g, types.Float):
        return lambda g, x, side=None: g
    if isinstance(x, types.Array) and _float64_array(g):
        return _same_shape
    if isinstance(x, types.Array) and isinstance(g, types.Optional) and _float64_array(g.type):
        return _same_shape_or_none
    return None


def _same_shape(g, x, side=None):
    if g.shape != x.shape:
        raise Uncompiled()
    return g


def _same_shape_or_none(g, x, side=None):
    if g is None:
        return None
    if g.shape != x.shape:
        raise Uncompiled()
    return g


@overload(C.product_or_repeat_vjp)
def _product(g, x, y):
    if _real(x) and isinstance(y, types.Array) and _float64_array(g):
        return lambda g, x, y: (g * y).sum()
    if isinstance(x, types.Array) and isinstance(y, types.Array) and _float64_array(g):
        def same(g, x, y):
            if g.shape != x.shape or y.shape != x.shape:
                raise Uncompiled()
            return g * y
        return same
    if _real(x) and _real(y) and isinstance(g, types.Float):
        return lambda g, x, y: g * y
    return None


def _adding(acc, v):
    if _absent(v):
        return None
    if _absent(acc):
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
    t = t.type if isinstance(t, types.Optional) else t
    return t.ndim if _float64_array(t) else None


@overload(H.matmul_lhs)
def _matmul_lhs(g, a, b):
    if (_ndim(a), _ndim(b), _ndim(g)) == (2, 1, 1):
        return lambda g, a, b: np.outer(g, b)
    if (_ndim(a), _ndim(b), _ndim(g)) == (2, 2, 2):
        return lambda g, a, b: g @ b.T
    return None


@overload(H.matmul_rhs)
def _matmul_rhs(g, a, b):
    if _ndim(a) == 2 and _ndim(b) == _ndim(g) and _ndim(g) in (1, 2):
        return lambda g, a, b: a.T @ g
    return None


@overload(A.cotangent_zeros)
def _zeros(x):
    if _float64_array(x):
        return lambda x: np.zeros(x.shape)
    if isinstance(x, types.Float) and x.bitwidth == 64:
        return lambda x: 0.0
    return None


@overload(A.accumulate_at)
def _accumulate_at(buffer, like, index, value):
    if not (_float64_array(like) and isinstance(index, types.Integer)):
        return None                     # an integer row only: no repeated fancy index

    def at(buffer, like, index, value):
        out = np.zeros(like.shape) if buffer is None else buffer
        out[index] += value
        return out
    return at


@overload(CS.refuse_complex)
def _refuse_complex(name, *values):     # complex: the plain lowering raises its refusal
    if any(isinstance(getattr(v, "dtype", v), types.Complex) for v in values):
        def refuse(name, *values):
            raise Uncompiled()
        return refuse
    return lambda name, *values: None


@overload(TH.unthunk)
def _unthunk(value):                    # the plain lowering's values are never thunks
    return lambda value: value


class Jitted:
    """numba.njit of a plain function (`njit_plain`) with what numba froze into it: the
    values of the globals it reads and of its closure cells, its split callees' too.
    numba compiles those as constants, where Python reads them at each call: `current()`
    says whether they are still the same objects, an array still with the same entries."""

    def __init__(self, fn):
        self.fn, self.dispatchers = fn, []
        self.function = njit_plain(fn, self.dispatchers)
        self.frozen = [(v, _entries(v)) for v in _read(fn)]
        self.seen, self.growth = 0, None
        self.refused, self.warned = set(), set()    # argument kinds numba failed on; said
        self.compiled = set()                       # argument kinds numba compiled
        self.types = {}     # argument kinds: the plain lowering's result types

    def current(self):
        now = _read(self.fn)
        return len(now) == len(self.frozen) and all(
            v is was and _same_entries(v, entries) for v, (was, entries) in zip(now, self.frozen))

    def unfit(self):
        """Why numba would compute with a frozen value differently from Python, or None:
        a Python int beyond SMALL_INT (numba's arithmetic on it is 64-bit, Python's
        unbounded; three such factors stay below 2 ** 63), or the math module (whose
        domain errors numba does not raise)."""
        big = [v for v, _ in self.frozen if type(v) is int and abs(v) >= SMALL_INT]
        if big:
            return f"it reads the integer {big[0]} (numba computes in 64 bits)"
        if any(v is math or getattr(v, "__module__", None) == "math" for v, _ in self.frozen):
            return ("it calls the math module (math.log(-1.0) raises in Python, numba "
                    "returns nan)")
        return None

    def integer_growth(self):
        """An integer operation in what numba compiled that could outgrow 64 bits (numba's
        ints wrap where Python's grow: runtime/numba_integers.py), as a phrase, or None;
        scanned once per new compilation (the jitted function is the last dispatcher)."""
        count = sum(len(d.overloads) for d in self.dispatchers)
        if count != self.seen:
            self.seen, self.growth = count, next(filter(None, (
                integer_growth(c.type_annotation, d is self.dispatchers[-1])
                for d in self.dispatchers for c in list(d.overloads.values()))), None)
        return self.growth


def _entries(value):
    """A copy of what in `value` can change in place and numba freezes: an array's
    entries, a tuple's arrays' entries; None for anything else."""
    if type(value) is np.ndarray:
        return value.copy()
    if type(value) is tuple and any(_entries(v) is not None for v in value):
        return tuple(_entries(v) for v in value)
    return None


def _same_entries(value, entries):
    if entries is None:
        return True
    if type(value) is np.ndarray:
        return np.array_equal(value, entries, equal_nan=True)
    return all(_same_entries(v, e) for v, e in zip(value, entries))


def _read(fn):
    """The values fn's code reads from its globals and its closure cells (recursively
    through split callees' functions), in a fixed order."""
    names = _global_names(fn.__code__)
    found = [fn.__globals__.get(n, _Missing) for n in names]
    for cell in fn.__closure__ or ():
        value = _contents(cell)
        found.append(value)
        if _split_half(value):
            found.extend(_read(value))
    return found


class _Missing:
    """A name not bound (a builtin, or not yet)."""


def _global_names(code):
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types_mod.CodeType):
            names.extend(_global_names(const))
    return names


def njit_plain(fn, dispatchers=None):
    """numba.njit of a plain function whose split callees (closure cells holding
    `<g>_forward` / `<g>_backward`, generated plain functions) are jitted first, so one
    jitted function calls another (docs/ir.md, "Second lowering", "Calls"); every
    dispatcher made is appended to `dispatchers`."""
    dispatchers = [] if dispatchers is None else dispatchers
    cells = fn.__closure__ or ()
    if any(_split_half(_contents(c)) for c in cells):
        cells = tuple(types_mod.CellType(njit_plain(c.cell_contents, dispatchers))
                      if _split_half(_contents(c)) else c for c in cells)
        fn = types_mod.FunctionType(fn.__code__, fn.__globals__, fn.__name__,
                                    fn.__defaults__, cells)
    dispatchers.append(numba.njit(fn))
    return dispatchers[-1]


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:                  # an empty cell
        return _Missing


def _split_half(value):
    code = getattr(value, "__code__", None)
    return code is not None and code.co_filename.startswith("<thunkgrad ") and \
        code.co_name.endswith(("_forward", "_backward"))


def reason(exc):
    """numba's reason in two lines at most: its message's first line saying what failed,
    and the generated line it failed at (without numba's frames and markers)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    said = [line for line in lines if not line.startswith(
        ("Failed in", "During:", "File \"", "^", "Enable logging", "- Resolution"))]
    first = f"{type(exc).__name__}: {said[0][:200]}" if said else type(exc).__name__
    return first + (f"\n  at: {said[1][:160]}" if len(said) > 1 else "")
