"""Calls resolved at run time: user functions compiled to their own rules, methods of
user objects dispatched on the object's type. A registered rule always comes first."""
import inspect

import numpy as np

import runtime
from .errors import TransformError

# Functions being compiled right now: a callee among them (recursion) is compiled
# when first called instead of when its caller is compiled.
COMPILING = set()


class CalleeRule:
    """A user function called from compiled code, resolved when the caller was compiled.

    Compiled together with its caller (so its errors come before anything runs),
    except when recursion reaches it; recompiled when a name it relied on changed.
    """

    def __init__(self, fn, policy):
        self.fn, self.policy = fn, policy
        self.compiled = None
        self.__name__ = getattr(fn, "__name__", "callee") + "_rrule"

    def prepare(self):
        if self.fn not in COMPILING:
            self.compiled = _compiled(self.fn, self.policy)

    def __call__(self, *args, **kwargs):
        compiled = self.compiled
        if compiled is None or not compiled.guards.hold():
            compiled = self.compiled = _compiled(self.fn, self.policy)
        return compiled.rrule(*args, **kwargs)


class MethodRule:
    """`obj.name(...)` on a user object, dispatched on the object's type at run time."""

    def __init__(self, name, policy):
        self.name, self.policy = name, policy

    def __call__(self, obj, *args, **kwargs):
        if self.name == "__call__" and inspect.isfunction(obj):
            out, pullback = function_rule(obj, self.policy)(*args, **kwargs)
            return out, lambda g: (None,) + tuple(pullback(g))
        fn = getattr(type(obj), self.name, None)
        if inspect.isfunction(fn):
            return function_rule(fn, self.policy)(obj, *args, **kwargs)
        bound = getattr(obj, self.name)
        if isinstance(obj, (np.random.Generator, np.random.RandomState)):
            return bound(*args, **kwargs), lambda g: (None,) * (len(args) + 1)   # draws
        rule = runtime.lookup(bound)
        if rule is None:
            raise TransformError(f"the method {type(obj).__name__}.{self.name}() has no "
                                 "Python source and no derivative rule",
                                 hint="register a rule with transform.rrule")
        out, pullback = rule.rrule(*args, **kwargs)
        return out, lambda g: (None,) + tuple(pullback(g))


def function_rule(fn, policy):
    """fn's rrule: the registered rule if there is one, else fn's compiled rule."""
    fn = _api()._unwrap(fn)[0]
    registered = runtime.lookup(fn)
    if registered is not None:
        return registered.rrule
    return _compiled(fn, policy).rrule


def _compiled(fn, policy):
    """fn's rule as other compiled code calls it: every parameter, cotangents deferred."""
    names = tuple(_api()._params(fn, keyword_only=True))
    return _api().compiled(fn, names, policy, consumed=False)


def callee_rule(fn, policy):
    rule = CalleeRule(fn, policy)
    rule.prepare()
    return rule


def _api():
    from . import api          # api imports this module: resolve it late
    return api
