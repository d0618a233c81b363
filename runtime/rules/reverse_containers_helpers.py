"""Cotangent templates (transposes) of reverse mode's container cotangent helpers,
which forward over reverse differentiates (runtime/rules/reverse_containers.py). Each
helper is linear in its cotangent `g`; its transpose maps a cotangent of its output
back to one of g, the positions and shapes read from the primal values."""
import inspect

import numpy as np

from ..complex_safety import RuleRefused
from ..containers import _STORED, SHAPE_FACTS, getattr_vjp
from ..forward import zero_tangent
from ..jvp import add_tangents
from ..registry import template_helper
from ..thunks import unthunk
from .linalg_helpers import dot_vjp
from .shape_helpers import _nested_ndim
from .operators_helpers import _numbers, _origins_by_identity, _origins_by_value, _same, \
    _scaled, union_vjp


def _entries(g):
    """A cotangent of a sequence as a list of its entries (an array's rows), or None."""
    g = unthunk(g)
    return None if g is None else [unthunk(part) for part in g]


@template_helper
def sequence_vjp_vjp(g, iterable):
    """Transpose of sequence_vjp: the entries (rows) of the sequence's cotangent."""
    return _entries(g)


@template_helper
def sum_entries_vjp_vjp(g, slopes, iterable):
    """Transpose of sum_entries_vjp: the entries' cotangents, each broadcast back to
    the sum's shape (`slopes`: the cotangent sum_entries_vjp was given), added."""
    total = None
    for part in _entries(g) or ():
        if part is not None:
            total = part if total is None else total + part
    if total is None:
        return None
    return np.broadcast_to(total, np.shape(slopes)).copy()


@template_helper
def extreme_vjp_vjp(g, ans, values):
    """Transpose of extreme_vjp: the tied entries' cotangents, averaged."""
    parts = _entries(g)
    if parts is None:
        return None
    items = list(values)
    hits = [k for k, v in enumerate(items) if _same(v, ans)]
    total = None
    for k in hits:
        total = add_tangents(total, parts[k])
    return _scaled(total, 1.0 / len(hits))


@template_helper
def sorted_vjp_vjp(g, values, ans):
    """Transpose of sorted_vjp: the entries' cotangents in sorted's order."""
    parts = _entries(g)
    if parts is None:
        return None
    items = list(values)
    origin = _origins_by_identity(items, ans) or _origins_by_value(items, ans)
    return [parts[i] for i in origin]


@template_helper
def in_order_vjp_vjp(g, xs, order):
    """Transpose of in_order_vjp: the entries' cotangents in the shuffled order."""
    parts = _entries(g)
    return None if parts is None else [parts[i] for i in order]


@template_helper
def list_cotangent_vjp(g, slopes, like):
    """Transpose of list_cotangent: a list made of an array's rows stacked back (zeros
    for an entry without a cotangent); anything else as it is."""
    g, slopes = unthunk(g), unthunk(slopes)
    if g is None or not (type(slopes) is np.ndarray and type(like) in (list, tuple) and
                         slopes.shape[:1] == (len(like),)):
        return g
    rows = [list_cotangent_vjp(part, row, item) for part, row, item in zip(g, slopes, like)]
    return np.stack([np.zeros_like(row, dtype=np.result_type(row, 0.0)) if part is None else part
                     for part, row in zip(rows, slopes)])


@template_helper
def stack_vjp_vjp(g, slopes, arrays, axis):
    """Transpose of stack_vjp: the parts' cotangents reshaped to g's slices, stacked."""
    parts = _entries(g)
    if parts is None:
        return None
    moved = np.moveaxis(np.asarray(slopes), axis, 0)
    pieces = [np.zeros(moved.shape[1:], np.result_type(moved, 0.0)) if p is None else np.reshape(p, moved.shape[1:])
              for p in parts]
    return np.moveaxis(np.stack(pieces), 0, axis)


