"""Template helpers for NumPy's index tricks np.r_[...] and np.c_[...].

Each output entry of np.r_[a, b] is one entry of an item (or of a constant
range made from a slice), so the cotangents follow from one question: which
item entry went where. Running the same trick on entry numbers answers it,
whatever the directives ("r", "0,2,1"), shapes and transposes involved.
"""
import numpy as np

from ..registry import template_helper


def _is_item(v):
    """An array or number the trick places entry by entry (not a slice or a directive)."""
    return isinstance(v, (int, float, complex, np.number, np.ndarray, list)) and \
        not isinstance(v, (bool, np.bool_))


def _numbered(items, first):
    """`items` with each item's entries replaced by consecutive numbers from `first`."""
    out = []
    for v in items:
        if _is_item(v):
            ids = np.arange(first, first + np.size(v)).reshape(np.shape(v))
            out.append(ids if isinstance(v, (np.ndarray, list)) else int(ids))
            first += np.size(v)
        else:
            out.append(v)
    return tuple(out)


@template_helper
def index_trick_vjp(slopes_g, trick, items):
    """Cotangents of the items of `trick[items]` (np.r_, np.c_), None for slices and
    directives (one cotangent, not a tuple, for one item `np.r_[a]`). Numbering twice,
    offset by the total, tells item entries (which move by the offset) from constant
    ranges (which do not)."""
    if not isinstance(items, tuple):
        return index_trick_vjp(slopes_g, trick, (items,))[0]
    total = sum(np.size(v) for v in items if _is_item(v))
    once = np.asarray(trick[_numbered(items, 1)])
    twice = np.asarray(trick[_numbered(items, 1 + total)])
    placed = (twice - once) == total
    flat = np.zeros(total, dtype=np.result_type(np.asarray(slopes_g).dtype, 1.0))
    np.add.at(flat, (once[placed] - 1).astype(np.intp), np.asarray(slopes_g)[placed])
    cots, start = [], 0
    for v in items:
        if not _is_item(v):
            cots.append(None)
            continue
        part = flat[start:start + np.size(v)].reshape(np.shape(v))
        cots.append(part if isinstance(v, (np.ndarray, list)) else part[()])
        start += np.size(v)
    return tuple(cots)
