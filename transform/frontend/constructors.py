"""Stage 1, parse: a user class's `__init__` read as a function that returns the object.

A class whose `__init__` only sets attributes of `self` from its arguments (any
expressions, helpers, loops) is built by compiling that `__init__` as a function
of its arguments whose result is the object, so `MLP(W, b)` inside the function
being differentiated gives W and b their cotangents:

    class MLP:                                   def MLP(W, b):          (compiled)
        def __init__(self, W, b):                    self_W = W
            self.W = W                   ->          self_b = b * 2.0
            self.b = b * 2.0                         return build(self_W, self_b)

`build` makes the object without running `__init__` again, and its rule gives each
stored value its attribute's cotangent (lowering/records.py object_builder). Any
other use of `self` (passing it on, calling its methods, `super().__init__`, an
attribute read before it is set) is not rewritten: the class stays refused where a
differentiated value reaches it (lowering/records.py record_hint says why).
"""
import dataclasses
import inspect
import types
import weakref

import gast

from ..ir.nodes import names_below
from .base_init import base_call, inlined, names_of
from .constructor_methods import attribute_parents as _attribute_parents, call_methods, \
    mark_calls, method_calls, parsed as _parsed
from .try_scope import definitely_bound

_LITERALS = (int, float, complex, str, bool, bytes, type(None))
_HEAP_TYPE = 1 << 9                       # Py_TPFLAGS_HEAPTYPE: made by `class`
_MADE = weakref.WeakKeyDictionary()       # class -> its constructor function, or None


def constructor_of(cls, builder_for):
    """The function standing for `cls(...)` (compiled like any user function), or
    None when cls is not built this way. builder_for(cls, fields) makes the object."""
    if cls not in _MADE:
        _MADE[cls] = _make(cls, builder_for)
    return _MADE[cls]


def _make(cls, builder_for):
    if not _plain_class(cls):
        return None
    try:
        built = _tree(cls)
    except Exception:                     # no source, or it does not parse on its own
        return None
    if built is None:
        return None
    _, fields, init = built
    stub = _stub(init, cls)
    stub.thunkgrad_constructor = (cls, init, fields, builder_for(cls, fields))
    stub.thunkgrad_partial = _partials(cls, builder_for)
    try:
        return stub if _sets_every_field(stub) else None
    except _Unsafe:
        return None


class _Unsafe(Exception):
    """A method called on self where frontend/constructor_methods.py cannot run it."""


def _partials(cls, builder_for):
    """fields -> the builder of an object holding only those (made once each)."""
    made = {}

    def partial(fields):
        if fields not in made:
            made[fields] = builder_for(cls, list(fields))
            made[fields].__name__ = made[fields].__qualname__ = \
                f"build_{cls.__name__}_partial{len(made)}"
        return made[fields]
    return partial


def _tree(cls):
    """((fdef with self, filename, lines, first line), the attributes set, the
    __init__ whose parameters the constructor takes), or None."""
    if dataclasses.is_dataclass(cls):
        init = cls.__dict__.get("__init__")
        code = _code_of(cls, init)
        if code is None or code.__code__.co_freevars:
            return None                    # (`super()` reads the __class__ cell)
        parsed = _with_self(cls, *_parsed(code))
        fields = _stored_attributes(parsed[0], cls=cls)
        return None if fields is None else (parsed, fields, init)
    owner = next(k for k in cls.__mro__ if "__init__" in k.__dict__)   # inherited too
    return _init_tree(cls, owner)


def _init_tree(cls, owner):
    """_tree for the __init__ class `owner` defines, run for an object of class cls."""
    init = owner.__dict__["__init__"]
    if owner is object or not isinstance(init, types.FunctionType):
        return None
    parsed = _parsed(init)
    fdef = parsed[0]
    found = base_call(fdef, owner, cls, init) if fdef.args.args else None
    if found is None:
        fields = None if init.__code__.co_freevars else _stored_attributes(fdef, cls=cls)
        return None if fields is None else (parsed, fields, init)
    fields = _with_base(cls, init, fdef, found)
    return None if fields is None else (parsed, fields, init)


def _with_base(cls, init, fdef, found):
    """Inline the base's __init__ the first statement calls (frontend/base_init.py)
    into fdef; the attributes set (the base's first), or None when unsafe."""
    k, base, call = found
    me = fdef.args.args[0].id
    args = gast.Tuple(elts=call.args + [v.value for v in call.keywords], ctx=gast.Load())
    if init.__code__.co_freevars not in ((), ("__class__",)) or \
            any(n.id in (me, "super", "__class__") for n in names_below(args)) or \
            not _no_nested_scopes(args):
        return None
    if base is object:                     # `super().__init__()`: object's does nothing
        new, base_fields = ([], []) if not call.args and not call.keywords else (None, None)
    else:
        inner = _init_tree(cls, base)
        if inner is None:
            return None
        (bfdef, *_), base_fields, binit = inner
        new = inlined(call, fdef.body[k], me, bfdef, base, names_of(fdef),
                      _same_globals(init.__globals__, binit.__globals__))
    if new is None:
        return None
    head, fdef.body = fdef.body[:k], fdef.body[k + 1:]
    later = {n.id for n in names_below(gast.Module(body=fdef.body, type_ignores=[]))}
    fields = None if later & {"super", "__class__"} else \
        _stored_attributes(fdef, base_fields, cls)
    fdef.body = head + new + fdef.body
    return fields