@template_helper
def getattr_vjp_vjp(g, obj, name):
    """Transpose of getattr_vjp: the attribute's part of the object's cotangent (a
    field's, a transpose's); a computed attribute is refused (getattr_vjp_obj)."""
    g = unthunk(g)
    getattr_vjp_obj(None, obj, name)
    if g is None:
        return None
    if isinstance(obj, tuple) and name in getattr(obj, "_fields", ()):
        return g[obj._fields.index(name)]
    if not isinstance(obj, (np.ndarray, np.generic, float, int, complex)):
        return g.get(name) if isinstance(g, dict) else g
    if name in SHAPE_FACTS:
        return None
    if name == "real":                      # of a real value (a complex one: refused)
        return np.real(g)
    if name == "T":
        return np.transpose(g)
    if name == "mT":
        return np.swapaxes(g, -1, -2)
    raise RuleRefused(f"forward over reverse through the attribute .{name} is not supported "
                      "Instead: use hvp's route=\"reverse_over_forward\"")


@template_helper
def getattr_vjp_obj(g, obj, name):
    """The object's own term in getattr_vjp: none (the cotangent getattr_vjp gives depends
    on the object's kind, fields and shape only), except for a computed attribute (a
    @property: its getter's derivative depends on the object), which is refused."""
    if not isinstance(obj, (np.ndarray, np.generic, float, int, complex, tuple)):
        static = inspect.getattr_static(type(obj), name, None)
        if not inspect.isfunction(static) and hasattr(type(static), "__get__") and \
                not isinstance(static, _STORED):
            raise RuleRefused(f"forward over reverse through the computed attribute "
                              f".{name} is not supported Instead: "
                              "use hvp's route=\"reverse_over_forward\"")
    if name in ("real", "imag") and np.iscomplexobj(obj):
        raise RuleRefused("forward over reverse through .real or .imag of a complex value "
                          "is not supported Instead: use hvp's route=\"reverse_over_forward\"")
    return None


@template_helper
def unstack_vjp_vjp(g, slopes, obj):
    """Transpose of unstack_vjp (np.array(obj)'s cotangent): the entries' cotangents
    stacked back into g's array (`slopes`: the cotangent unstack_vjp was given), zeros
    where an entry has none; a dict's, or an array's of obj's shape, as it is."""
    g, slopes = unthunk(g), unthunk(slopes)
    if g is None or isinstance(obj, dict) or isinstance(slopes, dict):
        return g
    if np.iscomplexobj(slopes) or np.iscomplexobj(g):
        raise RuleRefused("forward over reverse through np.array's cotangent of a complex "
                          "value is not supported Instead: "
                          "use hvp's route=\"reverse_over_forward\"")
    if type(slopes) is np.ndarray and type(obj) is np.ndarray and slopes.shape == obj.shape:
        return g
    if isinstance(slopes, (list, tuple)) and isinstance(obj, (list, tuple)):
        return [unstack_vjp_vjp(part, s, item) for part, s, item in zip(g, slopes, obj)]
    out = np.zeros(np.shape(slopes), dtype=np.result_type(slopes, 0.0))
    view = out
    while np.ndim(view) > _nested_ndim(obj):        # ndmin's leading axes: entry 0
        view = view[0]
    if not isinstance(obj, (list, tuple)):
        view[...] = np.reshape(g, np.shape(view))
        return out
    for k, item in enumerate(obj):
        part = unthunk(g[k])
        if part is not None:
            view[k] = unstack_vjp_vjp(part, view[k], item)
    return out


@template_helper
def concatenate_vjp_vjp(g, slopes, arrays, axis):
    """Transpose of concatenate_vjp: the pieces' cotangents joined back (zeros for a
    piece without one; flattened first for axis None)."""
    parts = _entries(g)
    if parts is None:
        return None
    pieces = [np.zeros(np.shape(a), np.result_type(slopes, 0.0)) if p is None else p
              for p, a in zip(parts, arrays)]
    if axis is None:
        return np.reshape(np.concatenate([np.ravel(p) for p in pieces]), np.shape(slopes))
    return np.concatenate(pieces, axis)


@template_helper
def getattr_vjp_obj_jvp(t_obj, slopes, obj, name, answer):
    """The object's term in getattr_vjp's tangent: zeros of its output; for a @property
    with a Python getter, the gradient of <slopes, the getter's tangent along t_obj>
    (reverse mode over the getter's forward code: PROPERTY_HVP, which transform sets);
    another computed attribute is refused (getattr_vjp_obj)."""
    getter = _property_getter(obj, name)
    if getter is not None and PROPERTY_HVP and unthunk(slopes) is not None and \
            t_obj is not None:
        return PROPERTY_HVP[0](getter, obj, t_obj, unthunk(slopes))
    getattr_vjp_obj(t_obj, obj, name)
    return zero_tangent(getattr_vjp(slopes, obj, name, answer))


