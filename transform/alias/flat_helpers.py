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
from runtime.registry import TEMPLATE_NAMESPACE
from runtime.tape import iterable, unviewed
from runtime.traits import HELPER

from .tables import SHAPE_SNAPSHOTS, _is_in
from .value import Value

# the result may be these arguments themselves or a view of one (unreduce's
# broadcast_to), or be new, holding (HOLDS) the arguments themselves (getitem_vjp's
# `{index: g}`, unbroadcast's rows of g) or their entries (accum_eager's sum of two
# lists) or nothing: never another argument (x of unbroadcast(g, x): its shape only)
SHARING = {accum_eager: (0, 1), unbroadcast: (0,), unreduce: (0,), getitem_vjp: (0,),
           product_or_repeat_vjp: (0,), part: (0,), own: (0,)}
HOLDS = {unbroadcast: "objs", getitem_vjp: "objs", accum_eager: "entries",
         product_or_repeat_vjp: "entries", own: "entries"}


def flat_helper_result(exprs, e, fn, args, kwargs):
    """The Value of a call of one of the helpers above, else None."""
    if kwargs:
        return None
    if fn is cotangent_zeros and len(args) == 1:       # np.zeros of x's shape, or 0.0
        return exprs.fresh(e, array=True)              # (as tables.ARRAY_MAKERS)
    if fn is item_split and len(args) == 2:
        return _split(exprs, e, args[0])
    if fn is own and len(args) == 1 and args[0].array:   # an array's copy
        return exprs.fresh(e, array=True)
    if fn is reused_cotangent and len(args) == 2:      # g itself (an array) or an array
        made = exprs.fresh(e, array=True)
        return Value(made.objs | args[0].objs, True, True)
    if fn is unviewed and len(args) == 1:             # x itself, or a view's copy
        made, x = exprs.fresh(e, array=args[0].array), args[0]
        return Value(made.objs | x.objs, x.array, x.in_place, seq=x.seq)
    if fn is iterable and len(args) == 1:
        return _iterated(exprs, e, args[0])
    if fn is accumulated_at and len(args) == 4:
        return _accumulated(exprs, e, args[0], args[3])
    positions = SHARING.get(fn) if _is_in(fn, SHARING) else None
    if positions is None or len(args) <= max(positions):
        return None
    return _sharing(exprs, e, fn, [args[k] for k in positions])


def _sharing(exprs, e, fn, given):
    """One of given or its entries, or a new object holding what HOLDS says; an object
    both of two arguments reach may be held twice (accum_eager's sum of `{'p': y}`
    and `{'q': y}` holds y at both keys)."""
    state = exprs.state
    _twice(state, given)
    objs = frozenset().union(*(v.objs for v in given))
    entries = state.contents(objs)
    kind = HOLDS.get(fn)
    held = objs | entries if kind == "objs" else entries if kind == "entries" else ()
    made = exprs.fresh(e, holds=held)
    return Value(made.objs | objs | entries)


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


def _iterated(exprs, e, seq):
    """iterable(x), what a loop walks: x itself (an array, a tuple, a range) or a new
    list of x's items (a list's copy, a dict's keys). x a display's list, tuple or dict
    (Value.seq): a new list holding its entries, or the tuple itself, whose own memory
    no write changes; else x or anything x holds, as an unknown call's result."""
    state = exprs.state
    entries = state.contents(seq.objs)
    if seq.seq:
        made = exprs.fresh(e, holds=entries, in_place=True)
        return Value(made.objs, seq=True)
    made = exprs.fresh(e, holds=seq.objs | entries)
    return Value(made.objs | seq.objs | entries)   # (a subclass's items: a list)


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
    pair = exprs.fresh(e, holds=piece.objs | rest.objs, part="pair")   # the tuple itself
    return Value(pair.objs, elements=[piece, rest], seq=True)


def shape_reads(src, call, helpers=False):
    """The positions of the arguments `call` reads only for their shape: shape_snapshot's
    (the flat gradient's tape entry); helpers: also a template helper's declared
    `shape_only` ones (`unbroadcast(g, x)`'s x: its kind, shape and dtype), which no
    store into an array's elements changes (writes.AliasCheck.live_here)."""
    fn = src.resolve(call.func)
    if _is_in(fn, SHAPE_SNAPSHOTS) and len(call.args) == 1:
        return (0,)
    name = getattr(fn, "__name__", None)
    if helpers and isinstance(name, str) and TEMPLATE_NAMESPACE.get(name) is fn:
        return tuple(HELPER["shape_only"].get(name, ()))
    return ()


__all__ = ["flat_helper_result", "shape_reads"]