def _same_globals(mine, theirs):
    missing = object()
    return lambda names: mine is theirs or \
        all(mine.get(n, missing) is theirs.get(n, missing) for n in names)


def _sets_every_field(stub):
    """Whether every normal way through sets each attribute (one set in one branch only
    would leave Python reading a class attribute where the rewrite has no value)."""
    fdef = constructor_source(stub)[0]
    bound = definitely_bound(fdef.body[:-1])
    return bound is None or all(a.id in bound for a in fdef.body[-1].value.args)


def _code_of(cls, init):
    """The Python code the constructor runs: a user __init__, or a dataclass's
    __post_init__ (after the __init__ dataclasses wrote stores the fields)."""
    post = cls.__dict__.get("__post_init__")
    if dataclasses.is_dataclass(cls) and isinstance(post, types.FunctionType) and \
            getattr(getattr(init, "__code__", None), "co_filename", "") == "<string>":
        plain = all(f.default_factory is dataclasses.MISSING and
                    isinstance(f.default, _LITERALS + (type(dataclasses.MISSING),))
                    for f in dataclasses.fields(cls))
        return post if plain and not (cls.__dataclass_params__.frozen and
                                      _writes_self(post)) else None
    if dataclasses.is_dataclass(cls):
        return None
    return init if isinstance(init, types.FunctionType) else None


def _writes_self(post):
    """Whether __post_init__ writes an attribute of self (`self.x = ...`, which a frozen
    dataclass refuses at run time: its rewrite into a local would not)."""
    fdef = _parsed(post)[0]
    me = fdef.args.args[0].id if fdef.args.args else None
    return any(isinstance(n, gast.Attribute) and not isinstance(n.ctx, gast.Load) and
               isinstance(n.value, gast.Name) and n.value.id == me for n in gast.walk(fdef))


def _with_self(cls, fdef, *where):
    """A dataclass's __post_init__ as the __init__ it stands for: `self.f = f` for
    each field first (at the def's line), the fields as parameters."""
    if not dataclasses.is_dataclass(cls):
        return (fdef,) + where
    me = fdef.args.args[0].id
    given = [f for f in dataclasses.fields(cls) if f.init]
    stores = [gast.parse(f"{me}.{f.name} = {f.name}").body[0] for f in given] + \
        [gast.parse(f"{me}.{f.name} = {f.default!r}").body[0]    # field(init=False)
         for f in dataclasses.fields(cls) if not f.init and        # with a literal default
         f.default is not dataclasses.MISSING]
    for stmt in stores:
        for node in gast.walk(stmt):
            gast.copy_location(node, fdef)
    fdef.args.args[1:] = [gast.Name(id=f.name, ctx=gast.Param(), annotation=None,
                                    type_comment=None) for f in given]
    fdef.args.defaults = [gast.Constant(value=f.default, kind=None) for f in given
                          if f.default is not dataclasses.MISSING]
    fdef.body[:0] = stores
    return (fdef,) + where


def _plain_class(cls):
    """A class made by `class` with object's __new__, each class it derives from also
    made by `class`, one base each, none with __slots__, __setattr__ (but a frozen
    dataclass's), a metaclass or NumPy's hooks (NUMPY_HOOKS) (they would run code this
    module does not read)."""
    chain = cls.__mro__[:-1]
    return cls.__new__ is object.__new__ and all(
        type(k) is type and k.__flags__ & _HEAP_TYPE and len(k.__bases__) == 1 and
        "__slots__" not in k.__dict__ and _own_setattr(k) and
        not NUMPY_HOOKS & set(k.__dict__) for k in chain)


# NumPy functions applied to an object whose class has one run the class's own code
NUMPY_HOOKS = frozenset({"__array_ufunc__", "__array_function__"})


def _own_setattr(k):
    """No __setattr__ of k's own, or a frozen dataclass's (dataclasses wrote it: it only
    refuses writes, which _code_of keeps out of the __post_init__ it reads)."""
    mine = k.__dict__.get("__setattr__")
    return mine is None or dataclasses.is_dataclass(k) and \
        k.__dataclass_params__.frozen and \
        getattr(getattr(mine, "__code__", None), "co_filename", "") == "<string>"


