"""Calls resolved at run time: user functions compiled to their own rules, methods of
user objects dispatched on the object's type. A registered rule always comes first."""
import functools
import inspect
import types

import numpy as np

import runtime
from runtime.closures import Closure
from runtime.containers import ARRAY_LIKE, PROPERTY_VJP
from runtime.rules.methods import RUN_TIME_METHODS
from .cache import compiling, weak
from .closure_calls import closure_call, partial_pullback
from .complex_args import real_checked
from ..errors import TransformError
from ..frontend.parse import unwrap
from ..frontend.varargs import takes_varargs, with_varargs
from ..analysis.shapes import signature_of
from ..ir.primitives import opaque_library
from .parameters import _params
from .vectorize_values import vectorized_value
from ..frontend.constructors import constructor_of
from ..lowering.records import object_builder, record_rule
from runtime.operators import user_class as _user_class
from runtime.spread import keywords_pullback, spread_call, spread_keywords, spread_pullback
from .run_time_library import inexact as _inexact, random_draw as _random_draw, \
    refuse_frozen_moment as _refuse_frozen_moment


def _held_callable(obj, name):
    """Whether `obj.name` reads obj's own attribute (its __dict__ wins over a method of
    its class) holding a callable: not a class's or a module's."""
    if isinstance(obj, (type, types.ModuleType)) or name.startswith("__"):
        return False
    return name in getattr(obj, "__dict__", ()) and callable(obj.__dict__[name])


class CalleeRule:
    """A user function called from compiled code, resolved when the caller was compiled.

    Compiled together with its caller (so its errors come before anything runs),
    except when recursion reaches it; recompiled when a name it relied on changed.
    A materialised one (called in a loop body) runs the rule specialised to its
    positional arguments' shapes: it is called many times with the same ones.
    """

    def __init__(self, fn, policy, varied=None, materialised=False, dense=()):
        self.policy, self.varied = policy, varied
        self.materialised = materialised   # called in a loop body: no Thunks returned
        self.dense = dense              # returned entries whose cotangents come as values
        # weakly: a recursive function's rule holds this, and the cache must not
        self._fn = weak(fn)             # keep the function alive through its rules
        self.compiled = None
        self.shaped = {}                # argument signature -> compiled (materialised only)
        self.__name__ = getattr(fn, "__name__", "callee") + "_rrule"

    @property
    def fn(self):
        return self._fn()

    def prepare(self):
        if self.fn not in compiling():     # recursion: compiled when first called
            self.compiled = _compiled(self.fn, self.policy, self.varied, self.materialised,
                                      dense=self.dense)

    def __call__(self, *args, **kwargs):
        if self.materialised and not kwargs:
            signature = signature_of(args)
            compiled = self.shaped.get(signature)
            if compiled is None or not compiled.guards.hold():
                compiled = self.specialised(signature)
            return real_checked(compiled, args).rrule(*args)
        compiled = self.compiled
        if compiled is None or not compiled.guards.hold():
            compiled = self.compiled = _compiled(self.fn, self.policy, self.varied,
                                                 self.materialised, dense=self.dense)
        return real_checked(compiled, args, kwargs).rrule(*args, **kwargs)

    def specialised(self, signature):
        compiled = _compiled(self.fn, self.policy, self.varied, True, signature, self.dense)
        if len(self.shaped) < 16:          # a helper called with ever new shapes
            self.shaped[signature] = compiled
        return compiled


