"""A function with a registered rule and no Python source (np.sin, np.sum, np.linalg.norm)
given to jvp, jacfwd, hvp, hessian or grad of grad: the compilers read source, so it is
differentiated as a generated one-line function calling it,

    def sin(x):                      # thunkgrad: calls numpy.sin (no Python source)
        return target(x)

whose text is registered with linecache (inspect.getsource and tracebacks show it), its
parameters the function's positional parameters without a default. The call inside is
compiled like any call of the function: its rule, its JVP. A builtin or ufunc with no
rule, or with no named positional parameter (np.einsum), is refused here (strict); any
other callable is returned as it is, for the caller's own checks.
"""
import inspect
import linecache
import types

import numpy as np

from runtime import registry

from ..errors import TransformError

_WRAPPERS = {}         # the function (np.sin, ...) -> its generated wrapper


def with_source(fn, strict=True):
    """fn, or for a function with a registered rule and no Python source its wrapper;
    strict: a builtin or ufunc that cannot be wrapped is refused (else returned)."""
    receiver = getattr(fn, "__self__", None)          # a builtin's is its module
    if getattr(fn, "__code__", None) is not None or \
            not (receiver is None or inspect.ismodule(receiver)):
        return fn
    try:
        if fn in _WRAPPERS:
            return _WRAPPERS[fn]
    except TypeError:                              # not hashable: not a library function
        return fn
    rule = registry.lookup(fn)
    builtin = strict and isinstance(fn, (types.BuiltinFunctionType, np.ufunc))
    if rule is None and builtin:
        raise TransformError(f"{fn!r} has no derivative rule and no Python source to "
                             "compile", hint="register a rule for it with transform.rrule "
                             "(and its JVP), or call it inside a function of your own")
    params = _positional(fn, rule) if rule is not None else None
    if not params and builtin:
        raise TransformError(f"{fn!r} has a derivative rule but no named positional "
                             "parameters to compile a call of it with",
                             hint="call it inside a function of your own")
    if not params:
        return fn
    _WRAPPERS[fn] = wrapper = _generated(fn, rule.name, params)
    return wrapper


def _positional(fn, rule):
    """The names of fn's positional parameters without a default, as its rule's signature
    has them (NumPy < 2.4 gives ufuncs none); None if unknown."""
    try:
        parameters = (rule.signature or inspect.signature(fn)).parameters.values()
    except (TypeError, ValueError):
        if isinstance(fn, np.ufunc):
            return ["x"] if fn.nin == 1 else [f"x{k + 1}" for k in range(fn.nin)]
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in parameters
            if p.kind in kinds and p.default is inspect.Parameter.empty]


def _generated(fn, qualified, params):
    """The wrapper function, compiled from text registered with linecache."""
    name = getattr(fn, "__name__", "f")
    name = name if name.isidentifier() and name not in params else "f"
    filename = f"<thunkgrad: {qualified} called from generated source>"
    text = (f"def {name}({', '.join(params)}):   # thunkgrad: calls {qualified} "
            "(no Python source)\n"
            f"    return target({', '.join(params)})\n")
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    scope = {"target": fn, "__name__": getattr(fn, "__module__", None) or "numpy"}
    exec(compile(text, filename, "exec"), scope)      # noqa: S102 (text made above)
    wrapper = scope[name]
    wrapper.__qualname__ = name
    wrapper.thunkgrad_calls = fn
    return wrapper


def check_arity(fn, entry, count):
    """A TypeError for more arguments than a generated wrapper takes (`np.sum(x, 0)`)."""
    wrapped = getattr(fn, "thunkgrad_calls", None)
    params = list(inspect.signature(fn).parameters) if wrapped is not None else []
    if wrapped is not None and count > len(params):
        raise TypeError(f"{entry} of {fn.__name__} itself takes its parameters without a "
                        f"default only ({', '.join(params)}), got {count} arguments; for "
                        f"the others write a function of your own, e.g. "
                        f"{entry}(lambda {params[0]}: {fn.__name__}({params[0]}, ...))")
