"""Cotangents of containers and objects: tuples, lists, dicts, attributes, element writes.

A container's cotangent has the container's shape (a list for a list, a dict
for a dict, None for a zero entry); an object's cotangent is a dict from
attribute name to cotangent.
"""
import inspect
import types

import numpy as np

from .built_objects import answered_by_code, refuse_answered
from .accumulate import PLAIN_DATA, accum_eager, is_basic_index, own, refuse_own_subscript
from .helpers import index_vjp, unbroadcast
from .rules.complex_helpers import imag_vjp, real_vjp
from .rules.shape_helpers import cot_dtype
from .registry import rrule, template_helper
from .same_value import same_value
from .tape import ShapeOnly
from .thunks import unthunk


@template_helper
def part(slopes, key):
    """Entry `key` of a container cotangent (None if the cotangent or entry is zero)."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    if isinstance(slopes, dict):
        return slopes.get(key)
    return slopes[key]


@template_helper
def list_cotangent(slopes, like):
    """The cotangent of list `like` as a list: a NumPy function given a list of arrays
    (`np.sum(xs)`) returns one array, whose rows are the entries' cotangents."""
    slopes = unthunk(slopes)
    if type(slopes) is np.ndarray and type(like) in (list, tuple) and slopes.shape[:1] == (len(like),):
        return type(like)(list_cotangent(row, item) for row, item in zip(slopes, like))
    return slopes


@template_helper(shape_only=(1,), pure=True)
def getitem_vjp(slopes, x, index):
    """Cotangent of `x[index]` for arrays, lists, tuples and dicts."""
    refuse_own_subscript(x)
    if isinstance(x, dict):
        return {index: slopes}
    return index_vjp(slopes, x, index)     # arrays (or their tape stand-ins), lists, tuples


@template_helper(shape_only=(2,), in_place=True)
def accumulate_slice(buffer, g, x, index):
    """`accum_eager(buffer, getitem_vjp(g, x, index))` for a buffer the generated code
    owns (None or its own value; transform/reverse/slice_adds.py): where buffer and
    g are float arrays of x's dtype, buffer of x's shape, index basic (each position read
    once), `buffer[index] += g` in place, the same sum without full-size zeros; else that
    call. The general rule's slice reads, whose shapes are known only when it runs.
    A first read (buffer None) writes g into float zeros shaped like x, as getitem_vjp."""
    if type(g) is np.ndarray and (type(x) is np.ndarray or type(x) is ShapeOnly) and \
            g.dtype == x.dtype and g.dtype.kind == "f" and \
            (type(index) is slice or is_basic_index(index)):
        if buffer is None:
            buffer = np.zeros(x.shape, dtype=x.dtype)
            buffer[index] = g
            return buffer
        if type(buffer) is np.ndarray and buffer.dtype == g.dtype and \
                buffer.shape == x.shape:
            buffer[index] += g
            return buffer
    total = accum_eager(buffer, getitem_vjp(g, x, index))
    # a fresh array; anything else (a list of the entries' cotangents) copied, entries
    # too, so that the code may go on updating it in place (accumulate_into)
    return total if isinstance(total, np.ndarray) else own(total)


@template_helper
def setitem_vjp(dx, index, owned):
    """For `x[index] = v`: (the part of dx that flows to v, dx with zeros at index).

    dx is zeroed in place only when the generated code owns it; the part is a copy.
    """
    dx = unthunk(dx)
    if isinstance(dx, np.ndarray):
        piece = np.array(dx[index], copy=True)
        if not is_basic_index(index):
            piece = _last_writes_only(piece, dx.shape, index)
        if not owned:
            dx = np.array(dx, copy=True)
        dx[index] = 0
        return piece, dx
    if isinstance(dx, dict):
        dx = dict(dx) if not owned else dx
        return dx.pop(index, None), dx
    dx = list(dx) if not owned or isinstance(dx, tuple) else dx
    piece = dx[index]
    dx[index] = None
    return piece, dx