class MethodRule:
    """`obj.name(...)` on a user object, dispatched on the object's type at run time."""

    def __init__(self, name, policy, varied=None, site=None, materialised=False):
        self.name, self.policy = name, policy
        self.varied = varied           # positions in (obj, *args) carrying a derivative
        self.site = site               # a TransformError locating the call in user code
        self.materialised = materialised   # called in a loop body: no Thunks returned

    def __call__(self, obj, /, *args, **kwargs):
        try:                            # (no call added on the way: this is per call)
            if self.name == "__call__" and inspect.ismethod(obj) and \
                    inspect.isfunction(obj.__func__) and runtime.lookup(obj) is None:
                # `f = model.forward; f(x)`: the method, given its receiver, whose
                # cotangent is the bound method's (getattr_vjp passes it through); one
                # with a rule (`cdf = stats.poisson.cdf`) is callable_value's
                return self.rule(obj.__func__, self.varied)(
                    obj.__self__, *args, **kwargs)
            if obj is spread_call and self.name == "__call__":     # `f(*xs)`
                return self.spread(args[0], args[1], kwargs)
            if obj is spread_keywords and self.name == "__call__":  # `f(**params)`
                return self.spread_keywords(*args)
            if isinstance(obj, type) and _user_class(obj):   # `type(self)(v)`, `C.f(a)`
                made = self.class_call(obj, args, kwargs)
                if made is not None:
                    return made
            if self.name == "__call__" and not inspect.isfunction(obj):
                called = self.callable_value(obj, args, kwargs)
                if called is not None:
                    return called
            if self.name == "__call__" and inspect.isfunction(obj):
                shifted = None if self.varied is None else \
                    tuple(k - 1 for k in self.varied if k)
                out, pullback = self.rule(obj, shifted)(*args, **kwargs)
                return out, lambda g: (None,) + tuple(pullback(g))
            if _held_callable(obj, self.name):    # `self.inner(h)`, inner an object
                return self.held(obj, args, kwargs)
            owner = obj if isinstance(obj, type) else type(obj)
            if _method_kind(owner, self.name) is not None:
                return self.class_or_static(owner, args, kwargs)
            fn = getattr(type(obj), self.name, None)
            if inspect.isfunction(fn):
                _refuse_frozen_moment(obj, self.name)
                return self.rule(fn, self.varied)(obj, *args, **kwargs)
            return self.without_source(obj, args, kwargs)
        except TransformError as exc:   # refused here, or compiling the method reached
            raise at_call_site(exc, self.site) from None

    def rule(self, fn, varied):
        return function_rule(fn, self.policy, varied, self.materialised)

    def held(self, obj, args, kwargs):
        """`obj.name(...)` where name is the object's own attribute holding a callable
        (an object with __call__, a closure, a function): that value called, its
        cotangent given to obj as getattr_vjp's {name: cotangent}."""
        whole = MethodRule("__call__", self.policy, self.varied, self.site,
                           self.materialised)
        out, pullback = whole(getattr(obj, self.name), *args, **kwargs)

        def held_pullback(g):
            own, *cots = pullback(g)
            return (None if own is None else {self.name: own}, *cots)
        return out, held_pullback

    def class_or_static(self, owner, args, kwargs):
        """`obj.m(x)` for a staticmethod or classmethod m of `owner` (obj's class, or obj
        itself when it is a class): the function, given the class or nothing for obj."""
        method = inspect.getattr_static(owner, self.name)
        varied = None if self.varied is None else tuple(k for k in self.varied if k)
        if isinstance(method, classmethod):
            rule = self.rule(method.__func__, varied)
            out, pullback = rule(owner, *args, **kwargs)
            return out, lambda g: (None,) + tuple(pullback(g))[1:]
        shifted = None if varied is None else tuple(k - 1 for k in varied)
        out, pullback = self.rule(method.__func__, shifted)(*args, **kwargs)
        return out, lambda g: (None,) + tuple(pullback(g))

    def spread(self, fn, args, kwargs):
        """`f(*xs)` (the compiler wrote `spread_call(f, xs)`): f's rule given xs's
        entries, their cotangents given back as xs's (runtime/spread.py)."""
        if not isinstance(args, (list, tuple, np.ndarray, range)):
            raise TransformError(
                f"`*` of a {type(args).__name__} in a call: the gradient reaches only the "
                "entries of a list, tuple or array spread into a call",
                hint="make a list first: `f(*list(xs))`")
        if isinstance(fn, Closure) and _takes_varargs(fn):
            raise TransformError(
                f"`*` in a call to {getattr(fn, '__name__', 'a function')}(), which takes "
                "`*args`: the values spread into `*args` would carry no derivative",
                hint="give the function named parameters, or pass a list: "
                     "`def f(w, terms)` called as `f(w, terms)`")
        whole = MethodRule("__call__", self.policy, None, self.site, self.materialised)
        out, pullback = whole(fn, *args, **kwargs)
        return out, spread_pullback(pullback, args)

    def spread_keywords(self, fn, args, keywords):
        """`f(**params)` (the compiler wrote `spread_keywords(f, args, params)`): f's
        rule given params's entries as keywords, their cotangents back as a dict."""
        plain = fn.__func__ if inspect.ismethod(fn) else fn
        if not inspect.isfunction(plain) or not isinstance(keywords, dict) or \
                plain.__code__.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            raise TransformError(
                f"`**` of a {type(keywords).__name__} in a call to "
                f"{getattr(fn, '__name__', 'a callable')}(): the gradient reaches only the "
                "entries of a dict given to a plain function's named parameters",
                hint="pass the keywords one by one: `f(w=params[\"w\"])`")
        whole = MethodRule("__call__", self.policy, None, self.site, self.materialised)
        out, pullback = whole(fn, *args, **keywords)
        names = tuple(_params(plain, keyword_only=True))[plain is not fn:]   # not `self`
        return out, keywords_pullback(pullback, names, args, keywords)

    def class_call(self, cls, args, kwargs):
        """`cls(...)` (its record rule or compiled constructor) or `cls.f(a, ...)` (the
        function f, a plain one: classmethods and staticmethods come later) where the
        class is a value known only when the code runs: `type(self)(v)` in a method."""
        if self.name == "__call__":
            rule = record_rule(cls)
            if rule is not None:
                out, pullback = rule.rrule(*args, **kwargs)
                return out, lambda g: (None,) + tuple(pullback(g))
            fn = constructor_of(cls, object_builder)
        else:
            fn = inspect.getattr_static(cls, self.name, None)
        if not inspect.isfunction(fn):
            return None
        shifted = None if self.varied is None else tuple(k - 1 for k in self.varied if k)
        out, pullback = self.rule(fn, shifted)(*args, **kwargs)
        return out, lambda g: (None,) + tuple(pullback(g))

    def callable_value(self, fn, args, kwargs):
        """`f(x)` where f holds a function with a rule (`f=np.tanh`) or a
        functools.partial: (out, pullback) with None for f itself (for a partial, the
        cotangents of what it binds: closure_calls.partial_pullback), or None for others."""
        if isinstance(fn, Closure):
            return closure_call(fn, args, kwargs, self.policy, self.varied, _COMPILER[0])
        rule = runtime.lookup(fn)
        if rule is not None:
            out, pullback = rule.rrule(*args, **kwargs)
            return out, lambda g: (None,) + tuple(pullback(g))
        if isinstance(fn, np.vectorize):          # passed in: its loop, compiled
            return vectorized_value(fn, args, kwargs, self.site, self.rule)
        if not isinstance(fn, functools.partial):
            return None
        whole = MethodRule("__call__", self.policy, None, self.site, self.materialised)
        out, pullback = whole(fn.func, *fn.args, *args, **{**fn.keywords, **kwargs})
        return out, partial_pullback(fn, pullback, given=tuple(kwargs))

    def without_source(self, obj, args, kwargs):
        """A method with no Python source: a random draw's rule or a registered rule."""
        if isinstance(obj, (np.random.Generator, np.random.RandomState)):
            return _random_draw(obj, self.name, args, kwargs, self.varied)
        if isinstance(obj, (np.ndarray, np.generic)) and self.name in RUN_TIME_METHODS:
            return runtime.lookup(RUN_TIME_METHODS[self.name]).rrule(obj, *args, **kwargs)
        if isinstance(obj, ARRAY_LIKE) and runtime.method_function(self.name) is not None:
            return self.array_method(obj, args, kwargs)
        unbound = runtime.lookup(getattr(type(obj), self.name, None))   # dict.values
        if unbound is not None:
            return unbound.rrule(obj, *args, **kwargs)
        rule = runtime.lookup(getattr(obj, self.name))
        owner = getattr(obj, "__self__", None)
        if rule is None and self.name == "__call__" and isinstance(owner, np.ndarray):
            method = getattr(obj, "__name__", "method")     # `f = y.sum; f()`
            raise TransformError(
                f"calling `{method}`, a method of an array kept as a value, is not "
                "supported: the gradient cannot reach the array through it",
                hint=f"call the method on the array where it is used: `y.{method}()` "
                     f"(or `np.{method}(y)`)")
        if rule is None:
            raise TransformError(f"the method {type(obj).__name__}.{self.name}() has no "
                                 "Python source and no derivative rule",
                                 hint=_no_rule_hint(obj, self.name))
        out, pullback = rule.rrule(*args, **kwargs)
        return out, lambda g: (None,) + tuple(pullback(g))


    def array_method(self, obj, args, kwargs):
        """`r.mean(x)` compiled for a receiver that may have been a user object, and is
        an array: the ndarray method's rule, refused where a value being differentiated
        reaches a position the rule gives no derivative for."""
        fn = runtime.method_function(self.name)
        if self.name in ("reshape", "transpose") and len(args) > 1:
            args = (args,)
        rule = runtime.lookup(fn)          # (every mapped method has a rule)
        params = rule.params if rule.signature else []
        for k, arg in enumerate(args, start=1):
            varied = self.varied is None or k in self.varied
            param = params[k] if k < len(params) else None
            if varied and _inexact(arg) and param not in rule.templates and \
                    rule.reason(param) == runtime.NONE:
                raise TransformError(
                    f"argument {k} of the method call .{self.name}() on an array reaches "
                    f"a position of {getattr(fn, '__name__', fn)}() with no derivative "
                    "rule: the gradient would silently be zero",
                    hint="pass a constant there, or compute that value outside the "
                         "differentiated function")
        return rule.rrule(obj, *args, **kwargs)


