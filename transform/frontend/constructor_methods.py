"""Stage 1, parse: a method a constructor calls on `self` (frontend/constructors.py), as a
dataclass's `__post_init__` setting a `field(init=False)` often does:

    @dataclass                                   def Orbit(r, v, mu=1.0):     (compiled)
    class Orbit:                                     self_r = r
        r: float                                     self_v = v
        v: float                                     self_mu = mu
        mu: float = 1.0                              self_energy = Orbit_kinetic(
        energy: float = field(init=False)   ->           build_Orbit_partial(self_r, self_v,
        def __post_init__(self):                         self_mu)) - self_mu / self_r
            self.energy = self.kinetic() - ...       return build_Orbit(self_r, self_v,
        def kinetic(self):                                              self_mu, self_energy)
            return 0.5 * self.v ** 2

The method runs on an object holding the attributes set so far: the same values Python's
`self` holds then, so only when (1) the method, and each method or @property it reads
on self, only reads attributes of self (no `self.x = ...`, no `self` passed on or
rebound, no cached_property or other descriptor): writes to another object than the one
built would be lost; (2) the call is in a plain statement
(`=`, `+=`, an expression) of the constructor's body itself, not inside an `if` or a
loop; (3) every attribute the statements before it may set, they set on every way
through (else the object would show a class attribute where Python's shows one set).
Otherwise the class is not built this way (refused where a derivative reaches it).
"""
import ast
import inspect
import textwrap
import types

import gast

from ..ir.nodes import names_below
from .source_check import check_current, source_of
from .to_gast import ast_to_gast
from .try_scope import definitely_bound

_PLAIN = (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.Expr)


def parsed(fn):
    filename, lines, first_line = source_of(fn)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    check_current(fn, tree.body[0], filename, first_line)
    return ast_to_gast(tree).body[0], filename, lines, first_line


def attribute_parents(fdef):
    """id(Name) -> the Attribute whose value it is (`self.w`)."""
    return {id(n.value): n for n in gast.walk(fdef)
            if isinstance(n, gast.Attribute) and isinstance(n.value, gast.Name)}


def reading_method(cls, name, depth=0):
    """The function of cls's method `name` when it (and each method or property it reads
    on self) only reads attributes of self; else None."""
    fn = inspect.getattr_static(cls, name, None) if cls is not None else None
    if not isinstance(fn, types.FunctionType) or name.startswith("__"):
        return None
    return fn if _reads_only(cls, fn, depth) else None


def _reads_only(cls, fn, depth):
    """Whether fn's first parameter is only read from: `self.a` loads, where a is no
    descriptor of cls other than a method or @property that reads only too (a
    cached_property's cache, written on the object so far, would be lost)."""
    try:
        fdef = parsed(fn)[0]
    except Exception:               # noqa: BLE001 (no source: not read)
        return False
    if depth > 4 or not fdef.args.args or fdef.args.posonlyargs:
        return False
    me = fdef.args.args[0].id
    parents = attribute_parents(fdef)
    for node in names_below(fdef):
        if node.id != me or node is fdef.args.args[0]:
            continue
        parent = parents.get(id(node))
        if parent is None or not isinstance(parent.ctx, gast.Load) or \
                parent.attr.startswith("__") or \
                not _read_only_member(cls, parent.attr, depth):
            return False
    return True


def _read_only_member(cls, name, depth):
    static = inspect.getattr_static(cls, name, None)
    if isinstance(static, types.FunctionType):
        return _reads_only(cls, static, depth + 1)
    if isinstance(static, property):
        return isinstance(static.fget, types.FunctionType) and static.fset is None and \
            _reads_only(cls, static.fget, depth + 1)
    return not hasattr(type(static), "__get__")     # a value (or no class attribute)


def method_calls(fdef, me, cls):
    """The calls `self.m(...)` in fdef of a reading method m of cls."""
    return [n for n in gast.walk(fdef) if isinstance(n, gast.Call) and
            isinstance(n.func, gast.Attribute) and isinstance(n.func.value, gast.Name)
            and n.func.value.id == me and reading_method(cls, n.func.attr) is not None]


def call_methods(fdef, me, cls, partial):
    """Rewrite the method calls of fdef (whose body stores self's attributes already
    renamed to locals, `local`: attribute -> name) as calls of the method's function on
    `partial(fields)(<those locals>)`, an object of the attributes set before; False
    (fdef unusable) when conditions (2) or (3) above do not hold."""
    for k, stmt in enumerate(fdef.body):
        calls = [n for n in gast.walk(stmt) if getattr(n, "self_method", None)]
        if not calls:
            continue
        before = fdef.body[:k]
        set_before = [n for n in partial.order if n in _stored_names(before)]
        if not isinstance(stmt, _PLAIN) or \
                not set(set_before) <= (definitely_bound(before) or set()):
            return False
        builder = partial(tuple(partial.fields[n] for n in set_before))
        for call in calls:
            call.args[0] = _helper(builder, [_load(n) for n in set_before], call)
    return True


def mark_calls(fdef, me, cls):
    """`self.m(a)` -> `<m's function>(self, a)`, marked, for call_methods to fill in."""
    for call in method_calls(fdef, me, cls):
        fn = reading_method(cls, call.func.attr)
        func = gast.copy_location(_load(f"{cls.__name__}_{fn.__name__}"), call.func)
        func.runtime_helper = fn
        call.func, call.self_method = func, True
        call.args.insert(0, gast.copy_location(_load(me), call))


def _stored_names(stmts):
    return {n.id for s in stmts for n in gast.walk(s)
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def _helper(fn, args, at):
    func = _load(fn.__name__)
    func.runtime_helper = fn
    call = gast.Call(func=func, args=args, keywords=[])
    for node in gast.walk(call):
        gast.copy_location(node, at)
    return call