def _last_writes_only(piece, shape, index):
    """`x[[0, 0]] = v` keeps v[1] (NumPy: the last write to a position wins), so an
    earlier write to the same position gets no cotangent."""
    written = np.arange(int(np.prod(shape)), dtype=np.intp).reshape(shape)[index].ravel()
    if np.unique(written).size == written.size:        # no position written twice
        return piece
    _, from_end = np.unique(written[::-1], return_index=True)
    last = np.zeros(written.size, dtype=bool)
    last[written.size - 1 - from_end] = True
    return np.where(last.reshape(piece.shape), piece, 0)


def write_item(x, index, value):
    """`x[index] = value` on a fresh copy of x (the old x stays on the tape)."""
    x = x.copy()
    x[index] = value
    return x


@template_helper
def pop_last(cotangents, like):
    """Remove and return the last len(like) entries of an owned list cotangent, in order."""
    n = len(like)
    part = cotangents[len(cotangents) - n:]
    del cotangents[len(cotangents) - n:]
    return type(like)(part) if isinstance(like, tuple) else part


@template_helper
def pack_cotangent(seq, index, parts):
    """The cotangent of `seq[index]` from the cotangents of its unpacked parts."""
    return _pack(seq[index], parts)


def _pack(like, parts):
    parts = unthunk(parts)
    if parts is None:
        return None
    if isinstance(parts, tuple) and isinstance(like, (list, tuple)):
        return type(like)(_pack(x, p) for x, p in zip(like, parts))
    if isinstance(parts, tuple):                 # unpacked rows of an array
        out = np.zeros(np.shape(like), dtype=cot_dtype(0.0, like))
        for k, part in enumerate(parts):
            value = _pack(like[k], part)
            if value is not None:
                out[k] = value
        return out
    return parts


def unpacked_count(value, count):
    """Guard for `a, b = value` when the compiler could not see value's length (a rule's
    tuple, a parameter, an array): the targets are bound to value[0], value[1], so a
    length other than theirs raises Python's own ValueError first. A value without a
    length (a class with only __getitem__) is left to the indexing that follows."""
    try:
        size = len(value)
    except TypeError:
        return
    if size > count:
        raise ValueError(f"too many values to unpack (expected {count})")
    if size < count:
        raise ValueError(f"not enough values to unpack (expected {count}, got {size})")


def not_shared_array(value, where, written="c"):
    """Guard for `c += v` where `c` may share its array with another name (`written`: the
    target as the user wrote it, `s.v` for an object's attribute).

    NumPy would write into the shared array (a list or dict is extended in place too),
    which the tape cannot undo; a number is fine (it is rebound either way).
    """
    if isinstance(value, (np.ndarray, list, dict)):      # `xs += [v]` extends xs in place
        held = "that another name also refers to" if written == "c" else "held by an object"
        raise TypeError(f"{where}: augmented assignment on an array (or list) {held}: it "
                        "would be updated in place, which thunkgrad cannot differentiate; "
                        f"write `{written} = {written} + ...` or copy the array first")


@template_helper
def is_ndarray(x):
    """Whether `a.fill(v)` in user code is NumPy's in-place fill (else the object's own)."""
    return isinstance(x, np.ndarray)


@template_helper
def repeat_sequence(xs, n):
    """`xs * n` (or `n * xs`) for a list or tuple: its copies, one after another; a NumPy
    array `n` multiplies entry by entry instead (NumPy converts the list), and the rule
    (product_or_repeat_vjp) tells the two apart when it runs."""
    return xs * n


@template_helper
def product_or_repeat(x, y):
    """`x * y` where the compiler cannot tell whether one side is a list or tuple."""
    return x * y


@template_helper
def product_or_repeat_vjp(slopes, x, y):
    """Cotangent of x in `x * y`: the copies' sum if x is a sequence (y counts them),
    nothing if y is the sequence (x counts), else the product rule (also for a list
    times an array, which NumPy multiplies entry by entry)."""
    if isinstance(x, (list, tuple)) and not isinstance(y, np.ndarray):
        return sum_repeats(slopes, x)
    if isinstance(y, (list, tuple)) and not isinstance(x, np.ndarray):
        return None
    return unbroadcast(unthunk(slopes) * y, x)