def _takes_varargs(fn):
    """Whether a Python function or method (or a partial of one) has `*args`."""
    fn = getattr(fn, "func", fn)
    fn = getattr(fn, "__func__", fn)
    if not inspect.isfunction(fn):
        fn = getattr(type(fn), "__call__", None)      # a callable object
    return inspect.isfunction(fn) and bool(fn.__code__.co_flags & inspect.CO_VARARGS)


@functools.lru_cache(maxsize=1024)
def _method_kind(owner, name):
    """staticmethod or classmethod if `name` is one of `owner`'s with Python source."""
    method = inspect.getattr_static(owner, name, None)
    if isinstance(method, (staticmethod, classmethod)) and \
            inspect.isfunction(method.__func__):
        return type(method)
    return None


def _no_rule_hint(obj, name):
    if isinstance(obj, np.ndarray) and callable(getattr(np, name, None)):
        return f"call np.{name}(x, ...) if it has a rule, or register one with transform.rrule"
    return "register a rule with transform.rrule"


def at_call_site(exc, site):
    """exc located at the user's call `site` too: an error without a location takes the
    site's; one located elsewhere (the method's own line) says where it was called."""
    if site is None or site.line is None:
        return exc
    if exc.line is None:
        return TransformError(exc.message, filename=site.filename, line=site.line,
                              col=site.col, source_line=site.source_line, hint=exc.hint)
    called = f"\n  (reached from the call at {site.location}: {site.source_line.strip()})"
    return TransformError(exc.message + called, filename=exc.filename, line=exc.line,
                          col=exc.col, source_line=exc.source_line, hint=exc.hint)


