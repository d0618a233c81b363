"""Template helpers for Python's builtins that reorder or regroup a sequence where it is
read: `reversed(xs)` given to list/sum/sorted/... (the compiler writes
`reversed_items(xs)`), `dict(pairs)`."""
import numpy as np

from ..registry import template_helper
from .operators_helpers import _number_array, _numbers
from ..thunks import unthunk

_SLICED = (list, tuple, np.ndarray, range)


@template_helper
def reversed_items(xs):
    """The items of `reversed(xs)` as a sequence that can be read again: `xs[::-1]` for a
    list, tuple, array or range, else a list of them."""
    if isinstance(xs, _SLICED):
        return xs[::-1]
    return list(reversed(xs))


@template_helper
def reversed_items_vjp(slopes, xs):
    """Cotangent of `reversed_items(xs)`: g read backwards (a list, tuple or array, as it
    came). Other sequences (a dict gives its keys, which carry none) get none; one whose
    items do receive a cotangent is refused rather than silently given zero."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    if isinstance(xs, _SLICED):
        return slopes[::-1]
    if isinstance(xs, dict) or all(unthunk(part) is None for part in slopes):
        return None
    raise TypeError(f"reversed() of a {type(xs).__name__} whose items are being "
                    "differentiated has no derivative rule: write list(xs)[::-1]")


@template_helper
def dict_pairs_vjp(slopes, pairs):
    """Cotangent of `dict(pairs)` for pairs: each value's cotangent back to the pair it
    came from (the last pair of a key wins, as in the dict); of `dict(mapping)`, the
    mapping's own. An iterator is read once, so it is refused (no pairs to give back)."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    if isinstance(pairs, dict):
        return {k: unthunk(v) for k, v in slopes.items() if k in pairs} or None
    if iter(pairs) is pairs:
        raise TypeError("dict() of an iterator whose values are being differentiated: "
                        "write dict(list(pairs))")
    items = list(pairs)
    last = {k: i for i, (k, _) in enumerate(items)}
    out = [None] * len(items)
    for k, i in last.items():
        part = unthunk(slopes.get(k))
        if part is not None:
            out[i] = [None, part] if isinstance(items[i], list) else (None, part)
    return tuple(out) if isinstance(pairs, tuple) else out


def shuffle_order(rng, xs):
    """The order `rng.shuffle(xs)` would put xs in, drawn by shuffling `range(len(xs))`
    (the same draws: numpy's and Python's shuffles draw by length alone)."""
    order = list(range(len(xs)))
    rng.shuffle(order)
    return order


@template_helper
def in_order(xs, order):
    """`[xs[i] for i in order]`: a list shuffled by `shuffle_order`."""
    return [xs[i] for i in order]


@template_helper
def in_order_vjp(slopes, xs, order):
    """Cotangent of `in_order(xs, order)`: entry k of g back to position order[k]; a
    list of numbers' as one array, as `list(...)`'s rule gives it."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    out = [None] * len(xs)
    for k, i in enumerate(order):
        out[i] = unthunk(slopes[k])
    return _number_array(out) if _numbers(xs) else out
