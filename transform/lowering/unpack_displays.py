"""Stage 3, normalize: a tuple display unpacked into names is not built.

A tuple's entries are opaque to the analyses (`h = t4[0]` has no shape, its cotangent
may be None), so an LSTM `cell` helper returning `(h, c)`, inlined, left every
cotangent upstream guarded and its weights' products unbatched (issue 19, S3c).
"""
import gast

from ..ir.nodes import const, load
from ..ir.primitives import Prim
from .syntax_facts import indexable_value


def unpack_into(norm, target, value):
    """`a, b = value`: each target bound to a display's atom (unpacked_display), else
    to `whole[k]` of the value's atom after a check of its length (unpacked_count)."""
    start = len(norm.out)
    whole = norm.atom(indexable_value(value))
    parts = unpacked_display(norm, whole, target, start)
    if parts is not None:
        for elt, part in zip(target.elts, parts):
            norm.expr(part, elt.id)
        return
    check = norm.names.call("unpacked_count", whole, const(len(target.elts)))
    norm.emit(gast.Expr(value=check), Prim("nondiff", "check"))   # Python's ValueError
    for k, elt in enumerate(target.elts):
        norm.assign_to(elt, gast.Subscript(value=whole, slice=const(k), ctx=gast.Load()))


def unpacked_display(norm, whole, target, start):
    """The atoms of `whole` when this assignment's own lowering (statements from
    `start`) ended by packing them into it as a tuple display (directly, or into a
    name then copied: an inlined helper's `return (h2, c2)`), each target a distinct
    plain name: `h, c = cell(...)`, `a, b = x, y`. The targets take the atoms
    directly (the same objects `whole[k]` would give), an atom that is itself a
    target through a copy made first (`a, b = b, a`); the tuple, which nothing else
    names, is not built. Else None.

        t5 = (t3, c_new)            h = t3
        t4 = t5              ->     c = c_new
        h = t4[0]
        c = t4[1]
    """
    made = norm.out[start:]
    copied = len(made) >= 2 and _copy_of(made[-1], whole)
    pack = made[-2] if copied else made[-1] if made else None
    prim = getattr(pack, "prim", None)
    packed = copied or whole       # a temporary the compiler made here, read nowhere else
    if prim is None or prim.kind != "pack" or prim.label != "tuple" or \
            not _assigns(pack, packed) or packed.id not in norm.names.made or \
            len(prim.args) != len(target.elts) or \
            not all(isinstance(t, gast.Name) for t in target.elts):
        return None
    stored = {t.id for t in target.elts}
    if len(stored) != len(target.elts):
        return None                             # `a, a = x, y`: Python's order
    del norm.out[len(norm.out) - (2 if copied else 1):]
    # `a, b = b, a`: an atom that is a target holds its old value in a copy first
    return [load(norm.expr(a, None)) if isinstance(a, gast.Name) and a.id in stored
            else a for a in prim.args]


def _assigns(statement, name):
    """Whether `statement` is `name = ...` (name a Name node)."""
    return isinstance(statement, gast.Assign) and isinstance(name, gast.Name) and \
        [t.id for t in statement.targets if isinstance(t, gast.Name)] == [name.id] and \
        len(statement.targets) == 1


def _copy_of(statement, name):
    """The Name `statement` copies into `name` (`name = src`, a copy), else None."""
    prim = getattr(statement, "prim", None)
    if prim is None or prim.kind != "copy" or not _assigns(statement, name) or \
            not isinstance(statement.value, gast.Name):
        return None
    return statement.value
