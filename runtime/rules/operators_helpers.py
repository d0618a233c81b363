"""Template helpers for Python's builtins over sequences: max/min, sorted, divmod."""
import numpy as np

from ..helpers import unbroadcast
from ..jvp import add_tangents
from ..spread import entries_array
from ..registry import template_helper
from ..thunks import unthunk


@template_helper
def sum_entries_vjp(slopes, iterable):
    """Cotangent of the builtin `sum(iterable)`'s entries: g summed down to each one. An
    array's entries are its rows, so its cotangent is one array of its shape: a list
    would meet the array's other rules with Python's list arithmetic (`g * 2` repeats
    a list), a crash or, when the shapes still broadcast, a wrong gradient."""
    if not isinstance(iterable, np.ndarray):
        return [unbroadcast(slopes, e) for e in iterable]
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    if not len(iterable):
        return np.zeros(iterable.shape, dtype=np.result_type(iterable.dtype, float))
    row = unbroadcast(slopes, iterable[0])             # every row's: the same g
    out = np.empty(iterable.shape, dtype=np.result_type(row, iterable.dtype, 1.0))
    out[...] = row
    return out


@template_helper
def extreme_vjp(slopes, answer, values):
    """Cotangent of `max(values)` / `min(values)`: g shared equally by the entries equal
    to the answer (ties split, as np.max's rule splits them). Numbers' cotangents come as
    one array (as a NumPy function of a list gives them), others' as a list."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    if isinstance(values, np.ndarray):
        hits = values == answer
        return slopes * hits / np.count_nonzero(hits)
    items = list(values)
    hits = [_same(v, answer) for v in items]
    share = _scaled(slopes, 1.0 / sum(hits))
    if _numbers(items):
        dtype = np.result_type(np.asarray(share), float)     # complex entries stay complex
        return np.array([share if hit else 0.0 for hit in hits], dtype=dtype)
    out = [share if hit else None for hit in hits]
    return tuple(out) if isinstance(values, tuple) else out


@template_helper
def extreme_jvp(answer, values, tangents):
    """Tangent of `max(values)` / `min(values)` (2026-12-02, session 32 (fwd)): the
    tangents of the entries equal to the answer, averaged, as extreme_vjp splits the
    cotangent among ties; entries that are tuples or lists (a key picked one) entry by
    entry."""
    picked = [t for v, t in zip(list(values), list(tangents)) if _same(v, answer)]
    total = picked[0]
    for t in picked[1:]:
        total = add_tangents(total, t)
    return _scaled(total, 1.0 / len(picked))


def _same(v, ans):
    """Whether entry v is the answer (entries may be tuples of mixed types)."""
    if v is ans:
        return True
    try:
        return bool(np.all(v == ans))
    except (TypeError, ValueError):
        return False


def _scaled(g, factor):
    """g times factor, through tuples and lists (None stays None)."""
    g = unthunk(g)
    if g is None or factor == 1.0:
        return g
    if isinstance(g, (tuple, list)):
        return type(g)(_scaled(part, factor) for part in g)
    return g * factor


@template_helper
def sorted_vjp(slopes, values, answer):
    """Cotangent of `sorted(values, ...)`: entry k of g goes back to the position ans[k]
    came from. sorted returns the very objects it was given (matched by identity); an
    array's entries are new objects each time, so equal values are paired in order."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    items = list(values)
    origin = _origins_by_identity(items, answer) or _origins_by_value(items, answer)
    out = [None] * len(items)
    for k, i in enumerate(origin):
        out[i] = unthunk(slopes[k])
    if isinstance(values, np.ndarray):           # its entries or rows: one array
        cot = np.zeros(values.shape, dtype=np.result_type(values, 0.0))
        for i, v in enumerate(out):
            if v is not None:
                cot[i] = v
        return cot
    if _numbers(items):                          # numbers: one array
        return _number_array(out)
    return tuple(out) if isinstance(values, tuple) else out


@template_helper
def sorted_jvp(answer, values, tangents):
    """Tangent of `sorted(values, ...)` (2026-12-02, session 32 (fwd)): the entries'
    tangents in the order sorted put the entries (matched as sorted_vjp matches them)."""
    items = list(values)
    origin = _origins_by_identity(items, answer) or _origins_by_value(items, answer)
    tangents = list(tangents)
    return [tangents[i] for i in origin]


def _number_array(cotangents):
    """Numbers' cotangents as one array, zeros for None: float, or complex when one is
    (a complex entry's cotangent keeps its imaginary part, docs/complex.md)."""
    out = np.array([0.0 if c is None else c for c in cotangents])
    return out if out.dtype.kind in "fc" else out.astype(float)


def _numbers(items):
    # the container test first: np.ndim of a tuple holding arrays of unequal shapes raises
    return all(not isinstance(v, (tuple, list, dict)) and np.ndim(v) == 0 for v in items)


def _origins_by_identity(items, ans):
    """[position in items of ans[k]], or None if some entry of ans is not in items."""
    where = {}
    for i, v in enumerate(items):
        where.setdefault(id(v), []).append(i)
    origin = []
    for a in ans:
        free = where.get(id(a))
        if not free:
            return None
        origin.append(free.pop(0))
    return origin


