"""What the alias analysis knows about calls and attributes: which return views, which
write in place, which make arrays or containers; and a cheap test whether a function may
write in place at all (most do not, and then there is nothing to check).

When unsure whether a NumPy function returns a view, it is listed as one (the functions
and ndarray methods that do are declared beside their rules: `view=True`, runtime/traits.py).
"""
import re

import gast
import numpy as np

from runtime.flat import shape_snapshot
from runtime.tape import unviewed
from runtime.traits import METHOD, PRIMITIVE

from ..ir.nodes import statements, walk

VIEW_ATTRS = {"T", "mT", "real", "imag", "flat"}
SCALAR_ATTRS = {"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides"}
# facts about ndarray methods, declared beside their rules (runtime/rules/methods.py):
# live, set-like views of the registry's tables
VIEW_METHODS = METHOD["view"].keys()
INPLACE_METHODS = METHOD["in_place"].keys()
# what to write instead of an in-place operation the backward sweep cannot undo, for
# operations that are not ndarray methods (the methods' own hints: instead(name))
INSTEAD = {"shuffle": "`{0} = rng.permutation({0})`", "out=": "assign the result: "
           "`{0} = np.add(a, b)` instead of `np.add(a, b, out={0})`",
           "overwrite": "leave SciPy's `overwrite_a`/`overwrite_b` and NumPy's "
           "`overwrite_input` at False: the backward sweep reads `{0}` after the call"}
# Python's own list and dict methods: facts about builtin types, not rules, read by the
# alias analysis only
CONTAINER_MUTATORS = {"append", "extend", "insert", "remove", "clear", "reverse", "update",
                      "setdefault", "pop", "popitem"}
GETTERS = {"pop", "popitem", "setdefault", "get", "values", "items", "keys", "__getitem__"}


# facts about NumPy functions, declared beside their rules (runtime/traits.py)
VIEW_FUNCTIONS = PRIMITIVE["view"]
SPLIT_FUNCTIONS = PRIMITIVE["parts_view"]
INPLACE_FUNCTIONS = PRIMITIVE["writes"]
ARRAY_MAKERS = PRIMITIVE["fresh"]
CONTAINER_MAKERS = {list, tuple, sorted, reversed, zip, enumerate, iter, dict, filter, map}
PICKERS = {min, max, next, getattr}          # return one of their arguments (or its parts)
# the flat gradient's tape entry of a value only its shape is read back of (hvp forward
# over reverse, runtime/flat.py): a new ShapeOnly for an array, a list's or dict's copy
# (holding its entries), the value itself otherwise
SHAPE_SNAPSHOTS = {shape_snapshot}
# `unviewed(x[i])` (the flat gradient's read of an entry, runtime/tape.py): a view's own
# copy, else the entry itself: never the container x
ENTRY_COPIES = {unviewed}


def instead(key):
    """What to write instead of the in-place operation `key` (a method or function
    name, or "out="), as a format string in the receiver's name."""
    hint = METHOD["in_place"].get(key)
    if isinstance(hint, str):
        return hint
    return INSTEAD.get(key, "compute the new array and assign it: `{0} = ...`")


def _root(e):
    while isinstance(e, gast.Attribute):
        e = e.value
    return e.id if isinstance(e, gast.Name) else ""


def _plain_object(found):
    """A module global holding data (not a module, function, class or number)."""
    if found is None or callable(found) or isinstance(found, (int, float, complex, str,
                                                               bool, bytes, np.generic)):
        return False
    return not isinstance(found, type(np))


def _is_in(fn, table):
    try:
        return fn in table
    except TypeError:                          # unhashable
        return False


def _is_ufunc_at(fn):
    return getattr(fn, "__name__", None) == "at" and isinstance(getattr(fn, "__self__", None),
                                                                 np.ufunc)


def _is_numpy(fn):
    module = getattr(fn, "__module__", None) or ""
    return isinstance(fn, np.ufunc) or module == "numpy" or module.startswith("numpy.")


def _array_method(name):
    import runtime
    return runtime.method_function(name) is not None or name in ("astype", "flatten", "item",
                                                                 "tolist", "conj")


def _copy_false(e):
    return any(kw.arg == "copy" and not (isinstance(kw.value, gast.Constant) and kw.value.value)
               for kw in e.keywords)


def astype_may_share(e):
    """`x.astype(t, copy=False)` (a keyword or the fifth argument not a literal true) is
    x itself when x's dtype is t already: a second name for x, not a fresh array."""
    copy = e.args[4] if len(e.args) >= 5 else None
    if copy is not None and not (isinstance(copy, gast.Constant) and copy.value):
        return True
    return _copy_false(e)


def _label(fn):
    name = getattr(fn, "__name__", "call")
    owner = getattr(getattr(fn, "__self__", None), "__name__", None)
    return f"np.{owner}.{name}" if owner else f"np.{name}"


WRITING_ATTRS = INPLACE_METHODS | CONTAINER_MUTATORS | {"shuffle", "at"} | \
    {getattr(f, "__name__", "") for f in INPLACE_FUNCTIONS}




def may_write(src):
    """Whether the function may write in place anywhere (cheap, and conservative: most
    functions do not, and then there is nothing to check)."""
    for s in statements(src.node):
        if isinstance(s, gast.AugAssign):
            return True
        targets = s.targets if isinstance(s, gast.Assign) else \
            [s.target] if isinstance(s, gast.For) else []
        if any(type(n) is gast.Subscript for t in targets for n in walk(t)):
            return True
    text = "".join(src.lines)
    if ("out" in text or "overwrite_" in text) and _OUT_KEYWORD.search(text):
        return True
    for m in _CALL.finditer(text):
        name = m.group(1)
        if name in WRITING_ATTRS or (name in _UFUNC_INPUTS and
                                     _positional_count(text, m.end()) > _UFUNC_INPUTS[name]):
            return True
    return False


_OUT_KEYWORD = re.compile(r"\b(out|overwrite_\w+)\s*=")
_CALL = re.compile(r"(\w+)\s*\(")
_UFUNC_INPUTS = {name: f.nin for name, f in vars(np).items() if isinstance(f, np.ufunc)}


def _positional_count(text, start):
    """How many arguments the call whose `(` ends at `start` has (counting commas at
    its top level; an overestimate with keywords, which is the safe side)."""
    depth, count, seen = 1, 0, False
    for ch in text[start:]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                break
        elif ch == "," and depth == 1:
            count += 1
        elif not ch.isspace():
            seen = True
    return count + seen
