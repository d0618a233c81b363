"""Stage 3, normalize (calls): a helper or property whose result is an integer made from
sizes carries no derivative, whatever its arguments:

    def deg(c): return len(c) - 1          t = integer_valued(deg(c))   (no adjoint)
    @property                              t = integer_valued(self.n)   (no getter's vjp)
    def n(self): return int(self.g.max()) + 1

Such a function's body only binds local names and returns; every value it returns is
built from integer literals, `len(...)`, `int(...)`, `.shape`/`.ndim`/`.size`, the
names so bound, other such helpers and properties, with + - * // % and unary minus.
The generated code runs a checked copy of it (runtime/integer_reads.py: integer_call,
integer_attribute): a reduction, `len` or `int` of a user object (whose `.sum()` could
add to a differentiated attribute), a `.shape` that is no integer, are refused when
they run: never a derivative dropped.
"""
import ast
import builtins
import functools
import inspect
import textwrap
import types
import weakref

import gast
import numpy as np

from ..ir.primitives import Prim
from .sequence_kinds import bindings

_SIZES = ("shape", "ndim", "size")
_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_READS = ("max", "min", "sum", "argmax", "argmin", "item", "any", "all", "count")
# what runtime/integer_reads.py's checked copy may run
_NODES = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Call,
          ast.BinOp, ast.UnaryOp, ast.Compare, ast.Tuple, ast.List, ast.keyword,
          ast.expr_context, ast.operator, ast.unaryop, ast.cmpop)
_CACHE = weakref.WeakKeyDictionary()


def integer_call(calls, e, func, fn, target, discard):
    """`t = integer_call(deg, c)`: deg run as a checked copy, its value an integer;
    None if `fn` is no such function, or an argument is a local user object."""
    if not integer_function(fn) or e.keywords or \
            any(isinstance(a, gast.Starred) for a in e.args) or \
            any(isinstance(a, gast.Name) and _class_of(calls.src, a) for a in e.args):
        return None         # a user object's own .sum() may change it: differentiated
    args = [calls.argument(a) for a in e.args]
    checked = calls.names.call("integer_call", func, *args)
    return calls.norm.finish(target, checked, Prim("nondiff", fn.__name__), discard)


def integer_read(norm, e, node):
    """`integer_valued(obj.name)` where obj is a local bound only to instances of one user
    class (or a method's own `self`) whose `name` is such a property; None otherwise."""
    cls = _class_of(norm.src, e.value) if isinstance(e.value, gast.Name) else None
    member = inspect.getattr_static(cls, e.attr, None) if cls is not None else None
    if isinstance(member, property) and integer_function(member.fget):
        return norm.names.call("integer_attribute", node.value, gast.Constant(e.attr, None))
    return None


def self_class(src, name):
    """The user class whose method (or property or cached_property getter) `src`
    compiles, if `name` is its first parameter, never rebound (the instance); else None."""
    fn = src.fn
    parts = getattr(fn, "__qualname__", "").split(".")
    if len(parts) != 2 or not src.params or src.params[0] != name or \
            bindings(src).get(name):
        return None
    cls = getattr(fn, "__globals__", {}).get(parts[0])
    member = vars(cls).get(parts[1]) if isinstance(cls, type) else None
    getter = member.fget if isinstance(member, property) else \
        member.func if isinstance(member, functools.cached_property) else member
    if getter is not fn or _library(cls):
        return None
    return cls


def _library(cls):
    return issubclass(cls, np.ndarray) or \
        (cls.__module__ or "").split(".")[0] in ("builtins", "numpy", "scipy")


def _class_of(src, name):
    own = self_class(src, name.id)
    if own is not None:
        return own
    values = bindings(src).get(name.id) if name.id in src.locals else None
    classes = {src.resolve(v.func) if isinstance(v, gast.Call) else None
               for v in values or ()}
    cls = classes.pop() if len(classes) == 1 else None
    return cls if isinstance(cls, type) and not _library(cls) else None


def integer_function(fn, seen=()):
    """Whether every value `fn` returns is an integer made from sizes (above)."""
    if not isinstance(fn, types.FunctionType) or fn in seen:
        return False
    if fn not in _CACHE:
        _CACHE[fn] = _reads_sizes_only(fn, seen + (fn,))
    return _CACHE[fn]


def _reads_sizes_only(fn, seen):
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef) or fdef.args.vararg or fdef.args.kwarg:
        return False
    body = fdef.body[1:] if ast.get_docstring(fdef) else fdef.body
    names, check = set(), _Integers(fn, seen)
    for s in body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and \
                isinstance(s.targets[0], ast.Name) and check.integer(s.value, names):
            names.add(s.targets[0].id)
        elif not (isinstance(s, ast.Return) and s.value is not None and
                  check.integer(s.value, names)):
            return False
    return bool(body) and isinstance(body[-1], ast.Return)


class _Integers:
    """Which expressions of `fn`'s body are integers made from sizes."""

    def __init__(self, fn, seen):
        self.fn, self.seen = fn, seen
        self.self_name = fn.__code__.co_varnames[0] if fn.__code__.co_argcount else None

    def integer(self, e, names):
        if isinstance(e, ast.Constant):
            return type(e.value) in (int, bool)
        if isinstance(e, ast.Name):
            return e.id in names
        if isinstance(e, ast.BinOp):
            return isinstance(e.op, _OPS) and self.integer(e.left, names) and \
                self.integer(e.right, names)
        if isinstance(e, ast.UnaryOp):
            return isinstance(e.op, ast.USub) and self.integer(e.operand, names)
        if isinstance(e, ast.Subscript):       # x.shape[0]
            return _size_attribute(e.value) and self.read(e.value) and \
                self.integer(e.slice, names)
        if isinstance(e, ast.Attribute):
            return _size_attribute(e) and self.read(e.value) or self.own_property(e)
        if isinstance(e, ast.Call) and not e.keywords:
            return self.call(e, names)
        return False

    def call(self, e, names):
        fn = self.resolve(e.func)
        if fn in (builtins.len, builtins.int) and len(e.args) == 1:
            return self.read(e.args[0])
        return integer_function(fn, self.seen) and \
            all(self.read(a) and not isinstance(a, ast.Starred) for a in e.args)

    def own_property(self, e):
        """`self.n` in a method of a class whose property n is such a function."""
        if not (isinstance(e.value, ast.Name) and e.value.id == self.self_name):
            return False
        parts = self.fn.__qualname__.split(".")
        cls = self.fn.__globals__.get(parts[0]) if len(parts) == 2 else None
        member = inspect.getattr_static(cls, e.attr, None) if isinstance(cls, type) else None
        return isinstance(member, property) and integer_function(member.fget, self.seen)

    def resolve(self, func):
        if not isinstance(func, ast.Name) or func.id in self.fn.__code__.co_varnames:
            return None
        found = self.fn.__globals__.get(func.id, getattr(builtins, func.id, None))
        return None if self.fn.__closure__ and func.id in self.fn.__code__.co_freevars \
            else found

    def read(self, e):
        """An expression that only reads (names, attributes, indexing, arithmetic,
        and reductions like `.max()`): the checked copy the generated code runs
        (runtime/integer_reads.py) refuses one that changes something."""
        for node in ast.walk(e):
            if not isinstance(node, _NODES):
                return False
            if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Attribute) and
                                                   node.func.attr in _READS):
                return False
        return True


def _size_attribute(e):
    return isinstance(e, ast.Attribute) and e.attr in _SIZES
