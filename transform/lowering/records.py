"""Stage 3, normalize (data): a dataclass or NamedTuple built from values being
differentiated gets a rule whose pullback gives each argument its field's cotangent:

    p = Params(w=w * 2, b=b)    ->  rule Params(w, b):  dw = record_field(g, "w", 0)
    return np.sum(p.w * p.b)                            db = record_field(g, "b", 1)

Only for classes whose constructor only stores its arguments: a dataclass with the
`__init__` dataclasses wrote and no `__post_init__`, a NamedTuple (or namedtuple) with
its own `__new__`. A `@property` with Python source is fine: reading it is
differentiated through its getter (runtime/containers.py computed_attribute_vjp).
"""
import dataclasses
import functools
import inspect
import types
import weakref

from runtime.built_objects import note_built
from runtime.jvp import JOINT
from runtime.registry import Rule

from ..frontend.constructor_reasons import why_not_built

_RESERVED = {"record_field"}      # a name the templates read (`g`, `ans` there mean the
# cotangent and output: a field of that name is bound by position or keyword only)
_LITERALS = (int, float, complex, str, bool, bytes, type(None))
_CACHE = weakref.WeakKeyDictionary()


def record_rule(fn):
    """The rule for building record class `fn` (or an object_builder's), or None."""
    if not isinstance(fn, type):
        return getattr(fn, "thunkgrad_rule", None)
    if fn not in _CACHE:
        _CACHE[fn] = _build(fn) if _stores_only(fn) else None
    return _CACHE[fn]


def _stores_only(cls):
    if _computed_attributes(cls):
        return False                   # `p.wb` would run code the compiler has not read
    if dataclasses.is_dataclass(cls):
        return _written_by_python(cls.__init__) and cls.__new__ is object.__new__ and \
            not hasattr(cls, "__post_init__")
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return _written_by_python(cls.__new__) and cls.__init__ is object.__init__
    return False


def _computed_attributes(cls):
    """Class attributes read through code (properties and other descriptors), other
    than methods and a NamedTuple's own field getters."""
    fields = set(getattr(cls, "_fields", ()))
    found = []
    for base in cls.__mro__:
        if base in (object, tuple) or base.__module__ in ("typing", "builtins"):
            continue
        for name, value in vars(base).items():
            plain = isinstance(value, (types.FunctionType, staticmethod, classmethod)) \
                or _compiled_getter(value)      # differentiated through its getter
            dunder = name.startswith("__") and name.endswith("__")    # __dict__, ...
            if name in fields or plain or dunder or not hasattr(type(value), "__get__"):
                continue
            found.append(name)
    return found


def _compiled_getter(descriptor):
    """A property (or functools.cached_property) whose getter is Python code: the
    compiler differentiates reading it through the getter (computed_attribute_vjp)."""
    getter = getattr(descriptor, "fget", None) or getattr(descriptor, "func", None)
    return isinstance(descriptor, (property, functools.cached_property)) and \
        isinstance(getter, types.FunctionType)


def _written_by_python(method):
    """Made by dataclasses or collections from a template (their code is `<string>`)."""
    code = getattr(method, "__code__", None)
    return code is not None and code.co_filename == "<string>"


def _build(cls):
    params = list(inspect.signature(cls).parameters.values())
    fields = list(getattr(cls, "_fields", ())) or \
        [f.name for f in dataclasses.fields(cls) if f.init]
    text, templates = [], []
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in _RESERVED or \
                p.name not in fields:
            return None
        if p.default is not p.empty and not isinstance(p.default, _LITERALS):
            return None
        if p.kind is p.KEYWORD_ONLY and "*" not in text:
            text.append("*")
        text.append(p.name if p.default is p.empty else f"{p.name}={p.default!r}")
        position = fields.index(p.name) if hasattr(cls, "_fields") else None
        templates.append(f"record_field(g, {p.name!r}, {position}, {tuple(fields)!r})")
    rule = Rule(cls, "template", ", ".join(text), templates, complex_ok=True,  # stores
                jvp=JOINT)         # linear in the fields together: built from tangents
    rule.maybe_none = True             # a field never read has no cotangent (None)
    return rule


def record_hint(fn):
    """What to write instead when a value being differentiated reaches class `fn`'s
    constructor and fn is not a record this module can differentiate; None otherwise."""
    if not isinstance(fn, type) or fn.__module__ in ("builtins",) or \
            fn.__module__.split(".")[0] in ("numpy", "scipy"):
        return None
    computed = _computed_attributes(fn)
    found = None if computed else why_not_built(fn)
    if found is not None:
        return f"{found[1]} ({fn.__name__} is not a class the compiler can build: " \
            f"{found[0]})"
    why = f"its attribute `{computed[0]}` is computed by code" if computed else \
        "its constructor does more than set attributes of `self` (a base class's " \
        "`__init__` that does more, `super().__init__` other than as the first " \
        "statement, several base classes, passes `self` on or calls its methods, sets " \
        "an attribute on some paths only, or is a `__new__` or `__post_init__`)"
    return (f"{fn.__name__} is not a class the compiler can build: {why}, which the "
            "compiler does not follow. Let `__init__` only set attributes of self from "
            "its arguments (compute the rest in a method or a @property), or build the "
            "object outside the differentiated function and pass it in")


def object_builder(cls, fields):
    """`build(v0, v1, ...)`: an object of user class `cls` whose attributes `fields`
    are the values, made without running `__init__` (frontend/constructors.py ran its
    code as compiled statements); its rule gives each value its attribute's cotangent."""
    def build(*values):
        obj = object.__new__(cls)
        for field, value in zip(fields, values):
            object.__setattr__(obj, field, value)
        note_built(obj)
        return obj
    build.__name__ = build.__qualname__ = f"build_{cls.__name__}"
    params = [f"v{k}" for k in range(len(fields))]
    templates = [f"record_field(g, {f!r}, None, {tuple(fields)!r})" for f in fields]
    build.thunkgrad_rule = Rule(build, "template", ", ".join(params), templates,
                                complex_ok=True, jvp=JOINT)   # stores values: linear
    build.thunkgrad_rule.maybe_none = True       # an attribute never read: no cotangent
    return build
