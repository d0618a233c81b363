"""Arguments as trees: the float leaves of tuples, lists, dicts, dataclasses and plain
objects, found by path and replaced in a rebuilt copy (the caller's value never changes).

    float_leaves(({"w": W}, 2.0))   ->  [((0, "w"), W), ((1,), 2.0)]
    with_leaf(({"w": W}, 2.0), (1,), 3.0)  ->  ({"w": W}, 3.0)
"""
import copy
import dataclasses

import numpy as np


def is_float_leaf(x):
    """A Python/NumPy float or a float array (bools are not floats)."""
    if isinstance(x, bool):
        return False
    if isinstance(x, (float, np.floating)):
        return True
    return isinstance(x, np.ndarray) and x.dtype.kind == "f"


def is_object(tree):
    """A user object read by attribute (not a container, array or NumPy scalar)."""
    return not isinstance(tree, (tuple, list, dict, np.ndarray, np.generic)) and \
        (hasattr(tree, "__dict__") or bool(_slots(tree)))


def _slots(obj):
    """The attribute names a class with __slots__ declares (its bases' too), set on obj."""
    names = []
    for cls in type(obj).__mro__[:-1]:
        slots = vars(cls).get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return [n for n in names if n not in ("__dict__", "__weakref__") and hasattr(obj, n)]


def _attributes(obj):
    """(name, value) of an object's attributes: its __dict__, then its slots."""
    pairs = list(vars(obj).items()) if hasattr(obj, "__dict__") else []
    return pairs + [(n, getattr(obj, n)) for n in _slots(obj)]


def children(tree):
    """(key, child) pairs of a container or object; [] for a leaf."""
    if isinstance(tree, (tuple, list)):
        return list(enumerate(tree))
    if isinstance(tree, dict):
        return list(tree.items())
    if dataclasses.is_dataclass(tree) and not isinstance(tree, type):
        return [(f.name, getattr(tree, f.name)) for f in dataclasses.fields(tree)]
    if is_object(tree):
        return _attributes(tree)
    return []


def float_leaves(tree, path=()):
    """[(path, leaf)] for every float or float-array leaf."""
    if is_float_leaf(tree):
        return [(path, tree)]
    out = []
    for key, child in children(tree):
        out += float_leaves(child, path + (key,))
    return out


def get_path(tree, path):
    for key in path:
        tree = getattr(tree, key) if is_object(tree) else tree[key]
    return tree


def with_leaf(tree, path, value):
    """A copy of `tree` with the leaf at `path` replaced (containers rebuilt, same types)."""
    if not path:
        return value
    key, rest = path[0], path[1:]
    if isinstance(tree, (tuple, list)):
        items = list(tree)
        items[key] = with_leaf(items[key], rest, value)
        if isinstance(tree, tuple):       # a namedtuple is rebuilt by its fields
            return type(tree)(*items) if hasattr(tree, "_fields") else tuple(items)
        return items
    if isinstance(tree, dict):
        out = dict(tree)
        out[key] = with_leaf(out[key], rest, value)
        return out
    if dataclasses.is_dataclass(tree):
        return dataclasses.replace(tree, **{key: with_leaf(getattr(tree, key), rest, value)})
    out = copy.copy(tree)
    setattr(out, key, with_leaf(getattr(tree, key), rest, value))
    return out