def function_rule(fn, policy, positions=None, materialised=False):
    """fn's rrule: the registered rule if there is one, else fn's compiled rule."""
    fn = unwrap(fn)[0]
    registered = runtime.lookup(fn)
    if registered is not None:
        return registered.rrule
    if takes_varargs(fn):           # compiled for the number of values `*args` gets
        return lambda *args, **kwargs: _rule_of(with_varargs(fn, len(args)), policy,
                                                positions, materialised)(*args, **kwargs)
    return _rule_of(fn, policy, positions, materialised)


def _rule_of(fn, policy, positions, materialised):
    compiled = _compiled(fn, policy, positions, materialised)
    if not compiled.real_arguments:
        return compiled.rrule
    return lambda *args, **kwargs: real_checked(compiled, args, kwargs).rrule(*args, **kwargs)


def _compiled(fn, policy, positions=None, materialised=False, signature=None, dense=()):
    """fn's rule as other compiled code calls it: it answers for every parameter, its
    cotangents deferred, compiled with only the parameters at `positions` (None: all)
    carrying a derivative, as at the call site: an integer argument (a size, a count)
    is then not taken for a value being differentiated. materialised: for a call in a
    loop body, cotangents computed at once; dense: pipeline.compile_function's."""
    library = opaque_library(fn)
    if library is not None:
        raise TransformError(f"{getattr(fn, '__qualname__', fn)} is {library}'s own code and "
                             "has no derivative rule; thunkgrad does not compile "
                             f"{library}'s source", hint="compute it outside the "
                             "differentiated function, or register a rule with transform.rrule")
    names = tuple(_params(fn, keyword_only=True))
    varied = None if positions is None else tuple(names[k] for k in positions
                                                    if k < len(names))
    return _COMPILER[0](fn, names, policy, consumed=False, signature=signature,
                        varied=varied, materialised=materialised, dense=dense)


def callee_rule(fn, policy, varied=None, materialised=False, dense=()):
    rule = CalleeRule(fn, policy, varied, materialised, dense)
    rule.prepare()
    return rule


_COMPILER = []       # [the API's cached compile], set by compile_with


def compile_with(compiled):
    """Run-time rules compile a callee with `compiled(fn, names, policy, consumed=False,
    varied=..., materialised=...)`: the API's cached entry point, which transform.api registers here when
    it is imported. Injected, not imported: the API imports the compiler, which makes
    these rules, so importing the API here would close a cycle."""
    _COMPILER[:] = [compiled]


def property_vjp(getter, obj, g):
    """(the getter's value, obj's cotangent) through `obj.name` whose class computes it
    with `getter`: compiled like a method (runtime/containers.py computed_attribute_vjp)."""
    value, pullback = function_rule(getter, "loop")(obj)
    return value, runtime.unthunk(pullback(g)[0])


PROPERTY_VJP[:] = [property_vjp]
