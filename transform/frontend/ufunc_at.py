"""Stage 1b, desugar: `np.add.at` and `np.subtract.at` (since session 34 also
`np.multiply.at`, `np.divide.at`, `np.maximum.at`, `np.minimum.at`: runtime/rules/
ufunc_at_more.py) written as statements become an
assignment of the whole array, whose in-place write the later stages know (its value
semantics, the alias check of shared memory, the copy of an argument written into):

    np.add.at(a, indices, b)      ->  a[...] = added_at(a, indices, b)

added_at (runtime/rules/ufunc_methods_helpers.py) returns a copy of `a` with np.add.at
applied, so a repeated index adds each time, as in NumPy. Only the plain form is
rewritten: a name as the first argument, three positional arguments; anything else, and
the other ufuncs' `at`, stay refused by the alias check (an in-place write it cannot undo).
`np.fill_diagonal(a, v)` (two positional arguments, a name first) becomes the subscript
write `a[diagonal_positions(a)] = np.resize(v, diagonal_length(a))` (v repeated or cut as
NumPy's flat write does; session 40, red41: t-SNE's masked affinities).
"""
import gast
import numpy as np

from runtime.rules.indexing import diagonal_length, diagonal_positions
from runtime.rules.ufunc_at_more import divided_at, maximized_at, minimized_at, multiplied_at
from runtime.rules.ufunc_methods_helpers import added_at, subtracted_at
from ..ir.nodes import load as _load, located as _at

_HELPERS = {np.add: added_at, np.subtract: subtracted_at, np.multiply: multiplied_at,
            np.divide: divided_at, np.maximum: maximized_at, np.minimum: minimized_at}


def at_helper(fn):
    """added_at for np.add.at (subtracted_at for np.subtract.at, ...), else None."""
    if getattr(fn, "__name__", None) != "at":
        return None
    owner = getattr(fn, "__self__", None)
    return next((h for u, h in _HELPERS.items() if owner is u), None)


def ufunc_at_statement(src, s):
    """The assignment standing for the statement `s`, or None when it is not one to
    rewrite."""
    call = s.value if isinstance(s, gast.Expr) else None
    if not isinstance(call, gast.Call) or call.keywords or len(call.args) != 3 or \
            not isinstance(call.args[0], gast.Name) or \
            any(isinstance(a, gast.Starred) for a in call.args):
        return None
    helper = at_helper(src.resolve(call.func))
    if helper is None:
        return None
    func = _load(helper.__name__)
    func.runtime_helper = helper
    target = gast.Subscript(value=_load(call.args[0].id), slice=gast.Constant(
        value=Ellipsis, kind=None), ctx=gast.Store())
    value = gast.Call(func=func, args=list(call.args), keywords=[])
    return _at(gast.Assign(targets=[target], value=value, type_comment=None), s)


def fill_diagonal_statement(src, s):
    """`np.fill_diagonal(a, v)` as `a[diagonal_positions(a)] = np.resize(v,
    diagonal_length(a))`, or None when `s` is not that statement in its plain form."""
    call = s.value if isinstance(s, gast.Expr) else None
    if not isinstance(call, gast.Call) or call.keywords or len(call.args) != 2 or \
            not isinstance(call.args[0], gast.Name) or \
            any(isinstance(a, gast.Starred) for a in call.args) or \
            src.resolve(call.func) is not np.fill_diagonal:
        return None
    name, value = call.args[0].id, call.args[1]
    index = _helper_call(diagonal_positions, _load(name))
    value = _helper_call(np.resize, value, _helper_call(diagonal_length, _load(name)))
    target = gast.Subscript(value=_load(name), slice=index, ctx=gast.Store())
    return _at(gast.Assign(targets=[target], value=value, type_comment=None), s)


def _helper_call(fn, *args):
    func = _load(fn.__name__)
    func.runtime_helper = fn
    return gast.Call(func=func, args=list(args), keywords=[])
