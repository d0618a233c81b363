"""Forward-mode (JVP) terms of the Python container operations and the structural
runtime helpers (docs/forward.md). A container's tangent has the container's structure
(a dict's is a dict by the same keys, a string or key's is None); each term here is the
transpose of the operation's cotangent template beside it (operators_helpers.py,
sequences_helpers.py, indexing_helpers.py), which tests/rules/test_jvp_rules.py checks.
"""
import numpy as np

from ..forward import attribute_tangent, zero_tangent
from ..registry import template_helper
from .indexing_helpers import _is_item, _numbered


@template_helper
def zero_addend(value):
    """The zero tangent of an operand of `+` or `-` that carries none (forward mode's
    `x_dot + zero_addend(y)`): zero_tangent's, a list's zeros for concatenation, and 0.0
    for a bool (`s + (k == 'b')`), whose zero_tangent is None."""
    if isinstance(value, (bool, np.bool_)):
        return 0.0
    return zero_tangent(value)


@template_helper
def dict_pairs_jvp(pairs, t_pairs):
    """Tangent of `dict(pairs)`: each key's value tangent from the pair that set it (the
    last pair of a key wins, as in the dict); of `dict(mapping)`, the mapping's own."""
    if isinstance(pairs, dict):
        return dict(t_pairs)
    out = {}
    for (key, _), pair_tangent in zip(pairs, t_pairs):
        out[key] = None if pair_tangent is None else pair_tangent[1]
    return out


@template_helper
def dict_items_jvp(d, t_d):
    """Tangent of `d.items()`: (None, the value's tangent) per entry (a key carries none)."""
    return [(None, t_d[k]) for k in d]


@template_helper
def dict_get_jvp(tangent, d, key, answer, which):
    """The term of `d.get(key, default)` for d (which 0) or default (which 1): the entry's
    tangent where the key is there, the default's where it is not, else a zero."""
    if (key in d) == (which == 0):
        return tangent[key] if which == 0 else tangent
    return zero_tangent(answer)


@template_helper
def getattr_jvp(tangent, obj, name):
    """Tangent of `obj.name`: the same attribute of obj's tangent (a record of the
    fields' tangents), an array's `.T`/`.mT`/`.real` of the tangent (runtime/forward.py)."""
    return attribute_tangent(tangent, obj, name)


@template_helper
def index_trick_jvp(trick, items, t_items):
    """Tangent of `trick[items]` (np.r_, np.c_): the items' tangents where their entries
    land (found by numbering, as index_trick_vjp does), zero on constant ranges."""
    items = items if isinstance(items, tuple) else (items,)
    t_items = t_items if isinstance(t_items, tuple) else (t_items,)
    total = sum(np.size(v) for v in items if _is_item(v))
    once = np.asarray(trick[_numbered(items, 1)])
    placed = (np.asarray(trick[_numbered(items, 1 + total)]) - once) == total
    flat = np.concatenate([np.ravel(np.zeros(np.shape(v)) if t is None else t)
                           for v, t in zip(items, t_items) if _is_item(v)] or [np.zeros(0)])
    out = np.zeros(np.shape(once), dtype=np.result_type(flat, 1.0))
    out[placed] = flat[(once[placed] - 1).astype(np.intp)]
    return out
