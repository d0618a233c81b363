"""Stage 1b, desugar: a starred assignment target as a list and indexing into it.

    first, *mid, last = xs      ->  unpacked = list(xs)         (xs iterated once)
                                    if len(unpacked) < 2:
                                        raise ValueError("not enough values to unpack ...")
                                    first = unpacked[0]
                                    mid = unpacked[1:len(unpacked) - 1]
                                    last = unpacked[len(unpacked) - 1]

As in Python the starred name gets a list (of an array's rows or entries, too), and too
few values raise ValueError; `list`, indexing and slicing carry the derivative. A
starred name inside a nested target (`(a, *b), c = ...`) is unpacked the same way
from a name bound to that part.
"""
import gast

from ..ir.nodes import assign, builtin_ref, const, load, located


def has_starred_target(s):
    """Whether `s` is `targets = value` with one target holding a starred name."""
    return isinstance(s, gast.Assign) and len(s.targets) == 1 and _starred(s.targets[0])


def _starred(target):
    return isinstance(target, (gast.Tuple, gast.List)) and any(
        isinstance(e, gast.Starred) or _starred(e) for e in target.elts)


def unstarred(s, new_name):
    """The statements standing for `s` (has_starred_target(s))."""
    return [located(stmt, s) for stmt in _unpack(s.targets[0], s.value, new_name)]


def _unpack(target, value, new_name):
    if not _starred(target):
        return [gast.Assign(targets=[target], value=value, type_comment=None)]
    if not any(isinstance(e, gast.Starred) for e in target.elts):   # only nested ones
        parts = [_part(e, new_name) for e in target.elts]
        out = [gast.Assign(targets=[gast.Tuple(elts=[p[0] for p in parts],
                                               ctx=gast.Store())],
                           value=value, type_comment=None)]
        return out + [stmt for _, stmts in parts for stmt in stmts]
    listed = new_name("unpacked")
    star = next(k for k, e in enumerate(target.elts) if isinstance(e, gast.Starred))
    after = len(target.elts) - star - 1
    out = [assign(listed, _call("list", value)), _length_check(listed, star + after)]
    for k, elt in enumerate(target.elts):
        if k == star:
            out += _unpack(elt.value, _slice(listed, star, after), new_name)
        else:
            index = const(k) if k < star else _minus(_length(listed), after - (k - star) + 1)
            out += _unpack(elt, _item(listed, index), new_name)
    return out


def _part(elt, new_name):
    """(the target standing for elt in a plain unpacking, statements unpacking it)."""
    if not _starred(elt):
        return elt, []
    name = new_name("part")
    return gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None), \
        _unpack(elt, load(name), new_name)


def _length_check(listed, least):
    message = gast.BinOp(
        left=const(f"not enough values to unpack (expected at least {least}, got %d)"),
        op=gast.Mod(), right=_length(listed))
    error = gast.Call(func=builtin_ref("ValueError"), args=[message], keywords=[])
    test = gast.Compare(left=_length(listed), ops=[gast.Lt()], comparators=[const(least)])
    return gast.If(test=test, body=[gast.Raise(exc=error, cause=None)], orelse=[])


def _slice(listed, start, after):
    upper = _minus(_length(listed), after)
    return gast.Subscript(value=load(listed), ctx=gast.Load(),
                          slice=gast.Slice(lower=const(start), upper=upper, step=None))


def _item(listed, index):
    return gast.Subscript(value=load(listed), slice=index, ctx=gast.Load())


def _minus(value, k):
    return gast.BinOp(left=value, op=gast.Sub(), right=const(k)) if k else value


def _length(listed):
    return _call("len", load(listed))


def _call(name, arg):
    return gast.Call(func=builtin_ref(name), args=[arg], keywords=[])