@template_helper
def sum_repeats(g, xs):
    """Cotangent of `xs * n`: the copies' cotangents summed entry by entry (None is zero)."""
    g = unthunk(g)
    if g is None:
        return None
    size = len(xs)
    out = [None] * size
    for k, part in enumerate(g):
        part = unthunk(part)
        if part is not None:
            i = k % size
            out[i] = part if out[i] is None else out[i] + part
    return type(xs)(out) if isinstance(xs, tuple) else out


SHAPE_FACTS = frozenset(("shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides"))
"""Array attributes with no derivative (transform/ir/primitives.py NONDIFF_ATTRIBUTES)."""


@template_helper
def getattr_vjp(slopes, obj, name, answer=None):
    """Cotangent of `obj.name`: an array's (a number's) by the attribute's math (.real,
    .imag, .T, .mT); another object's {name: g}, none for its class's own constant."""
    if isinstance(obj, tuple) and name in getattr(obj, "_fields", ()):
        out = [None] * len(obj)           # a namedtuple: by position, as `p[0]` gives
        out[obj._fields.index(name)] = slopes
        return tuple(out)
    if not isinstance(obj, (np.ndarray, np.generic, float, int, complex)):
        static = inspect.getattr_static(type(obj), name, None)
        if inspect.isfunction(static) and name not in getattr(obj, "__dict__", {}):
            return slopes                  # a bound method: its cotangent is its receiver's
        if hasattr(type(static), "__get__") and not isinstance(static, _STORED):
            return computed_attribute_vjp(slopes, obj, name, static, answer)
        shared = static is not None and name not in getattr(obj, "__dict__", ())
        if static is None:
            refuse_answered(obj, name)
        return None if shared and not isinstance(static, _STORED) else {name: slopes}
    if name in SHAPE_FACTS:                   # an array's .shape, .size, ...: integers
        return None
    if name == "real":                        # docs/complex.md
        return real_vjp(slopes, obj)
    if name == "imag":                        # a real value's .imag is the constant 0
        return imag_vjp(slopes, obj) if np.iscomplexobj(obj) else None
    if name == "T":
        return np.transpose(slopes)
    if name == "mT":
        return np.swapaxes(slopes, -1, -2)
    raise TypeError(f"no derivative for the array attribute .{name}")   # refused at compile time


_OWN_ITERATION = ("a loop over (or `[...]` on) an object runs its class's own __iter__ or "
                  "__getitem__, which thunkgrad does not differentiate: loop over (or index) "
                  "the list or array the object holds instead (`for v in obj.items`)")


