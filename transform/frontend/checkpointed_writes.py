"""What a checkpointed loop's body may write into (transform/frontend/checkpointed.py):
the names it changes in place are carried, so the change reaches the next step; a body
that writes into nothing and calls library functions only advances by the step itself.

A call of a user's helper counts as writing into every argument unless the helper's own
source shows no write at all (`_pure_helper`): no store into a subscript or attribute,
no augmented assignment, no writing method, `out=` or in-place function, and only
library functions or helpers pure by the same reading (recursion and helpers without
source: not pure)."""
import types

import gast
import numpy as np

from .parse import parse_function
from ..alias.tables import INPLACE_FUNCTIONS, WRITING_ATTRS
from ..errors import TransformError


def _written(src, body):
    """Names the body may change in place (a write into them, a writing method, `out=`,
    a function of the user's given them): carried, so the change reaches the next step
    and the code after the loop (the step's compiled rule writes into copies)."""
    found = []
    for n in gast.walk(gast.Module(body=body, type_ignores=[])):
        if isinstance(n, (gast.Subscript, gast.Attribute)) and isinstance(n.ctx, gast.Store) \
                or isinstance(n, gast.AugAssign):
            found.append(_base(n.target if isinstance(n, gast.AugAssign) else n.value))
        elif isinstance(n, gast.Call):
            found.extend(_call_writes(src, n))
    return [f for f in found if f is not None]


def _plain_advance(src, body):
    """Whether the driver may advance by the step itself, not its rule: the body writes
    into nothing and calls library functions only (the snapshots stay as they are)."""
    for n in gast.walk(gast.Module(body=body, type_ignores=[])):
        if isinstance(n, (gast.Subscript, gast.Attribute)) and isinstance(n.ctx, gast.Store) \
                or isinstance(n, gast.AugAssign) or isinstance(n, gast.Call) and (
                list(_call_writes(src, n)) or not _library_or_pure(src.resolve(n.func))):
            return False
    return True


def _library_or_pure(fn):
    module = getattr(fn, "__module__", None) or ""
    return module.split(".")[0] in _LIBRARIES or _pure_helper(fn)


def _call_writes(src, call, seen=frozenset()):
    """The names a call may write into (None for an expression's that is no name)."""
    func = call.func
    if isinstance(func, gast.Attribute) and func.attr in WRITING_ATTRS:
        yield _base(func.value)
        yield from (_base(a) for a in call.args)
    yield from (_base(k.value) for k in call.keywords
                if k.arg == "out" or (k.arg or "").startswith("overwrite_"))
    fn = src.resolve(func)
    module = getattr(fn, "__module__", None) or ""
    if fn is None or fn in INPLACE_FUNCTIONS or isinstance(fn, np.ufunc) and \
            len(call.args) > fn.nin or not module.split(".")[0] in _LIBRARIES and \
            not _pure_helper(fn, seen):
        yield from (_base(a) for a in call.args)
        yield from (_base(k.value) for k in call.keywords)


def _pure_helper(fn, seen=frozenset()):
    """Whether fn is a user's function whose source shows it writes into nothing."""
    if not isinstance(fn, types.FunctionType) or fn in seen:
        return False
    try:
        src = parse_function(fn)
    except (TransformError, OSError, TypeError, SyntaxError):
        return False
    for n in gast.walk(src.node):
        if isinstance(n, (gast.Subscript, gast.Attribute)) and isinstance(n.ctx, gast.Store) \
                or isinstance(n, (gast.AugAssign, gast.Global, gast.Nonlocal)):
            return False
        if isinstance(n, gast.Call) and (src.resolve(n.func) is None or
                                         any(True for _ in _call_writes(src, n, seen | {fn}))):
            return False            # (a local's method: what it writes is not known)
    return True


_LIBRARIES = {"numpy", "math", "builtins", "scipy", "cmath", "runtime", "transform"}


def _base(node):
    """The name an expression like `u`, `u[1:]`, `s.field[0]` starts from, or None."""
    while isinstance(node, (gast.Subscript, gast.Attribute, gast.Starred)):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None