def _stored_attributes(fdef, preset=(), cls=None):
    """The attributes `__init__` sets on self, in order (`preset` set before it), or None
    if it uses self in any other way (then the rewrite could change what it means) than
    calling a method of cls that only reads self (frontend/constructor_methods.py)."""
    args = fdef.args
    if not args.args or args.vararg or args.kwarg or args.posonlyargs:
        return None
    me = args.args[0].id
    parents = _attribute_parents(fdef)
    methods = {id(c.func) for c in method_calls(fdef, me, cls)}
    uses = sorted((n for n in names_below(fdef) if n.id == me and n is not args.args[0]),
                  key=lambda n: (n.lineno, n.col_offset))
    first_set = dict.fromkeys(preset, 0)
    for node in uses:
        line = node.lineno
        parent = parents.get(id(node))
        if parent is not None and id(parent) in methods:
            continue                       # `self.kinetic()`: run on the object so far
        if parent is None:
            return None                    # `helper(self)`, `self = ...`, `return self`
        if isinstance(parent.ctx, gast.Store):
            first_set.setdefault(parent.attr, line)
        elif not (parent.attr in first_set and first_set[parent.attr] < line):
            return None                    # read before set: a class attribute or a method
    return list(first_set) if _no_nested_scopes(fdef) else None


def _no_nested_scopes(fdef):
    """No nested def, lambda or class could keep `self` (a function kept as a value
    reads the object later), no early `return`, `global`, `del` or `yield`."""
    nested = (gast.FunctionDef, gast.Lambda, gast.ClassDef, gast.Return, gast.Yield,
              gast.Global, gast.Nonlocal, gast.Delete)
    return not any(isinstance(n, nested) for n in gast.walk(fdef) if n is not fdef)


def _stub(init, cls):
    """A function with __init__'s parameters after self and __init__'s globals: what
    the compiler resolves names against and calls (its body is the rewritten one)."""
    params = list(inspect.signature(init).parameters.values())[1:]
    text = ", ".join(p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD)
    kwonly = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    if kwonly:
        text += (", " if text else "") + "*, " + ", ".join(kwonly)
    scope = {}
    exec(f"def {cls.__name__}({text}):\n    pass\n", {}, scope)
    code = scope[cls.__name__].__code__
    stub = types.FunctionType(code, init.__globals__, cls.__name__, init.__defaults__)
    stub.__kwdefaults__ = init.__kwdefaults__
    stub.__qualname__ = cls.__qualname__
    stub.__module__ = cls.__module__
    return stub


def constructor_source(fn):
    """(FunctionDef, filename, lines, first line) of the rewritten __init__ of a
    constructor_of function: self's attributes become locals, the object is returned."""
    cls, _, fields, builder = fn.thunkgrad_constructor
    fdef, filename, lines, first_line = _tree(cls)[0]
    me = fdef.args.args[0].id
    local = _local_names_for(fdef, fields, me)
    mark_calls(fdef, me, cls)
    fdef.args.args = fdef.args.args[1:]
    for node in gast.walk(fdef):
        for name, value in gast.iter_fields(node):
            if isinstance(value, gast.Attribute) and _is_self(value, me):
                setattr(node, name, _renamed(value, local))
            elif isinstance(value, list):
                value[:] = [_renamed(v, local) if isinstance(v, gast.Attribute) and
                            _is_self(v, me) else v for v in value]
    partial = fn.thunkgrad_partial
    partial.order, partial.fields = [local[f] for f in fields], {local[f]: f for f in fields}
    if not call_methods(fdef, me, cls, partial):
        raise _Unsafe(cls)
    fdef.body.append(_return_built(fdef, builder, [local[f] for f in fields]))
    fdef.name = cls.__name__
    return fdef, filename, lines, first_line


def _is_self(node, me):
    return isinstance(node.value, gast.Name) and node.value.id == me


def _renamed(attribute, local):
    name = gast.Name(id=local[attribute.attr], ctx=attribute.ctx, annotation=None,
                     type_comment=None)
    return gast.copy_location(name, attribute)


def _local_names_for(fdef, fields, me):
    """attribute -> a local name the function does not use (`self_w`)."""
    used = {n.id for n in names_below(fdef)}
    chosen = {}
    for field in fields:
        name = f"{me}_{field}"
        while name in used:
            name += "_"
        used.add(name)
        chosen[field] = name
    return chosen


def _return_built(fdef, builder, names):
    """`return build(self_a, self_b)` at the def's line, `build` the object builder."""
    func = gast.Name(id=builder.__name__, ctx=gast.Load(), annotation=None,
                     type_comment=None)
    func.runtime_helper = builder
    args = [gast.Name(id=n, ctx=gast.Load(), annotation=None, type_comment=None)
            for n in names]
    ret = gast.Return(value=gast.Call(func=func, args=args, keywords=[]))
    last = fdef.body[-1]
    for node in gast.walk(ret):
        gast.copy_location(node, last)
    return ret
