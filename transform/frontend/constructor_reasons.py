"""Stage 1, parse: what in a class's construction frontend/constructors.py does not
follow, for the refusal where a value being differentiated reaches the class
(lowering/records.py record_hint): the first such construct found, at its line, and
what to write instead:

    class Preset(Fitted):
        def __init__(self, w, s):
            self.s = s             ->  "`self.s = s` (models.py:3) runs before
            super().__init__(w)         `super().__init__(w)`, which the compiler reads as
                                        the first statement only"

(why, instead), or None when no reason is found (record_hint then lists them all).
"""
import dataclasses
import os
import types

import gast

from ..ir.nodes import names_below
from .base_init import base_call
from .constructor_methods import reading_method
from .constructors import NUMPY_HOOKS, _HEAP_TYPE, _LITERALS, _attribute_parents, _own_setattr, _parsed, _writes_self

_OUTSIDE = "or build the object outside the differentiated function and pass it in"
_NESTED = (gast.FunctionDef, gast.Lambda, gast.ClassDef, gast.Return, gast.Yield,
           gast.Global, gast.Nonlocal, gast.Delete)


def why_not_built(cls):
    """(why, instead) for class cls, or None."""
    try:
        return _why(cls)
    except Exception:           # noqa: BLE001 (no source: the general hint instead)
        return None


def _why(cls):
    if not cls.__flags__ & _HEAP_TYPE:
        return None             # a type written in C (itertools.accumulate): no source
    plain = _not_plain(cls)
    if plain is not None:
        return plain
    if dataclasses.is_dataclass(cls):
        return _why_dataclass(cls)
    owner = next(k for k in cls.__mro__ if "__init__" in k.__dict__)
    return _why_init(cls, owner)


def _not_plain(cls):
    for k in cls.__mro__[:-1]:
        hooks = sorted(NUMPY_HOOKS & set(k.__dict__))
        if hooks:
            return (f"`{k.__name__}` defines `{hooks[0]}`, so NumPy functions of it run "
                    "its own code", "apply NumPy functions to the arrays the object holds "
                    f"(`np.sin(obj.v)`), {_OUTSIDE}")
        own = [n for n in ("__new__", "__slots__") if n in k.__dict__] + \
            ([] if _own_setattr(k) else ["__setattr__"])
        if own or len(k.__bases__) > 1 or type(k) is not type:
            what = f"defines `{own[0]}`" if own else "has several base classes" \
                if len(k.__bases__) > 1 else f"has the metaclass `{type(k).__name__}`"
            return f"`{k.__name__}` {what}", _OUTSIDE
    return None


def _why_dataclass(cls):
    post = cls.__dict__.get("__post_init__")
    if post is None:
        owner = next(k for k in cls.__mro__ if "__post_init__" in k.__dict__)
        return (f"its `__post_init__` is inherited from `{owner.__name__}` (the compiler "
                "reads a dataclass's own `__post_init__` only)", _OUTSIDE)
    for f in dataclasses.fields(cls):
        what = "has a `default_factory`" \
            if f.default_factory is not dataclasses.MISSING else \
            "has a default other than a literal" if not isinstance(
                f.default, _LITERALS + (type(dataclasses.MISSING),)) else None
        if what is not None:
            return (f"its field `{f.name}` {what}, and it has a `__post_init__`",
                    "compute that value in a method or a @property instead of a field "
                    f"set by `__post_init__`, {_OUTSIDE}")
    if cls.__dataclass_params__.frozen and _writes_self(post):
        return (f"its `__post_init__` sets an attribute of `self`, which a frozen "
                "dataclass refuses", "compute that value in a method or a @property, "
                f"{_OUTSIDE}")
    fdef, filename, lines, first = _parsed(post)
    preset = [f.name for f in dataclasses.fields(cls)]
    return _why_body(fdef, preset, _Where(filename, lines, first), "__post_init__", cls)


def _why_init(cls, owner):
    init = owner.__dict__["__init__"]
    if owner is object or not isinstance(init, types.FunctionType):
        return None
    fdef, filename, lines, first = _parsed(init)
    at = _Where(filename, lines, first)
    found = base_call(fdef, owner, cls, init) if fdef.args.args else None
    if found is None:
        late = _base_calls(fdef)
        if late:
            return _late_base_call(fdef, late[0], at)
        return _why_body(fdef, (), at, f"{owner.__name__}.__init__", cls)
    k, base, call = found
    if any(isinstance(a, gast.Starred) for a in call.args) or \
            any(v.arg is None for v in call.keywords):
        return (f"{at(fdef.body[k])} passes `*args` or `**kwargs` on to "
                f"`{base.__name__}.__init__`", "pass each of the base's parameters by "
                f"name (`super().__init__(w=w, b=b)`), {_OUTSIDE}")
    inner = None if base is object else _why_init(cls, base)
    if inner is not None:
        return f"its base class `{base.__name__}`: {inner[0]}", inner[1]
    rest = fdef.body[k + 1:]
    fdef.body = fdef.body[:k] + rest
    return _why_body(fdef, _stores_in(cls, base), at, f"{owner.__name__}.__init__", cls)


