"""In-place calls the alias check refuses whatever their spelling: found by the object a
call resolves to, not by its name, and through local names bound to functions:

    from numpy import add as plus
    plus(a, b, a)                  # np.add with a positional output: refused
    op = np.multiply
    op(a, b, a)                    # the same through a local name
    np.ndarray.sort(a)             # a method called through its class
    np.add.accumulate(a, 0, None, a)
    push(xs, v)                    # a helper whose source writes into its parameter
    xs.pop()                       # a list or dict changed in place, other than append/extend

The generated code gives writes value semantics only for item assignment, `append` and
`extend`; anything else that changes an object in place is refused at the user's line.
"""
import gast
import numpy as np

from .tables import (CONTAINER_MUTATORS, INPLACE_FUNCTIONS, INPLACE_METHODS,
                     _is_in, _is_ufunc_at)
from ..ir.nodes import walk

# ufunc methods and where their `out` sits among the positional arguments
UFUNC_METHOD_OUT = {"reduce": 3, "accumulate": 3, "reduceat": 4}
# list and dict methods the generated code cannot give value semantics to
UNSUPPORTED_MUTATORS = CONTAINER_MUTATORS - {"append", "extend"}


def function_aliases(src):
    """Local name -> the functions it may be bound to (`op = np.multiply`), over the
    whole function (flow-insensitive: every binding counts, the safe side)."""
    found = {}
    for node in walk(src.node):
        if isinstance(node, gast.Assign) and isinstance(node.value, (gast.Name, gast.Attribute)):
            fn = src.resolve(node.value)
            if fn is not None and callable(fn):
                for target in node.targets:
                    if isinstance(target, gast.Name):
                        found.setdefault(target.id, []).append(fn)
    return found


def calls_write(src, written_params):
    """Whether a call in the function, resolved to its object, may write in place: an
    in-place NumPy function under any name, or a helper writing into a parameter
    (`written_params(fn)`, the helper summaries')."""
    aliases = None
    for node in src.calls():
        fn = src.resolve(node.func)
        if fn is None and isinstance(node.func, gast.Name):
            aliases = function_aliases(src) if aliases is None else aliases
            if any(writes_in_place(f, node) for f in aliases.get(node.func.id, ())):
                return True
        elif fn is not None and (writes_in_place(fn, node) or written_params(fn)):
            return True
    return False


def writes_in_place(fn, call):
    """Whether calling `fn` as `call` writes into one of its positional arguments."""
    if isinstance(fn, np.ufunc):
        return len(call.args) > fn.nin
    if _is_in(fn, INPLACE_FUNCTIONS) or _is_ufunc_at(fn):
        return True
    return _ufunc_method_out(fn, call) or _mutating_descriptor(fn)


def _ufunc_method_out(fn, call):
    owner = getattr(fn, "__self__", None)
    position = UFUNC_METHOD_OUT.get(getattr(fn, "__name__", None))
    return isinstance(owner, np.ufunc) and position is not None and len(call.args) > position


def _mutating_descriptor(fn):
    """`np.ndarray.sort`, `list.pop`, `dict.update`: a method taken from its class."""
    owner = getattr(fn, "__objclass__", None)
    name = getattr(fn, "__name__", "")
    if owner is np.ndarray:
        return name in INPLACE_METHODS
    return owner in (list, dict) and name in CONTAINER_MUTATORS


class InplaceCalls:
    """Refusals for calls that change an argument in place: a part of an AliasCheck
    (`check`), whose write checks and refusals it calls. It owns the function's local
    names bound to functions."""

    def __init__(self, check):
        self.check = check              # the AliasCheck: write, refuse_*
        self.helpers = check.helpers
        self.fn_aliases = function_aliases(check.src)

    def inplace_call(self, e, fn):
        """Refuse `fn(...)` at `e` if it writes into an argument."""
        if not writes_in_place(fn, e) or not e.args:
            return
        name = getattr(fn, "__name__", "call")
        target = e.args[-1] if isinstance(fn, np.ufunc) or _ufunc_method_out(fn, e) \
            else e.args[0]
        self.check.in_place(target, e, f"`{name}` writes into it", f"`{name}(...)`",
                            "out=" if isinstance(fn, np.ufunc) else name)

    def call_through_local(self, e):
        """`op(...)` where `op` is a local name bound to a function."""
        if isinstance(e.func, gast.Name):
            for fn in self.fn_aliases.get(e.func.id, ()):
                self.inplace_call(e, fn)

    def container_mutator(self, e, receiver):
        """`xs.pop()` and the like on a list or dict (not an ndarray): refused."""
        name = e.func.attr
        if name not in UNSUPPORTED_MUTATORS or receiver.array:
            return
        target = e.func.value
        text = target.id if isinstance(target, gast.Name) else "xs"
        self.check.write(target, e, f"`.{name}()` changes it in place")
        self.check.refuse_mutator(target, e, name, text)

    def helper_writes(self, e, fn, values):
        """A helper with source that writes into a parameter: refused at the call.
        values: the Value of each argument node (by id)."""
        written = self.helpers.written_params(fn)
        if not written:
            return
        bound = _bind_nodes(fn, e)
        if bound is None:
            bound = [(sorted(written)[0], e.args[0] if e.args else e)]
        for param, node in bound:
            error, always = written.get(param, (None, False))
            value = values.get(id(node))
            if error is not None and (always or value is None or value.in_place):
                self.check.refuse_helper_write(e, fn, error)

def _bind_nodes(fn, call):
    """(parameter, argument node) for a call, or None when it does not bind simply."""
    import inspect
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None
    if any(isinstance(a, gast.Starred) for a in call.args) or len(call.args) > len(params) \
            or any(kw.arg not in params for kw in call.keywords):
        return None
    return list(zip(params, call.args)) + [(kw.arg, kw.value) for kw in call.keywords]
