"""A parameter whose default is a mutable object: writes into it are refused.

    def f(x, buf=np.zeros(3)):        # one array, made when the def ran
        buf[:] = x * 2.0              # TransformError here
        return np.sum(buf * x)

Python writes into the default itself, so every later call sees the change. The
function grad/vjp is called on is differentiated as a map from the values it receives
(an argument it writes into is copied on entry: desugar._argument_copies), which would
hide that change; so such a parameter is not copied on entry, and the alias check
refuses a write into it (an element or slice store, `+=` and the like, a writing
method such as `.fill()`) at its line, whether or not the call passes the argument.
"""
import numpy as np

MUTABLE = (np.ndarray, list, dict, set, bytearray)


def mutable_defaults(fn):
    """{parameter: what its default is} for each parameter of fn whose default is an
    ndarray, list, dict, set or bytearray (positional and keyword-only)."""
    return {name: "NumPy array" if isinstance(value, np.ndarray) else type(value).__name__
            for name, value in _defaults(fn).items() if isinstance(value, MUTABLE)}


def none_defaults(fn):
    """The parameters of fn whose default is None."""
    return {name for name, value in _defaults(fn).items() if value is None}


def _defaults(fn):
    """{parameter: its default} (positional and keyword-only)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return {}
    positional = code.co_varnames[:code.co_argcount]
    defaults = getattr(fn, "__defaults__", None) or ()
    found = dict(zip(positional[len(positional) - len(defaults):], defaults))
    found.update(getattr(fn, "__kwdefaults__", None) or {})
    return found


def default_write_error(src, name, node, how):
    """The TransformError for a write into parameter `name` (mutable_defaults has it)."""
    what = mutable_defaults(src.fn)[name]
    return src.error(
        f"writing into `{name}`{how} is not supported: its default is one {what} that every "
        "call shares, and Python would change that default itself (later calls see the "
        "write), while the derivative is taken on a copy", node,
        hint=f"default to None and make it in the body: `{name}=None`, then "
             f"`{name} = {NEW.get(what, '...')} if {name} is None else {name}` (or copy it "
             f"first: `{name} = {name}.copy()`)")


NEW = {"NumPy array": "np.zeros(...)", "list": "[]", "dict": "{}", "set": "set()",
       "bytearray": "bytearray()"}