def _origins_by_value(items, ans):
    """Pair equal values of items and ans in order (ans is a permutation of items);
    entries that are not numbers (tuples of `d.items()`) are matched one by one."""
    try:
        keys = np.asarray(items, dtype=float)
        ans_keys = np.asarray(list(ans), dtype=float)
    except (TypeError, ValueError):
        keys = ans_keys = None
    if keys is None or keys.ndim != 1:           # tuples, rows of a 2-D array
        free = list(range(len(items)))
        origin = []
        for a in ans:
            k = next(k for k, i in enumerate(free) if _same(items[i], a))
            origin.append(free.pop(k))
        return origin
    by_value = np.argsort(keys, kind="stable")
    ranks = np.argsort(ans_keys, kind="stable")
    origin = [0] * len(items)
    for k, i in zip(ranks, by_value):
        origin[k] = int(i)
    return origin


@template_helper
def divmod_vjp(g, x, y, operand):
    """Cotangent of `divmod(x, y)` = (x // y, x % y) for x (operand 0) or y (1): the
    quotient is piecewise constant, the remainder is x - y * floor(x / y)."""
    g = unthunk(g)
    remainder = None if g is None else unthunk(g[1])
    if remainder is None:       # the quotient's cotangent alone: a zero, never None (the
        target = y if operand else x    # caller's template adds it: `da + dt * 3.0`)
        return np.zeros(np.shape(target)) if isinstance(target, np.ndarray) else 0.0
    if operand == 0:
        return unbroadcast(remainder, x)
    return unbroadcast(-remainder * np.floor_divide(x, y), y)


@template_helper
def sequence_vjp(slopes, iterable):
    """Cotangent of `list(iterable)` / `tuple(iterable)`: the entries' cotangents, as a
    list or tuple for a list or tuple, as an array (zeros where None) for an array.
    A g of entries all None gives them as they are, not None: the rule's contribution
    is never None where g is not (an appended list's cotangent `dxs.pop()`s unguarded,
    `*rest, last = [*xs, y]` with rest's entries unread: session 37)."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    parts = [unthunk(part) for part in slopes]
    if isinstance(iterable, np.ndarray):
        return entries_array(iterable, parts)
    if isinstance(iterable, (list, tuple)) and _numbers(iterable):   # numbers: one array
        return _number_array(parts)
    if isinstance(iterable, tuple):
        return tuple(parts)
    return list(parts)          # a list, or a view (`d.values()`) whose rule takes a list


@template_helper
def union_vjp(slopes, x, y, which):
    """Cotangent of `x | y` for argument `which`: for dicts, the merged dict's entries
    each came from y when y has the key, else from x; ints and bools carry none."""
    slopes = unthunk(slopes)
    if slopes is None or not isinstance(x, dict) or not isinstance(y, dict):
        return None
    keys = [k for k in x if k not in y] if which == 0 else list(y)
    out = {k: unthunk(slopes[k]) for k in keys if k in slopes and unthunk(slopes[k]) is not None}
    return out or None


@template_helper
def dict_values_vjp(g, d):
    """Cotangent of `d.values()` (a sequence of the values' cotangents) as a dict."""
    g = unthunk(g)
    if g is None:
        return None
    return {k: unthunk(part) for k, part in zip(d, g) if unthunk(part) is not None}


@template_helper
def dict_items_vjp(g, d):
    """Cotangent of `d.items()` (pairs whose second entry is a value's cotangent)."""
    g = unthunk(g)
    if g is None:
        return None
    pairs = [unthunk(pair) for pair in g]
    return {k: unthunk(pair[1]) for k, pair in zip(d, pairs)
            if pair is not None and unthunk(pair[1]) is not None}


@template_helper
def dict_get_vjp(g, d, key):
    """Cotangent of `d.get(key, default)` for d: g at key when key is there."""
    return {key: g} if key in d else None


@template_helper
def transposed(rows):
    """`zip(*rows)` as the tuple of its columns (the compiler writes this for zip(*rows)
    consumed where it is written)."""
    return tuple(zip(*rows))


@template_helper
def transposed_vjp(slopes, rows):
    """Cotangent of `transposed(rows)`: the columns' cotangents back into rows (None is
    zero); zip stops at the shortest row, so entries past it get none."""
    slopes = unthunk(slopes)
    if slopes is None:
        return None
    columns = [None if col is None else [unthunk(v) for v in unthunk(col)] for col in slopes]
    if isinstance(rows, np.ndarray):             # zip(*W) of an array: W's cotangent
        out = np.zeros(rows.shape, dtype=np.result_type(rows, 0.0))
        for j, col in enumerate(columns):
            for i, v in enumerate(col or ()):
                if v is not None:
                    out[i, j] = v
        return out
    out = []
    for i, row in enumerate(rows):
        parts = [None if col is None or i >= len(col) else col[i] for col in columns]
        out.append(_row_cotangent(row, parts))
    return tuple(out) if isinstance(rows, tuple) else out


def _row_cotangent(row, parts):
    """One row's cotangent from its entries': an array row's as one array of its shape
    (zeros past zip's stop and where None), a dict's none (zip reads its keys), a
    tuple's or list's as one of its own kind."""
    if isinstance(row, dict):
        return None
    if isinstance(row, np.ndarray):
        return entries_array(row, parts)
    parts = parts + [None] * (len(row) - len(parts))
    return tuple(parts) if isinstance(row, tuple) else parts