def _late_base_call(fdef, stmt, at):
    first = [s for s in fdef.body if not _docstring(s)][0]
    if first is stmt:
        return (f"{at(stmt)} calls a base's `__init__` in a form the compiler does not "
                "read", "write `super().__init__(...)`, `super(C, self).__init__(...)` "
                f"or `Base.__init__(self, ...)` naming a base class, {_OUTSIDE}")
    return (f"{at(first)} runs before {at(stmt)}, which the compiler reads as the first "
            "statement only", f"call the base's `__init__` first, {_OUTSIDE}")


def _why_body(fdef, preset, at, what, cls):
    args = fdef.args
    if not args.args or args.vararg or args.kwarg or args.posonlyargs:
        return (f"`{what}` takes `*args`, `**kwargs` or positional-only parameters",
                f"name each parameter in its `def`, {_OUTSIDE}")
    nested = next((n for n in gast.walk(fdef) if n is not fdef and
                   isinstance(n, _NESTED)), None)
    if nested is not None:
        return (f"{at(nested)} in `{what}` (a nested function, lambda or class, `return`, "
                "`yield`, `global` or `del`)", f"move it out of `{what}`, {_OUTSIDE}")
    return _self_use(fdef, preset, at, what, cls)


def _self_use(fdef, preset, at, what, cls):
    """The first use of self other than setting an attribute, reading one set or calling
    a method that only reads self (frontend/constructor_methods.py)."""
    me = fdef.args.args[0].id
    parents = _attribute_parents(fdef)
    calls = {id(n.func) for n in gast.walk(fdef) if isinstance(n, gast.Call)}
    uses = sorted((n for n in names_below(fdef) if n.id == me and n is not fdef.args.args[0]),
                  key=lambda n: (n.lineno, n.col_offset))
    done = set(preset)
    for node in uses:
        parent = parents.get(id(node))
        if parent is None:
            return (f"{at(node)} passes `{me}` on or rebinds it in `{what}`",
                    f"set attributes of `{me}` in `{what}` itself, {_OUTSIDE}")
        if isinstance(parent.ctx, gast.Store):
            done.add(parent.attr)
        elif id(parent) in calls and reading_method(cls, parent.attr) is not None:
            continue
        elif id(parent) in calls:
            return (f"{at(node)} calls the method `{me}.{parent.attr}()` in `{what}`, "
                    f"which sets attributes of `{me}` or passes it on (or has no source)",
                    "compute that value in a method or a @property read after the object "
                    f"is built, {_OUTSIDE}")
        elif parent.attr not in done:
            return (f"{at(node)} reads `{me}.{parent.attr}` in `{what}` before setting it "
                    "(a class attribute, a property or a method)",
                    f"pass the value to `{what}` as an argument, {_OUTSIDE}")
    return None


def _stores_in(cls, base):
    """The attributes any `__init__` from `base` on in cls's MRO sets on self (what a
    base's `__init__` may have set before the rest of the body runs)."""
    found = set()
    for k in cls.__mro__[cls.__mro__.index(base):]:
        init = k.__dict__.get("__init__")
        if isinstance(init, types.FunctionType):
            fdef = _parsed(init)[0]
            found |= {n.attr for n in gast.walk(fdef) if isinstance(n, gast.Attribute)
                      and isinstance(n.ctx, gast.Store)}
    return found


def _base_calls(fdef):
    """Statements `X.__init__(...)` (a base's, any form) in fdef's body."""
    return [s for s in fdef.body if isinstance(s, gast.Expr) and
            isinstance(s.value, gast.Call) and isinstance(s.value.func, gast.Attribute)
            and s.value.func.attr == "__init__"]


def _docstring(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant) and \
        isinstance(stmt.value.value, str)


class _Where:
    """at(node): "`<its line's text>` (file.py:line)"."""

    def __init__(self, filename, lines, first):
        self.name, self.lines, self.first = os.path.basename(filename), lines, first

    def __call__(self, node):
        text = self.lines[node.lineno - 1].strip()
        code, _, comment = text.partition("#")
        if comment and '"' not in code and "'" not in code:
            text = code.rstrip()
        return f"`{text}` ({self.name}:{self.first + node.lineno - 1})"