@template_helper
def record_field(slopes, name, position, fields):
    """Cotangent of field `name` of a dataclass or NamedTuple built in the code: the
    entry of the record's cotangent by name (a dict from `p.w`, a record like the
    argument's gradient) or by position (a NamedTuple read as `p[0]`; position None for
    other classes, whose entries by position came from their own code)."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    if isinstance(slopes, dict):
        unknown = set(slopes) - set(fields)
        if unknown:           # an attribute that is not a field: refused at compile time
            raise answered_by_code(min(unknown), fields)
        return unthunk(slopes.get(name))
    if isinstance(slopes, (tuple, list)) and not hasattr(slopes, name):
        if position is None:            # not a NamedTuple: its class's __iter__/__getitem__
            raise TypeError(_OWN_ITERATION)
        return unthunk(slopes[position])
    if isinstance(slopes, np.ndarray) and position is not None and slopes.ndim and \
            len(slopes) == len(fields):           # a NumPy function of a NamedTuple: its rows
        return slopes[position]
    if isinstance(slopes, (np.ndarray, np.generic, float, int, complex)):
        raise TypeError("an object's cotangent is a number or an array: arithmetic or a "
                        "NumPy function (`np.sum(obj)`) was applied to the object itself, "
                        "which NumPy reads through its class's own __array__, __iter__ or "
                        "__getitem__ (or an operator on an object of a class its module "
                        "does not name). Instead: apply it to the arrays the object holds "
                        "(`np.sum(obj.w)`), import the class into the module doing the "
                        "arithmetic, or call its method")
    return unthunk(getattr(slopes, name, None))


# class attributes read through __get__ that are stored values, not computed ones:
# `__slots__` members, methods (bound: see getattr_vjp), static and class methods
_STORED = (types.MemberDescriptorType, types.GetSetDescriptorType, types.FunctionType,
           staticmethod, classmethod)
ARRAY_LIKE = PLAIN_DATA


_BUILTIN_TYPES = frozenset({np.ndarray, int, float, complex, bool, list, tuple, dict})


@template_helper
def is_user_object(value, name):
    """Whether `value.name()` (a method named like an ndarray method) is the value's own
    method rather than the ndarray rule's: the compiler could not tell from the source.
    A subclass of tuple or ndarray (a NamedTuple) counts when it defines `name` itself."""
    cls = type(value)
    if cls in _BUILTIN_TYPES or isinstance(value, np.generic):
        return False
    return not isinstance(value, ARRAY_LIKE) or \
        inspect.isfunction(inspect.getattr_static(cls, name, None))


# [the compiler's vjp of a function of one argument], set by the compiler when it is
# imported (runtime never imports transform): property_vjp(fget, obj, g) -> obj's cotangent
PROPERTY_VJP = []


def computed_attribute_vjp(g, obj, name, descriptor, ans=None):
    """Cotangent of `obj.name` when the class computes it (`@property`,
    functools.cached_property): the getter's own derivative, compiled, not a field
    `name` of obj (there is none: a dict {name: g} would be a wrong gradient). The
    getter runs again here; a value other than the one the forward sweep read (random
    draws, state changed since, a cached value set by hand) is refused."""
    getter = getattr(descriptor, "fget", None) or getattr(descriptor, "func", None)
    if not inspect.isfunction(getter) or not PROPERTY_VJP:
        raise TypeError(f"no derivative through .{name} of a {type(obj).__name__}: the "
                        "class computes it with code that has no Python source to "
                        "compile; read the attributes it is computed from instead")
    value, cotangent = PROPERTY_VJP[0](getter, obj, unthunk(g))
    if ans is not None and not same_value(value, ans):
        raise TypeError(f"no derivative through .{name} of a {type(obj).__name__}: its "
                        "getter gives another value when run again (random draws, or "
                        "state that changed); compute it in the function instead")
    return cotangent


@template_helper
def replace_fields(record, names, *values):
    """`p._replace(a=v, b=w)` as `replace_fields(p, ("a", "b"), v, w)`: the new values
    by position, so each gets its field's cotangent."""
    return record._replace(**dict(zip(names, values)))


def replace_fields_jvp(tangents, record, names, *values):
    """The tangent of replace_fields: the record's tangent (a record of the fields'
    tangents) with the new values' tangents in their fields (zeros where none)."""
    from .forward import zero_tangent
    t_record, t_values = tangents[0], tangents[2:]
    base = zero_tangent(record) if t_record is None else t_record
    return replace_fields(base, names, *[zero_tangent(v) if t is None else t
                                         for v, t in zip(values, t_values)])


@rrule(replace_fields, complex_ok=True, jvp=replace_fields_jvp)     # structural: linear
def _replace_fields_rule(record, names, *values):
    if not isinstance(record, tuple) or not hasattr(record, "_fields"):
        raise TypeError(f"no derivative through {type(record).__name__}._replace(): "
                        "only a NamedTuple's (or namedtuple's) is known")
    fields = record._fields

    def pullback(g):
        if unthunk(g) is None:
            return (None,) * (2 + len(values))
        kept = tuple(None if f in names else record_field(g, f, k, fields)
                     for k, f in enumerate(fields))
        return (kept, None) + tuple(record_field(g, n, fields.index(n), fields)
                                    for n in names)
    return replace_fields(record, names, *values), pullback
