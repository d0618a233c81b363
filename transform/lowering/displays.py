"""Stage 3, normalize: list and tuple displays with `*xs` of any length.

    [*xs, y, *zs]  ->  list(xs) + [y] + list(zs)       (*xs, y)  ->  tuple(xs) + (y,)

Python builds the display by concatenation; `list(...)`, `tuple(...)` and `+` of lists
have rules, so the cotangent of each part is its slice of the display's.
"""
import gast

from ..ir.nodes import builtin_ref


def has_star(display):
    return isinstance(display.ctx, gast.Load) and \
        any(isinstance(x, gast.Starred) for x in display.elts)


def spread_display(display, kind):
    """`[*xs, y, *zs]` of any lengths: the concatenation Python builds.

        [*xs, y]  ->  list(xs) + [y]          (*xs, y)  ->  tuple(xs) + (y,)
    """
    parts, run = [], []
    make = gast.List if kind == "list" else gast.Tuple
    for elt in display.elts:
        if isinstance(elt, gast.Starred):
            if run:
                parts.append(make(elts=run, ctx=gast.Load()))
                run = []
            parts.append(gast.Call(func=builtin_ref(kind), args=[elt.value], keywords=[]))
        else:
            run.append(elt)
    if run:
        parts.append(make(elts=run, ctx=gast.Load()))
    whole = parts[0]
    for part in parts[1:]:
        whole = gast.BinOp(left=whole, op=gast.Add(), right=part)
    return whole


def spread_dict(display):
    """`{**p, "b": v, **q}`: the merge Python builds, as dict unions (their rule gives
    each entry's cotangent to the dict it came from).

        {**p, "b": v}  ->  {} | p | {"b": v}
    """
    whole, run = gast.Dict(keys=[], values=[]), None
    for key, value in zip(display.keys, display.values):
        if key is None:
            whole, run = gast.BinOp(left=whole, op=gast.BitOr(), right=value), None
            continue
        if run is None:
            run = gast.Dict(keys=[], values=[])
            whole = gast.BinOp(left=whole, op=gast.BitOr(), right=run)
        run.keys.append(key)
        run.values.append(value)
    return gast.copy_location(whole, display)
