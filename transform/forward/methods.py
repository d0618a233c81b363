"""The function forward mode compiles for `obj.name(...)` on a user object, found when
the call runs (transform/forward/calls.py container_method): generated code calls it
with the receiver first,

    y, y_dot = call_jvp(container_method(model, 'forward', refusal, 2),
                        {0: model_dot, 1: x_dot}, model, x)

so an instance method is the class's function itself (its `self_dot` the receiver's
tangent: an object of its class holding its attributes' tangents). A static or class
method, or a function stored on the object (`self.activation = np.tanh`) that carries
no derivative itself, is called through a two-line function taking the receiver first,

    def call_scale(a0, a1):          (a staticmethod)    (a classmethod)
        return fn(a1)                                      return fn(cls, a1)

whose source is registered with linecache like transform/value_calls.py's: forward
mode (and reverse mode over its code, hvp) compiles the call `fn(a1)` as written in
user code. One function per (method, class, count), kept while the method lives.
"""
import inspect
import linecache
import threading
import weakref

from runtime import registry
from runtime.operators import user_class

from ..frontend.varargs import takes_varargs, with_varargs
from ..ir.primitives import opaque_library

_LOCK = threading.Lock()
_MADE = weakref.WeakKeyDictionary()          # method's function -> {(class, count): fn}
_KEPT = {}                                   # the same, for values without weak references


def user_method(obj, name, count=None):
    """The function to call with (obj, *args) for `obj.name(*args)`, obj a user object
    whose class defines `name` in Python and does not shadow it by an attribute of the
    object; count: the call's positional values, the receiver included (a method
    taking `*args` is compiled for it, frontend/varargs.py). Else None (refused)."""
    if isinstance(obj, type):                     # `type(a).__mul__(a, 3.0)`, `C.f(x)`
        return _class_attribute(obj, name, count)
    cls = type(obj)
    if not _users(cls):
        return None
    if name in getattr(obj, "__dict__", ()):      # `self.activation = np.tanh`
        value = obj.__dict__[name]
        if count is not None and _callable_object(value):
            return _attribute_call(cls, name, count)
        return _receiver_first(value, None, count) if count is not None and \
            _carries_nothing(value) else None
    found = inspect.getattr_static(cls, name, None)
    kind = type(found) if isinstance(found, (staticmethod, classmethod)) else None
    fn = found.__func__ if kind is not None else found
    if not inspect.isfunction(fn) or opaque_library(fn) is not None:
        return None
    if kind is not None:
        return None if count is None or takes_varargs(fn) else \
            _receiver_first(fn, cls if kind is classmethod else None, count)
    return with_varargs(fn, count) if count is not None and takes_varargs(fn) else fn


def _users(cls):
    return user_class(cls) and \
        (cls.__module__ or "").split(".")[0] not in ("runtime", "transform")


def _class_attribute(cls, name, count):
    """`C.name(*args)` for a user class C (the class is the call's first value): its
    function, static method or class method (given C), called without C."""
    found = inspect.getattr_static(cls, name, None) if _users(cls) else None
    given = cls if isinstance(found, classmethod) else None
    fn = found.__func__ if isinstance(found, (staticmethod, classmethod)) else found
    if count is None or not inspect.isfunction(fn) or takes_varargs(fn) or \
            opaque_library(fn) is not None:
        return None
    return _receiver_first(fn, given, count)


def _carries_nothing(value):
    """A callable stored on an object that cannot carry a derivative itself: a function
    with a rule (np.tanh) or one defined with def reading no enclosing variable and
    binding no default (a closure's tangent would be lost)."""
    rule = registry.lookup(value)
    if rule is not None:
        return rule.kind == "template"
    return inspect.isfunction(value) and value.__closure__ is None and \
        not value.__defaults__ and not value.__kwdefaults__ and \
        opaque_library(value) is None and not takes_varargs(value)


def _callable_object(value):
    """A user object stored on the object whose class defines `__call__` in Python
    (`self.inner = Dense(W, b)`, then `self.inner(h)`): its attributes may carry
    tangents, which the receiver's tangent holds."""
    call = inspect.getattr_static(type(value), "__call__", None)
    return _users(type(value)) and not isinstance(value, type) and \
        inspect.isfunction(call) and opaque_library(call) is None


def _attribute_call(cls, name, count):
    """`call_attr_<name>(a0, ..)`: `f = a0.<name>`, then `f(a1, ..)`, so the attribute's
    tangent is read from the receiver's and the call is dispatched by f's `__call__`."""
    with _LOCK:
        made = _MADE.setdefault(cls, {})
        if ("attr", name, count) not in made:
            params = [f"a{k}" for k in range(count)]
            text = f"def call_attr_{name}({', '.join(params)}):\n" \
                f"    f = a0.{name}\n    return f({', '.join(params[1:])})\n"
            filename = f"<thunkgrad call of {cls.__qualname__}.{name} {id(cls):x} {count}>"
            linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
            namespace = {}
            exec(compile(text, filename, "exec"), namespace)
            made[("attr", name, count)] = namespace[f"call_attr_{name}"]
        return made[("attr", name, count)]


def _receiver_first(fn, cls, count):
    """`call_<name>(a0, ..)` calling fn without a0 (given cls first for a classmethod)."""
    with _LOCK:
        try:
            made = _MADE.setdefault(fn, {})
        except TypeError:                   # no weak reference (a ufunc)
            made = _KEPT.setdefault(fn, {})
        if (cls, count) not in made:
            made[(cls, count)] = _made(fn, cls, count)
        return made[(cls, count)]


def _made(fn, cls, count):
    name = fn.__name__ if fn.__name__.isidentifier() else "method"
    params = [f"a{k}" for k in range(count)]
    passed = (["cls"] if cls is not None else []) + params[1:]
    text = f"def call_{name}({', '.join(params)}):\n    return fn({', '.join(passed)})\n"
    filename = f"<thunkgrad call of {name} {id(fn):x} {id(cls):x} {count}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"fn": fn, "cls": cls}
    exec(compile(text, filename, "exec"), namespace)
    return namespace[f"call_{name}"]
