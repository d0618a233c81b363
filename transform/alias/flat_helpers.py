"""What the flat gradient's cotangent helpers return (hvp forward over reverse): the
memory their results may share, read from the helpers' code (runtime/), so the alias
check over reverse mode's code sees the buffers that code made itself:

    dx = cotangent_zeros(x)                  # new zeros: never x
    dun_part1, dun = item_split(dun, -1)     # two copies: an array's own, a list's or
    dun[-2] += dt11                          # dict's new container holding its entries

An unknown call may return any argument or part of one and store it twice (`multi`),
so `dun[-2] += dt11` after it was refused; each model here is that call's result
exactly or a superset of what it may share, and stores nothing twice.
"""
from runtime.accumulate import accum_eager, cotangent_zeros, own, reused_cotangent
from runtime.containers import getitem_vjp, part, product_or_repeat_vjp
from runtime.flat import accumulated_at, item_split
from runtime.helpers import unbroadcast, unreduce

from .tables import _is_in
from .value import Value

# the result may be these arguments themselves, hold them or their entries (a view of
# one: unreduce's broadcast_to, unbroadcast's rows of a list's cotangent), or be new:
# never another argument (x of unbroadcast(g, x) is read for its shape only)
SHARING = {accum_eager: (0, 1), unbroadcast: (0,), unreduce: (0,), getitem_vjp: (0,),
           product_or_repeat_vjp: (0,), part: (0,), own: (0,)}


def flat_helper_result(exprs, e, fn, args, kwargs):
    """The Value of a call of one of the helpers above, else None."""
    if kwargs:
        return None
    if fn is cotangent_zeros and len(args) == 1:       # np.zeros of x's shape, or 0.0
        return exprs.fresh(e, array=args[0].array, in_place=args[0].array)
    if fn is item_split and len(args) == 2:
        return _split(exprs, e, args[0])
    if fn is own and len(args) == 1 and args[0].array:   # an array's copy
        return exprs.fresh(e, array=True)
    if fn is reused_cotangent and len(args) == 2:      # g itself (an array) or an array
        made = exprs.fresh(e, array=True)
        return Value(made.objs | args[0].objs, True, True)
    if fn is accumulated_at and len(args) == 4:
        return _accumulated(exprs, e, args[0], args[3])
    positions = SHARING.get(fn) if _is_in(fn, SHARING) else None
    if positions is None or len(args) <= max(positions):
        return None
    return _sharing(exprs, e, [args[k] for k in positions])


def _sharing(exprs, e, given):
    """A new object holding given's objects and entries, or one of those itself; one
    both of two arguments reach may be held twice (accum_eager's sum of `{'p': y}` and
    `{'q': y}` holds y at both keys)."""
    state = exprs.state
    _twice(state, given)
    objs = frozenset().union(*(v.objs for v in given))
    held = objs | state.contents(objs)
    made = exprs.fresh(e, holds=held)
    return Value(made.objs | held)


def _accumulated(exprs, e, buffer, value):
    """accumulated_at(buffer, like, index, value): `own(buffer)` (an array's copy, a
    list's or dict's new container holding its entries, any other object itself) or a
    new buffer shaped like `like`, with value added at index (an array's sum, stored as
    an entry of a list or dict): never like, index or value itself."""
    state = exprs.state
    _twice(state, [buffer, value])
    entries = state.contents(buffer.objs)
    held = entries | value.objs | state.contents(value.objs)
    made = exprs.fresh(e, holds=held, array=buffer.array, in_place=buffer.array)
    if buffer.array:
        return made
    return Value(made.objs | buffer.objs | entries)


def _twice(state, given):
    """Objects two of the given Values reach: the new container may hold them twice."""
    if len(given) == 2:
        state.multi |= state.reach(given[0].objs) & state.reach(given[1].objs)


def _split(exprs, e, dx):
    """item_split(dx, index): (dx's entry at index or an array's copy of it, a copy of
    dx: an array's own, a list's or dict's new container holding dx's entries)."""
    entries = exprs.state.contents(dx.objs)
    piece = exprs.fresh(e, array=dx.array, in_place=dx.array)
    piece = Value(piece.objs | entries, dx.array, dx.array)
    rest = exprs.fresh(e, holds=entries, array=dx.array, in_place=True, part="rest")
    return Value(piece.objs | rest.objs, elements=[piece, rest], seq=True)


__all__ = ["flat_helper_result"]