PROPERTY_HVP = []       # [fn(getter, obj, t_obj, g)]: transform/forward_reverse.py's


def _property_getter(obj, name):
    if isinstance(obj, (np.ndarray, np.generic, float, int, complex, tuple)):
        return None
    static = inspect.getattr_static(type(obj), name, None)
    getter = getattr(static, "fget", None) if isinstance(static, property) else None
    return getter if inspect.isfunction(getter) else None


@template_helper
def dot_vjp_factor(slopes, a, b, operand, moved):
    """The term of np.dot's cotangent helper dot_vjp(slopes, a, b, operand) along a
    tangent of factor `moved` (given in its place): linear in the other operand's
    factor; zeros along the operand's own (only its shape is read)."""
    if moved != operand:
        return dot_vjp(slopes, a, b, operand)
    kind = np.result_type(*(np.asarray(v) for v in (slopes, a, b)), 0.0)   # tuples too
    return np.zeros(np.shape(a if operand == 0 else b), kind)


@template_helper
def getattr_vjp_slopes_jvp(t_slopes, obj, name, answer):
    """The cotangent's term in getattr_vjp's tangent: getattr_vjp of its tangent."""
    return getattr_vjp(t_slopes, obj, name, answer)


@template_helper
def record_field_vjp(g, slopes, name, position, fields):
    """Transpose of record_field: the field's cotangent as the record's, in the kind
    record_field read (a dict by name, a tuple or an array's rows by position); a
    record object's is refused."""
    g, slopes = unthunk(g), unthunk(slopes)
    if g is None:
        return None
    if isinstance(slopes, dict):
        return {name: g}
    if isinstance(slopes, (tuple, list)) and not hasattr(slopes, name):
        return type(slopes)(g if k == position else None for k in range(len(slopes)))
    if isinstance(slopes, np.ndarray):
        out = np.zeros(slopes.shape, np.result_type(slopes, 0.0))
        out[position] = g
        return out
    raise RuleRefused("forward over reverse through a record's field of a cotangent "
                      "record is not supported Instead: use hvp's route=\"reverse_over_forward\"")


@template_helper
def union_vjp_vjp(g, x, y, which):
    """Transpose of union_vjp (a dict's cotangent restricted to the keys one side gave
    the merge): the restriction itself."""
    return union_vjp(g, x, y, which)


@template_helper
def dict_pairs_vjp_vjp(g, pairs):
    """Transpose of dict_pairs_vjp: each pair's value cotangent back to its key (the
    last pair of a key is the one dict() kept)."""
    g = unthunk(g)
    if g is None:
        return None
    if isinstance(pairs, dict):
        return {k: unthunk(v) for k, v in g.items() if k in pairs} or None
    items = list(pairs)
    last = {k: i for i, (k, _) in enumerate(items)}
    out = {}
    for k, i in last.items():
        part = unthunk(g[i])
        if part is not None and unthunk(part[1]) is not None:
            out[k] = unthunk(part[1])
    return out or None


@template_helper
def transposed_vjp_vjp(g, slopes, rows):
    """Transpose of transposed_vjp (`zip(*rows)`'s cotangent): the rows' cotangents
    read back into columns (`slopes`: the columns' cotangent transposed_vjp was given;
    a dict row's entries, its keys, carry none)."""
    rows_g = _entries(g)
    if rows_g is None:
        return None
    out = []
    for j, col in enumerate(slopes):
        if col is None:
            out.append(None)
            continue
        entries = [None if part is None or isinstance(part, dict) else unthunk(part[j])
                   for part in rows_g[:len(col)]]
        out.append(tuple(entries) if isinstance(col, tuple) else entries)
    return out


@template_helper
def pack_cotangent_vjp(g, seq, index, parts):
    """Transpose of pack_cotangent: seq[index]'s cotangent unpacked into its parts'
    structure (`parts`: the cotangent pack_cotangent was given)."""
    return _unpacked(unthunk(g), seq[index], unthunk(parts))


def _unpacked(g, like, parts):
    if g is None or parts is None:
        return None
    if isinstance(parts, tuple):
        return tuple(_unpacked(unthunk(g[k]), like[k], unthunk(p)) for k, p in enumerate(parts))
    return g
