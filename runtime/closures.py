"""Function values compiled code makes: closure conversion.

A lambda or nested def that reads locals of the function making it is, in compiled
code, a record of the user's code (`template`: a function with that code whose free
variables are its leading parameters when compiled) and the values it reads (`env`,
the free variables in `co_freevars` order, then the values of its defaults). The
record is a container like a tuple: its cotangent is the tuple of the env's
cotangents, so a closure returned by a helper or kept in a list carries the derivative
back to the values it read:

    f = lambda t: t * w       ->   f = make_closure(<lambda template>, (w,))
    f(x)                      ->   the template's rule called with (w, x)

`functools.partial(f, a, k=b)` in compiled code is `make_partial(f, (a,), {"k": b})`:
a partial whose cotangent is (f's, (a's,), {"k": b's}), so values bound into it get
their derivative too.

The values are read when the record is made; the compiler refuses a closure whose
variables are rebound while it may still be called (Python would read the new value).
"""
import functools
import types

from .registry import template_helper
from .thunks import unthunk


STALE_INSTEAD = "; bind the value as a default parameter (`lambda t, w=w: ...`)"


class Closure:
    """A function value: the user's code and the values it reads, by value."""

    __slots__ = ("template", "env", "expired", "__weakref__")

    def __init__(self, template, env):
        self.template = template
        self.env = tuple(env)
        self.expired = False     # set once a variable it read is bound again

    def stale_message(self):
        code = self.template.__code__
        return (f"{self.template.__qualname__} (made at {code.co_filename}:"
                f"{code.co_firstlineno}) is called after a variable it reads was bound "
                "again: Python would read the new value, which is not followed here")

    def check_live(self):
        if self.expired:
            raise RuntimeError(self.stale_message() + STALE_INSTEAD)

    @property
    def free_count(self):
        return len(self.template.__code__.co_freevars)

    def function(self):
        """The plain Python function this record stands for."""
        t, n = self.template, self.free_count
        cells = tuple(types.CellType(v) for v in self.env[:n])
        fn = types.FunctionType(t.__code__, t.__globals__, t.__name__,
                                self.env[n:] or None, cells)
        fn.__kwdefaults__ = t.__kwdefaults__
        return fn

    def defaulted(self, args, kwargs):
        """{parameter position: default value} for the parameters a call leaves out."""
        code, n = self.template.__code__, self.free_count
        defaults = self.env[n:]
        first = code.co_argcount - len(defaults)
        names = code.co_varnames[:code.co_argcount]
        return {k: defaults[k - first] for k in range(max(first, len(args)), code.co_argcount)
                if names[k] not in kwargs}

    def __call__(self, *args, **kwargs):       # called by code that is not compiled
        self.check_live()
        return self.function()(*args, **kwargs)

    def __repr__(self):
        return f"<closure {self.template.__qualname__}>"


_TEMPLATES = {}


def template_of(code, globals_):
    """The function compiled code calls for closures of `code` (one per code object):
    its free variables are empty cells, marked to be compiled as leading parameters."""
    key = (code, id(globals_))
    template = _TEMPLATES.get(key)
    if template is None:
        cells = tuple(types.CellType() for _ in code.co_freevars)
        template = types.FunctionType(code, globals_, code.co_name, None, cells)
        template.thunkgrad_lifted = True
        _TEMPLATES[key] = template
    return template


def make_closure(template, env):
    """The record for `template` over `env` (see the module docstring)."""
    return Closure(template, env)


def expire_closure(closure):
    """A closure passed to a call, once the call is over: a variable it reads is bound
    again later, so a later call would read other values than Python's."""
    closure.expired = True


RECORD_TYPES = (Closure, functools.partial)   # function values with a structured cotangent


def make_partial(func, args, keywords):
    """`functools.partial(func, *args, **keywords)`, as compiled code builds it: kept
    whole (functools flattens a partial of a partial with no attributes into one, which
    would not have the cotangent's structure: (func's, args', keywords'))."""
    if isinstance(func, functools.partial) and not getattr(func, "thunkgrad_whole", False):
        func = _whole(functools.partial(func.func, *func.args, **func.keywords))
    return _whole(functools.partial(func, *args, **keywords))


def _whole(partial):
    partial.thunkgrad_whole = True      # (a partial with attributes is not flattened)
    return partial


@template_helper
def partial_part(g, k):
    """Part k of a partial's cotangent (func's, the args', the keywords')."""
    g = unthunk(g)
    return None if g is None else g[k]
